/**
 * Typed client for Dispatch Terminal over tRPC (HTTP, batched). Every procedure the REST API
 * offers is here with its exact input and output types:
 *
 *   const dt = createDispatchClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.DT_KEY });
 *   const shift = await dt.timeclock.clockIn.mutate({ badge: 7 });
 */
import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from './router.ts';
import type { ErrorReason } from '../contract/errors.ts';

export type { AppRouter, RouterInputs, RouterOutputs } from './router.ts';

export interface DispatchClientOptions {
  /** Server root, e.g. `http://127.0.0.1:3000` (without /api/v1). */
  baseUrl: string;
  /** `stmp_…` key for scripts and tools. Browsers use the session cookie instead. */
  apiKey?: string;
  /** Guild to act in with a session (sent as x-guild-id). Keys carry their guild themselves. */
  guildId?: string;
  /** Extra headers, e.g. a cookie in server-side tools. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export function createDispatchClient(opts: DispatchClientOptions): TRPCClient<AppRouter> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  if (opts.guildId) headers['x-guild-id'] = opts.guildId;
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${opts.baseUrl.replace(/\/$/, '')}/trpc`,
        transformer: superjson,
        maxItems: 10, // the server refuses larger batches
        headers: () => headers,
        fetch: opts.fetch,
      }),
    ],
  });
}

export type DispatchClient = TRPCClient<AppRouter>;

/** HTTP status of a failed call (400, 401, 403, 404, 409, 413, 429 …), or undefined for network failures. */
export function httpStatusOf(err: unknown): number | undefined {
  return err instanceof TRPCClientError ? (err.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
}

export type { ErrorReason, SpecificReasons } from '../contract/errors.ts';

/**
 * The machine-readable why of a failed call (contract/errors.ts: `slot_taken`, `not_clocked_in`,
 * `validation`, `not_found` …) and the variable parts of its message, or undefined for network
 * failures. Branch on this, never on the English message.
 */
export function reasonOf(err: unknown): { reason: ErrorReason; params: Readonly<Record<string, string>> } | undefined {
  if (!(err instanceof TRPCClientError)) return undefined;
  const data = err.data as { reason?: ErrorReason; params?: Record<string, string> } | undefined;
  return data?.reason ? { reason: data.reason, params: data.params ?? {} } : undefined;
}
