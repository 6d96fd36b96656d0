import t from 'tap';
import { z } from 'zod';
import type { AnyProcedure } from '@trpc/server';
import { appRouter } from '../../server/trpc/app-router.ts';
import { chainOf, type ProcedureDef } from '../../server/trpc/chain.ts';
import { createCallerFactory, publicProcedure, router } from '../../server/trpc/init.ts';
import { invokeProcedure } from '../../server/trpc/invoke.ts';

// invokeProcedure replaces tRPC's caller on the REST door; it must answer exactly as tRPC's own
// caller does. Each case runs through both and compares the outcome.
const seen: unknown[] = [];
const addTag = publicProcedure.use(({ next }) => next({ ctx: { tag: 'added' } }));
const procedures = {
  echo: publicProcedure.input(z.object({ a: z.number() })).output(z.object({ a: z.number(), ctx: z.string() }))
    .query(({ input, ctx }) => ({ a: input.a, ctx: (ctx as unknown as { who: string }).who })),
  merged: publicProcedure.input(z.object({ a: z.number() })).input(z.object({ b: z.string().default('b') }))
    .query(({ input }) => input),
  badOutput: publicProcedure.output(z.object({ n: z.number() })).query(() => ({ n: 'not a number' }) as never),
  stripsOutput: publicProcedure.output(z.object({ kept: z.number() })).query(() => ({ kept: 1, dropped: 2 }) as never),
  ctxMerged: addTag.input(z.object({ a: z.number() }).optional()).mutation(({ ctx, input }) => {
    seen.push(ctx);
    return { ctx, input: input ?? null };
  }),
  throws: publicProcedure.query(() => {
    throw new Error('boom');
  }),
};
const caller = createCallerFactory(router(procedures));

async function outcome(fn: () => Promise<unknown>) {
  try {
    return { data: await fn() };
  } catch (err) {
    const e = err as { code?: string; message: string; cause?: { name?: string } };
    return { code: e.code, message: e.message, cause: e.cause?.name };
  }
}

const cases: [keyof typeof procedures, unknown][] = [
  ['echo', { a: 1 }], ['echo', { a: 'x' }], ['echo', undefined], ['merged', { a: 1 }], ['merged', { a: 1, b: 'given' }],
  ['merged', { b: 'x' }], ['badOutput', undefined], ['stripsOutput', undefined], ['ctxMerged', undefined], ['ctxMerged', { a: 2 }],
  ['throws', undefined],
];
for (const [name, input] of cases) {
  t.test(`${name}(${JSON.stringify(input)}) answers as tRPC's caller does`, async (t) => {
    const ctx = { who: 'me' };
    const theirs = await outcome(() => (caller(ctx as never)[name] as (i: unknown) => Promise<unknown>)(input));
    const proc = procedures[name] as unknown as AnyProcedure;
    const ours = await outcome(() => invokeProcedure(proc, {
      ctx, path: name, type: proc._def.type, getRawInput: async () => input, signal: undefined, batchIndex: 0,
    }));
    t.same(ours, theirs);
    t.ok('data' in theirs || theirs.code, 'an answer or a coded error');
  });
}

t.test('the cases cover both outcomes of the validators', async (t) => {
  const proc = procedures.badOutput as unknown as AnyProcedure;
  const res = await outcome(() => invokeProcedure(proc, { ctx: {}, path: 'badOutput', type: 'query', getRawInput: async () => undefined, signal: undefined, batchIndex: 0 }));
  t.same(res, { code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: 'ZodError' });
  const bad = await outcome(() => invokeProcedure(procedures.echo as unknown as AnyProcedure, { ctx: {}, path: 'echo', type: 'query', getRawInput: async () => ({ a: 'x' }), signal: undefined, batchIndex: 0 }));
  t.match(bad, { code: 'BAD_REQUEST', cause: 'ZodError' });
  t.same(seen.at(-1), { who: 'me', tag: 'added' }, 'next({ ctx }) merges into the context');
});

t.test("every procedure of the app runs its own validators, none falls back to tRPC's", async (t) => {
  const all = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>);
  t.ok(all.length > 50, 'the app router was read');
  for (const [path, proc] of all) {
    const def = proc._def as unknown as ProcedureDef;
    const chain = chainOf(def);
    const validators = def.middlewares.filter((m) => m._type === 'input' || m._type === 'output').length;
    if (validators === 0) continue;
    const replaced = chain.filter((m, i) => m !== def.middlewares[i]).length;
    if (replaced !== validators) t.fail(`${path}: ${replaced} of ${validators} validators replaced`);
  }
  t.pass('checked');
});
