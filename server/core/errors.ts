import { TRPCError } from '@trpc/server';

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

/**
 * The one typed error of the app. It is a TRPCError, so tRPC carries it unchanged to both doors
 * (REST facade and /trpc); its message is safe to show to the caller.
 */
export class AppError extends TRPCError {
  readonly retryAfterS?: number;
  constructor(code: AppErrorCode, message: string, opts: { retryAfterS?: number; cause?: unknown } = {}) {
    super({ code, message, cause: opts.cause });
    this.retryAfterS = opts.retryAfterS;
  }
}

export function statusOf(code: string): number {
  return (statusByCode as Record<string, number>)[code] ?? 500;
}
