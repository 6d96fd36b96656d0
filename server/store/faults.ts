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
