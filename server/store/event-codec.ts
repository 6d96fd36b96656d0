import { clockInDeltas, clockOutDeltas, readClockIn, readClockOut } from '../domains/timeclock/events.ts';
import { readUnitStatus, unitStatusDeltas } from '../domains/units/events.ts';
import { callReportedDeltas, readCallReported } from '../domains/calls/events.ts';
import type { GuildEvent } from '../../contract/topics.ts';

/**
 * `events.deltas` holds either the deltas themselves (`{ topic: [op, …] }`, what `inGuildTx`
 * writes) or the facts of a change, which the kind's function turns into the same deltas (the
 * clock statements, see domains/timeclock/events.ts; a unit's status change and a call report, see
 * domains/units/events.ts and domains/calls/events.ts): `{ "v": 1, "kind": …, … }`, or, in rows
 * written before the facts had names, `[kind, …fields]`. Everything that reads events back from the
 * table goes through here, so the rest of the server only ever sees deltas.
 */
const kinds: Record<string, (facts: never) => GuildEvent['deltas']> = {
  clockIn: (facts: Parameters<typeof readClockIn>[0]) => clockInDeltas(readClockIn(facts)),
  clockOut: (facts: Parameters<typeof readClockOut>[0]) => clockOutDeltas(readClockOut(facts)),
  unitStatus: (facts: Parameters<typeof readUnitStatus>[0]) => unitStatusDeltas(readUnitStatus(facts)),
  callReported: (facts: Parameters<typeof readCallReported>[0]) => callReportedDeltas(readCallReported(facts)),
};

export function decodeDeltas(stored: unknown): GuildEvent['deltas'] {
  const kind = Array.isArray(stored) ? stored[0] : isFacts(stored) ? stored.kind : null;
  if (kind === null) return stored as GuildEvent['deltas'];
  const decode = typeof kind === 'string' && Object.hasOwn(kinds, kind) ? kinds[kind] : null;
  if (!decode) throw new Error(`event of unknown kind ${JSON.stringify(kind)}`);
  return decode(stored as never);
}

/** Named facts: a version and a kind. Deltas are keyed by topic, and every topic holds an array. */
function isFacts(stored: unknown): stored is { v: unknown; kind: unknown } {
  return typeof stored === 'object' && stored !== null && 'v' in stored && typeof (stored as { kind?: unknown }).kind === 'string';
}
