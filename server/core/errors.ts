import { TRPCError } from '@trpc/server';
import { reasonOfStatus, type Because, type ErrorReason } from '../../contract/errors.ts';

/** Every client-visible failure code, and the one table that maps it to an HTTP status. */
export const statusByCode = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  /** PostgreSQL cannot be reached (down, restarting, connections lost): retry after `retryAfterS`. */
  SERVICE_UNAVAILABLE: 503,
  // tRPC's own codes that can reach a client
  PARSE_ERROR: 400,
  METHOD_NOT_SUPPORTED: 405,
} as const;

export type AppErrorCode = keyof typeof statusByCode;

export type AppErrorOptions = { retryAfterS?: number; cause?: unknown } & (Because | { reason?: undefined; params?: undefined });

/**
 * The one typed error of the app. It is a TRPCError, so tRPC carries it unchanged to both doors
 * (REST facade and /trpc); its message is safe to show to the caller. `reason` (contract/errors.ts)
 * is the machine-readable why, with the message's variable parts in `params`; without one, the
 * answer says the general reason of its status.
 */
export class AppError extends TRPCError {
  readonly retryAfterS?: number;
  readonly reason?: Because['reason'];
  readonly params?: Readonly<Record<string, string>>;
  constructor(code: AppErrorCode, message: string, opts: AppErrorOptions = {}) {
    super({ code, message, cause: opts.cause });
    this.retryAfterS = opts.retryAfterS;
    this.reason = opts.reason;
    this.params = opts.params && withoutUndefined(opts.params);
  }
}

function withoutUndefined(params: object): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

/**
 * The reason and params an answer carries for `error`: its own when it has one, `validation` for
 * a failed input schema, else the general reason of its status.
 */
export function reasonOf(error: { code: string; cause?: unknown }): { reason: ErrorReason; params?: Readonly<Record<string, string>> } {
  const { reason, params } = error as Partial<AppError>;
  if (reason) return params && Object.keys(params).length ? { reason, params } : { reason };
  if (error.code === 'BAD_REQUEST' && Array.isArray((error.cause as { issues?: unknown } | undefined)?.issues)) return { reason: 'validation' };
  return { reason: reasonOfStatus(statusOf(error.code)) };
}

export function statusOf(code: string): number {
  return (statusByCode as Record<string, number>)[code] ?? 500;
}
