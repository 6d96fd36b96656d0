import t from 'tap';
import { z } from 'zod';
import { procedureCaller } from '../../server/trpc/call.ts';
import type { Context } from '../../server/trpc/context.ts';
import { describeIssues } from '../../server/trpc/errors.ts';
import { publicProcedure, router } from '../../server/trpc/init.ts';

// Every door calls procedures through tRPC's public caller (server/trpc/call.ts); a call answers as
// the procedure's own middlewares, validators and resolver decide, and checks the procedure's type first.

const ran: string[] = [];
const addTag = publicProcedure.use(({ next }) => next({ ctx: { tag: 'added' } }));
const testRouter = router({
  echo: publicProcedure.input(z.object({ a: z.number() }).strict()).output(z.object({ a: z.number(), who: z.string() }))
    .query(({ input, ctx }) => ({ a: input.a, who: (ctx as unknown as { who: string }).who })),
  merged: publicProcedure.input(z.object({ a: z.number() })).input(z.object({ b: z.string().default('b') })).query(({ input }) => input),
  badOutput: publicProcedure.output(z.object({ n: z.number() })).query(() => ({ n: 'not a number' }) as never),
  stripsOutput: publicProcedure.output(z.object({ kept: z.number() })).query(() => ({ kept: 1, dropped: 2 }) as never),
  tagged: addTag.mutation(({ ctx }) => {
    ran.push('tagged');
    return { tag: (ctx as unknown as { tag: string }).tag, who: (ctx as unknown as { who: string }).who };
  }),
  nested: router({ deep: publicProcedure.query(() => 'deep') }),
  aborted: publicProcedure.query(({ signal }) => signal?.aborted ?? 'no signal'),
  ticks: publicProcedure.subscription(async function* () {
    yield 1;
    yield 2;
  }),
  throws: publicProcedure.query(() => {
    throw new Error('boom');
  }),
});
const call = procedureCaller(testRouter);
// The procedures above never read deps: the database-fault middleware looks only at failures of kind INTERNAL_SERVER_ERROR.
const ctx = { who: 'me', deps: { dbHealth: { up: true } } } as unknown as Context;

async function outcome(fn: () => Promise<unknown>) {
  try {
    return { data: await fn() };
  } catch (err) {
    const e = err as { code?: string; message: string; cause?: { name?: string } };
    return { code: e.code, message: e.message, cause: e.cause?.name };
  }
}

t.test('a call runs the procedure with its validators and middlewares, as tRPC defines them', async (t) => {
  t.same(await call(ctx, 'echo', 'query', { a: 1 }), { a: 1, who: 'me' });
  t.same(await call(ctx, 'merged', 'query', { a: 1 }), { a: 1, b: 'b' }, 'inputs are merged');
  t.same(await call(ctx, 'stripsOutput', 'query', undefined), { kept: 1 }, 'the output is parsed');
  t.same(await call(ctx, 'tagged', 'mutation', undefined), { tag: 'added', who: 'me' }, 'next({ ctx }) merges into the context');
  t.equal(await call(ctx, 'nested.deep', 'query', undefined), 'deep', 'a dotted path leads into nested routers');
  t.equal(await call(ctx, 'aborted', 'query', undefined, AbortSignal.abort()), true, 'the signal reaches the resolver');
  const ticks = await call(ctx, 'ticks', 'subscription', undefined) as AsyncIterable<number>;
  const seen: number[] = [];
  for await (const n of ticks) seen.push(n);
  t.same(seen, [1, 2], 'a subscription answers its async iterable');
});

t.test('errors are tRPC\'s: validation issues on the cause, output and resolver failures are 500s', async (t) => {
  const bad = await call(ctx, 'echo', 'query', { a: 'x', extra: 1 }).catch((err: { code: string; cause: { issues: [] } }) => err) as { code: string; cause: { issues: [] } };
  t.equal(bad.code, 'BAD_REQUEST');
  t.equal(describeIssues(bad.cause.issues), 'a: Invalid input: expected number, received string; input: unknown field extra', 'the zod issues are on the cause, as the doors\' messages need them');
  t.same(await outcome(() => call(ctx, 'badOutput', 'query', undefined)), { code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: 'ZodError' });
  t.same(await outcome(() => call(ctx, 'throws', 'query', undefined)), { code: 'INTERNAL_SERVER_ERROR', message: 'boom', cause: 'Error' });
});

t.test('a path that names no procedure of the type is NOT_FOUND, and nothing runs', async (t) => {
  const before = ran.length;
  for (const [path, type] of [['tagged', 'query'], ['echo', 'mutation'], ['nope', 'query'], ['nested', 'query'], ['nested.deep.then', 'query'],
    ['then', 'query'], ['__proto__', 'query'], ['constructor', 'query'], ['', 'query'], ['echo', 'subscription']] as const) {
    t.same(await outcome(() => call(ctx, path, type, undefined)), { code: 'NOT_FOUND', message: `No "${type}"-procedure on path "${path}"`, cause: undefined }, `${type} ${path}`);
  }
  t.equal(ran.length, before, 'the mutation called as a query did not run');
});
