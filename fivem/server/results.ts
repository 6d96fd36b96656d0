/**
 * What every export gives a caller that cannot await a Promise (Lua): the export returns a request
 * id at once, and the optional last argument `cb(result)` is called once with a plain table,
 * `{ ok = true, data = … }` or `{ ok = false, status = 409, reason = "…", error = "…" }`.
 * Nothing ever throws into the caller: bad input is `status = 400` before anything is sent, no
 * answer from the server is `status = 0`.
 */
import { DispatchError } from '../../client-sdk/game.ts';

export type Result<T = unknown> =
  | { ok: true; id: number; data: T }
  | { ok: false; id: number; status: number; error: string; reason?: string; retryAfterS?: number };

/** Bad input of an export, refused before any request (status 400, or the given one). */
export class ExportError extends Error {
  constructor(message: string, readonly status = 400, readonly reason = 'validation') {
    super(message);
  }
}

type Log = (message: string) => void;
let nextId = 0;

function failure(id: number, err: unknown): Result<never> {
  if (err instanceof DispatchError) {
    const out: Result<never> = { ok: false, id, status: err.status, error: err.message };
    if (err.reason) out.reason = err.reason;
    if (err.retryAfterS !== undefined) out.retryAfterS = err.retryAfterS;
    return out;
  }
  if (err instanceof ExportError) return { ok: false, id, status: err.status, error: err.message, reason: err.reason };
  return { ok: false, id, status: 500, error: `dispatch-terminal: ${(err as Error)?.message ?? String(err)}`, reason: 'internal' };
}

/**
 * Wraps an async function as an export: `(...args, cb?) => id`. The result also goes to the
 * resource's console when it failed and no callback was given (so a fire-and-forget caller sees why).
 */
export function exported(name: string, fn: (...args: any[]) => unknown, log: Log) {
  return (...args: unknown[]): number => {
    const cb = typeof args[args.length - 1] === 'function' ? (args.pop() as (r: Result) => void) : null;
    const id = ++nextId;
    void (async () => fn(...args))()
      .then((data): Result => ({ ok: true, id, data: data === undefined ? null : data }), (err) => failure(id, err))
      .then((result) => {
        if (!result.ok && !cb) log(`${name} #${id} failed: ${result.status} ${result.error}`);
        if (!cb) return;
        try {
          cb(result);
        } catch (err) {
          log(`${name} #${id}: the callback threw: ${(err as Error)?.message ?? String(err)}`);
        }
      });
    return id;
  };
}
