import { clockInDeltas, clockOutDeltas, readClockIn, readClockOut, type ClockInFacts, type ClockOutFacts } from '../domains/timeclock/events.ts';
import type { GuildEvent } from '../hub/topics.ts';

/**
 * `events.deltas` holds either the deltas themselves (`{ topic: [op, …] }`, what `inGuildTx`
 * writes) or the facts of a change as `[kind, …fields]`, which the kind's function turns into the
 * same deltas (the clock statements; see domains/timeclock/events.ts). Everything that reads events
 * back from the table goes through here, so the rest of the server only ever sees deltas.
 */
const kinds: Record<string, (facts: never) => GuildEvent['deltas']> = {
  clockIn: (facts: ClockInFacts) => clockInDeltas(readClockIn(facts)),
  clockOut: (facts: ClockOutFacts) => clockOutDeltas(readClockOut(facts)),
};

export function decodeDeltas(stored: unknown): GuildEvent['deltas'] {
  if (!Array.isArray(stored)) return stored as GuildEvent['deltas'];
  const decode = typeof stored[0] === 'string' && Object.hasOwn(kinds, stored[0]) ? kinds[stored[0]] : null;
  if (!decode) throw new Error(`event of unknown kind ${JSON.stringify(stored[0])}`);
  return decode(stored as never);
}
