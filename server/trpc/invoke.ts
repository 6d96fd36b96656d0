import { TRPCError, type AnyProcedure } from '@trpc/server';
import { getTRPCErrorFromUnknown, middlewareMarker, type ProcedureCallOptions } from '@trpc/server/unstable-core-do-not-import';
import { appRouter } from './app-router.ts';
import { chainOf, type Middleware, type ProcedureDef, type Step } from './chain.ts';

/**
 * Calls a procedure exactly as tRPC's own caller does — the same middleware chain (input parser,
 * output validator, our access check, resolver; see chain.ts), the same options and `next()`
 * semantics, the same error wrapping — without its object spreads. @trpc/server 11.25.2 ships a
 * transpiled spread helper that costs about 8 µs per call, and spreading the options anew at each
 * step (whose shape grows along the chain) left every property read in the middlewares
 * megamorphic. Here every step's options come from one object literal, so they share one shape.
 * Tied to that exact version (package.json pins it); every route's tests run through this function.
 */
export async function invokeProcedure(procedure: AnyProcedure, opts: ProcedureCallOptions<unknown>): Promise<unknown> {
  const def = procedure._def as unknown as ProcedureDef;
  const result = await step(0, chainOf(def), def.meta, opts, opts.ctx, opts.input, opts.getRawInput);
  if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares' });
  if (!result.ok) throw result.error;
  return result.data;
}

type NextOptions = { ctx?: object; input?: unknown; getRawInput?: ProcedureCallOptions<unknown>['getRawInput'] };

/** Runs middleware `index` with the options tRPC gives it; `ctx`, `input`, `getRawInput` as the previous `next()` left them. */
async function step(index: number, chain: Middleware[], meta: unknown, call: ProcedureCallOptions<unknown>, ctx: unknown, input: unknown, getRawInput: ProcedureCallOptions<unknown>['getRawInput']): Promise<Step> {
  try {
    const options = {
      ctx, input, getRawInput, path: call.path, type: call.type, signal: call.signal, batchIndex: call.batchIndex, meta,
      next: null as unknown as (next?: NextOptions) => Promise<Step>,
    };
    options.next = (next) => step(index + 1, chain, meta, call,
      next?.ctx ? { ...(ctx as object), ...next.ctx } : ctx,
      next && 'input' in next ? next.input : input,
      next?.getRawInput ?? getRawInput);
    return await chain[index](options);
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
