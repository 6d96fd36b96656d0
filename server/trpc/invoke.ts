import { TRPCError, type AnyProcedure } from '@trpc/server';
import { getTRPCErrorFromUnknown, middlewareMarker, type ProcedureCallOptions } from '@trpc/server/unstable-core-do-not-import';
import { appRouter } from './app-router.ts';

type Step = { ok: true; data: unknown } | { ok: false; error: TRPCError };

/**
 * Calls a procedure exactly as tRPC's own caller does — the same middleware chain (input parser,
 * output validator, our access check, resolver), the same error wrapping — but with native object
 * spread. @trpc/server 11.25.2 ships a transpiled spread helper that costs about 8 µs per call,
 * most of a cheap request's CPU. Tied to that exact version (package.json pins it); every route's
 * tests run through this function.
 */
export async function invokeProcedure(procedure: AnyProcedure, opts: ProcedureCallOptions<unknown>): Promise<unknown> {
  const result = await step(0, procedure._def as unknown as { middlewares: Middleware[]; meta: unknown }, opts as unknown as Record<string, unknown>);
  if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares' });
  if (!result.ok) throw result.error;
  return result.data;
}

type Middleware = (opts: Record<string, unknown>) => Promise<Step>;

async function step(index: number, def: { middlewares: Middleware[]; meta: unknown }, opts: Record<string, unknown>): Promise<Step> {
  try {
    return await def.middlewares[index]({
      ...opts,
      meta: def.meta,
      input: opts.input,
      next(nextOpts?: { ctx?: object; input?: unknown; getRawInput?: unknown }) {
        return step(index + 1, def, {
          ...opts,
          ctx: nextOpts?.ctx ? { ...(opts.ctx as object), ...nextOpts.ctx } : opts.ctx,
          input: nextOpts && 'input' in nextOpts ? nextOpts.input : opts.input,
          getRawInput: nextOpts?.getRawInput ?? opts.getRawInput,
        });
      },
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker } as Step;
  }
}

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

/** The procedure at `path` of the given type, or a NOT_FOUND like tRPC's own lookup. */
export function procedureAt(path: string, type: 'query' | 'mutation' | 'subscription'): AnyProcedure {
  const proc = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
  if (!proc || proc._def.type !== type) throw new TRPCError({ code: 'NOT_FOUND', message: `No "${type}"-procedure on path "${path}"` });
  return proc;
}
