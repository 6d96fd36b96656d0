import { TRPCError } from '@trpc/server';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import { databaseUnavailable, isConnectionFailure } from '../store/faults.ts';

interface Issue { path: PropertyKey[]; message: string; code?: string; keys?: string[] }

/** The message a caller may see: validation issues spelled out, internal errors said nothing about. */
export function publicMessage(error: TRPCError): string {
  if (error.code === 'INTERNAL_SERVER_ERROR') return 'internal server error';
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (error.code === 'BAD_REQUEST' && Array.isArray(issues)) return describeIssues(issues);
  return error.message;
}

export function describeIssues(issues: Issue[]): string {
  return issues.slice(0, 5).map((i) => {
    const where = i.path.length ? i.path.map(String).join('.') : 'body';
    if (i.code === 'unrecognized_keys' && i.keys) return `${where}: unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}`;
    return `${where}: ${i.message}`;
  }).join('; ');
}

/**
 * Any failure as the TRPCError a door answers with: a lost or refused database connection is the
 * 503 of `databaseUnavailable` (with Retry-After), whatever threw it; anything else as tRPC makes it.
 */
export function toTRPCError(err: unknown): TRPCError {
  if (err instanceof TRPCError && err.code !== 'INTERNAL_SERVER_ERROR') return err;
  return isConnectionFailure(err) ? databaseUnavailable(err) : getTRPCErrorFromUnknown(err);
}
