import { getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';
import { databaseUnavailable, isConnectionFailure } from '../store/faults.ts';

interface Issue { path: PropertyKey[]; message: string; code?: string; keys?: string[] }

/**
 * Where a top-level field of the input came from, for messages: the REST door knows ("path",
 * "query", "body"); `field` undefined means the input as a whole.
 */
export type PlaceOf = (field: string | undefined) => string;
/** tRPC (HTTP and WebSocket) takes one input, wherever it travelled. */
const asInput: PlaceOf = () => 'input';

/**
 * Bounds of an error message: a client's names are shown clipped, a few of them; one issue's text
 * (which may quote the value sent) fits a schema's longest (a rank's list of known capabilities),
 * and the whole is clipped too.
 */
const MAX_MESSAGE = 1000;
const MAX_ISSUE = 500;
const MAX_NAME = 40;
const MAX_NAMES = 5;
const MAX_ISSUES = 5;

/** `text` cut to `max` characters (an ellipsis marks the cut; a surrogate pair is not split). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 2);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** Up to MAX_NAMES names, each clipped, then how many more there are. */
function someNames(names: string[]): string {
  const shown = names.slice(0, MAX_NAMES).map((n) => clip(n, MAX_NAME)).join(', ');
  return names.length > MAX_NAMES ? `${shown} and ${names.length - MAX_NAMES} more` : shown;
}

/** The message a caller may see: validation issues spelled out, internal errors said nothing about; never longer than MAX_MESSAGE. */
export function publicMessage(error: TRPCError, placeOf: PlaceOf = asInput): string {
  if (error.code === 'INTERNAL_SERVER_ERROR') return 'internal server error';
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (error.code === 'BAD_REQUEST' && Array.isArray(issues)) return describeIssues(issues, placeOf);
  return clip(error.message, MAX_MESSAGE);
}

/**
 * Validation issues as one short message naming where each is: `label: ...` for a body field (or
 * a field of the tRPC input), `query parameter from: ...`, `path parameter id: ...`, and for names
 * the input does not know `body: unknown field x` / `query: unknown parameters a, b and 9998 more`.
 * At most MAX_ISSUES issues and MAX_NAMES names are listed, each name clipped.
 */
export function describeIssues(issues: Issue[], placeOf: PlaceOf = asInput): string {
  const parts: string[] = [];
  for (const issue of issues) {
    const top = issue.path.length ? String(issue.path[0]) : undefined;
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      if (top === undefined) {
        const byPlace = new Map<string, string[]>();
        for (const key of issue.keys) {
          const place = placeOf(key);
          byPlace.set(place, [...(byPlace.get(place) ?? []), key]);
        }
        for (const [place, keys] of byPlace) parts.push(`${place}: unknown ${place === 'query' ? 'parameter' : 'field'}${keys.length > 1 ? 's' : ''} ${someNames(keys)}`);
      } else {
        parts.push(`${where(issue.path, placeOf(top))}: unknown field${issue.keys.length > 1 ? 's' : ''} ${someNames(issue.keys)}`);
      }
    } else {
      parts.push(`${top === undefined ? placeOf(undefined) : where(issue.path, placeOf(top))}: ${clip(issue.message, MAX_ISSUE)}`);
    }
  }
  const shown = parts.slice(0, MAX_ISSUES).join('; ');
  return clip(parts.length > MAX_ISSUES ? `${shown}; and ${parts.length - MAX_ISSUES} more problems` : shown, MAX_MESSAGE);
}

/** A field's path as a message names it: `units.0.label` in a body or input, `query parameter from`. */
function where(path: PropertyKey[], place: string): string {
  const dotted = path.map((p) => clip(String(p), MAX_NAME)).join('.');
  return place === 'query' || place === 'path' ? `${place} parameter ${dotted}` : dotted;
}

/**
 * Any failure as the TRPCError a door answers with: a lost or refused database connection is the
 * 503 of `databaseUnavailable` (with Retry-After), whatever threw it; anything else as tRPC makes it.
 */
export function toTRPCError(err: unknown): TRPCError {
  if (err instanceof TRPCError && err.code !== 'INTERNAL_SERVER_ERROR') return err;
  return isConnectionFailure(err) ? databaseUnavailable(err) : getTRPCErrorFromUnknown(err);
}
