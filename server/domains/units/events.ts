import type { GuildEvent, Op } from '../../../contract/topics.ts';

/**
 * What the events table stores for a unit's status change made by the one-statement write
 * (status-change-store.ts): the facts, as one named, versioned JSON object, not the topic deltas;
 * the deltas are derived here wherever such an event comes out of the database (the statement's own
 * answer and the replay of the log, store/event-codec.ts), as the clock's are (timeclock/events.ts).
 * A change to the fields needs a new version `v`, and this must go on reading every version written.
 */
export interface UnitStatusFacts {
  v: 1; kind: 'unitStatus'; callsign: string; status: string; previous: string; since: string; note: string | null;
  /** The alarm flag of the status the unit left, and of the one it entered. */
  wasAlarm: boolean; alarm: boolean;
}

/** A status change as its facts tell it. */
export interface UnitStatusChange { callsign: string; status: string; previous: string; since: Date; note: string | null; wasAlarm: boolean; alarm: boolean }

export function readUnitStatus(facts: UnitStatusFacts): UnitStatusChange {
  if (facts.v !== 1) throw new Error(`unitStatus facts of version ${JSON.stringify(facts.v)}: this server reads version 1`);
  const { callsign, status, previous, note, wasAlarm, alarm } = facts;
  return { callsign, status, previous, since: new Date(facts.since), note, wasAlarm, alarm };
}

/**
 * The ops of a status change from a status with alarm flag `wasAlarm` to one with `alarm` (ops.ts
 * states the shapes): `units` patch; `alarm` upsert while in an alarm status, remove on leaving
 * one; `overview.alarms` counts entering and leaving. Every status change of a unit, by any door or
 * by an alarm, emits exactly these (ops.emitStatus).
 */
export function unitStatusDeltas({ callsign, status, since, note, wasAlarm, alarm }: Omit<UnitStatusChange, 'previous'>): GuildEvent['deltas'] {
  const at = since.getTime();
  const deltas: Partial<Record<'units' | 'alarm' | 'overview', Op[]>> = { units: [{ op: 'patch', key: callsign, value: { status, since: at, note } }] };
  if (alarm) {
    deltas.alarm = [{ op: 'upsert', key: callsign, value: { callsign, status, since: at } }];
    if (!wasAlarm) deltas.overview = [{ op: 'add', field: 'alarms', by: 1 }];
  } else if (wasAlarm) {
    deltas.alarm = [{ op: 'remove', key: callsign }];
    deltas.overview = [{ op: 'add', field: 'alarms', by: -1 }];
  }
  return deltas as GuildEvent['deltas'];
}
