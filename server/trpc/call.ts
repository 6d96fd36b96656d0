import { TRPCError, type AnyProcedure, type ProcedureType } from '@trpc/server';
import { appRouter } from './app-router.ts';
import type { Context } from './context.ts';
import { createCallerFactory, router } from './init.ts';

type AppRouterLike = ReturnType<typeof router>;
/** Calls one procedure; see `procedureCaller`. */
export type CallProcedure = (ctx: Context, path: string, type: ProcedureType, input: unknown, signal?: AbortSignal) => Promise<unknown>;

/**
 * Calls a procedure of `procedures` by its dotted path (`timeclock.clockIn`) through tRPC's own
 * server-side caller (`createCaller`): its middlewares, input parsers and output validator, its
 * errors, unchanged. A path that names no procedure of `type` is refused before anything runs, with
 * the NOT_FOUND tRPC's own adapters answer (a mutation sent as a query must not run). A
 * subscription answers its async iterable; `signal` aborts it.
 */
export function procedureCaller(procedures: AppRouterLike): CallProcedure {
  const createCaller = createCallerFactory(procedures);
  // The router's declared shape (each procedure's type), read once.
  const typeAt = new Map(Object.entries(procedures._def.procedures as Record<string, AnyProcedure>).map(([path, p]) => [path, p._def.type]));
  return async (ctx, path, type, input, signal) => {
    if (typeAt.get(path) !== type) throw new TRPCError({ code: 'NOT_FOUND', message: `No "${type}"-procedure on path "${path}"` });
    // The caller is a proxy: each key of the path leads one level down, the last one is the procedure.
    let target = createCaller(ctx, { signal }) as unknown as Record<string, unknown>;
    for (const key of path.split('.')) target = target[key] as Record<string, unknown>;
    return (target as unknown as (input: unknown) => Promise<unknown>)(input);
  };
}

/** Every door calls the app's procedures through this: REST, and tRPC over the uWS WebSocket. */
export const callProcedure = procedureCaller(appRouter);
