import { TRPCError } from '@trpc/server';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';

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

export const toTRPCError = getTRPCErrorFromUnknown;
