import { AppError } from '../core/errors.ts';

/**
 * Failures that say "PostgreSQL cannot be reached right now", not "this request is wrong": the
 * connection was closed, reset, refused or timed out, or PostgreSQL is shutting down, restarting
 * or out of connection slots. Callers answer 503 with Retry-After, never 500.
 */
const connectionCodes = new Set([
  // postgres.js
  'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT',
  // sockets and name resolution
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN',
  'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, idle_session_timeout, too_many_connections
  '57P01', '57P02', '57P03', '57P05', '53300',
]);

/** Whether `err` (or an error it wraps, e.g. a TRPCError's cause) is a lost or refused database connection. */
export function isConnectionFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (connectionCodes.has(code) || code.startsWith('08'))) return true; // class 08: connection exception
  }
  return false;
}

/** Seconds a client should wait before retrying: the health probe runs about twice a second. */
const RETRY_AFTER_S = 1;

/** The answer while PostgreSQL is unreachable: 503 with Retry-After. */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'database unavailable; retry shortly', { retryAfterS: RETRY_AFTER_S, cause, reason: 'database_unavailable' });
}

/** What a query on a connection that was lost before it ran fails with (postgres.js's own code for it). */
export function connectionLost(): Error {
  return Object.assign(new Error('connection to PostgreSQL lost'), { code: 'CONNECTION_CLOSED' });
}

/** The statement postgres.js 3.4 sends on each new connection to read the array types (`fetchArrayTypes`). */
const ARRAY_TYPES_QUERY = /from pg_catalog\.pg_type a\s+left join pg_catalog\.pg_type b on b\.oid = a\.typelem/;

/**
 * A rejection that postgres.js itself leaves unhandled when a connection is lost while it opens:
 * on every new connection it reads the array types in a query whose promise nobody holds (upstream
 * issues #1192, #1205, #1223, open in 3.4.9), so PostgreSQL going away at that moment rejects it
 * with a connection error and, by Node's default, ends the process. The project awaits every query
 * it sends, so an unhandled connection failure of postgres.js is that query; the statement that
 * opened the connection fails on its own and is answered 503. Recognised only by the connection
 * codes above on an error postgres.js made (its stack names its connection module), or on one it
 * failed that query with: a reconnect that PostgreSQL refused is a bare `connect ECONNREFUSED`
 * from Node, which postgres.js marks with the statement it failed (`query`, the array-types one;
 * test/store/unheld-types-rejection.test.ts shows it).
 */
export function isUnheldPostgresRejection(err: unknown): boolean {
  if (!isConnectionFailure(err)) return false;
  const stack = (err as Error | null)?.stack ?? '';
  const query = (err as { query?: unknown }).query;
  return /[/\\]postgres[/\\](src|cjs[/\\]src)[/\\]connection\.js/.test(stack) || (typeof query === 'string' && ARRAY_TYPES_QUERY.test(query));
}

/**
 * For the serving process: postgres.js's own unheld rejections (see above) are logged, not fatal;
 * any other unhandled rejection still ends the process, as Node does without this handler.
 */
export function tolerateUnheldPostgresRejections(log: { warn(msg: string, data?: object): void }): void {
  process.on('unhandledRejection', (err) => {
    if (!isUnheldPostgresRejection(err)) throw err;
    log.warn('postgres.js lost a connection while opening it (upstream #1192); the query that opened it failed on its own', { error: err });
  });
}
