import type { GuildEvent, Op } from '../../../contract/topics.ts';

/**
 * What the events table stores for a clock-in or clock-out: the facts of the change as one named,
 * versioned JSON object (`json_build_object` in store.ts), not the topic deltas. The deltas are
 * derived from the facts here, by pure functions, wherever an event comes out of the database: the
 * statement's own answer and the replay of the log (store/event-codec.ts). The two hottest writes
 * thereby leave the building of some forty JSON values to JavaScript; in SQL, setting up and
 * checking those expressions cost PostgreSQL a sixth of the pair's statements (instructions
 * counted under callgrind).
 *
 * The facts are stored: a change to their fields needs a new version `v`, and these functions must
 * go on reading every version ever written, and the positional arrays written before the facts had
 * names (sql/0007 to sql/0019).
 */
export interface ClockInFacts {
  v: 1; kind: 'clockIn'; userId: string; nickname: string; badge: string | null; rank: string | null; clockInAt: string;
}
export interface ClockOutFacts {
  v: 1; kind: 'clockOut'; userId: string; nickname: string; badge: string | null; clockInAt: string; clockOutAt: string;
  /** The dispatcher slots the person held, ascending. */
  slots: number[];
  /** Callsigns of the units the person left, sorted. */
  callsigns: string[];
}
/** Rows written before the facts had names: read, never written. */
type ClockInTuple = [kind: 'clockIn', userId: string, nickname: string, badge: string | null, rank: string | null, clockInAt: string];
type ClockOutTuple = [
  kind: 'clockOut', userId: string, nickname: string, badge: string | null, clockInAt: string, clockOutAt: string, slots: number[], callsigns: string[],
];

/** A clock-in as its facts tell it. */
export interface ClockIn { userId: string; nickname: string; badge: string | null; rank: string | null; clockInAt: Date }
/** A clock-out as its facts tell it; slots and callsigns in the statement's order. */
export interface ClockOut {
  userId: string; nickname: string; badge: string | null; clockInAt: Date; clockOutAt: Date; slots: number[]; callsigns: string[];
}

/**
 * The stored facts, read in one place, of every version. Timestamps come as PostgreSQL writes them
 * in JSON; their µs are dropped, like in the `Date` postgres.js makes.
 */
export function readClockIn(facts: ClockInFacts | ClockInTuple): ClockIn {
  if (Array.isArray(facts)) {
    const [, userId, nickname, badge, rank, clockInAt] = facts;
    return { userId, nickname, badge, rank, clockInAt: new Date(clockInAt) };
  }
  known(facts);
  return { userId: facts.userId, nickname: facts.nickname, badge: facts.badge, rank: facts.rank, clockInAt: new Date(facts.clockInAt) };
}

export function readClockOut(facts: ClockOutFacts | ClockOutTuple): ClockOut {
  if (Array.isArray(facts)) {
    const [, userId, nickname, badge, clockInAt, clockOutAt, slots, callsigns] = facts;
    return { userId, nickname, badge, clockInAt: new Date(clockInAt), clockOutAt: new Date(clockOutAt), slots, callsigns };
  }
  known(facts);
  const { userId, nickname, badge, slots, callsigns } = facts;
  return { userId, nickname, badge, clockInAt: new Date(facts.clockInAt), clockOutAt: new Date(facts.clockOutAt), slots, callsigns };
}

/** Facts of a version this server cannot read fail loudly (a newer server wrote them), never half-read. */
function known(facts: { v: unknown; kind: string }): void {
  if (facts.v !== 1) throw new Error(`${facts.kind} facts of version ${JSON.stringify(facts.v)}: this server reads version 1`);
}

const duty = (userId: string, onDuty: boolean): Op => ({ op: 'duty', userId, onDuty });

/**
 * The person joins `onDuty`, the `overview` count rises, and their duty flips for `dispatchers`,
 * `alarm` and `standby` (notices: those views depend on it). Ops as in contract/reducers.ts.
 */
export function clockInDeltas({ userId, nickname, badge, rank, clockInAt }: ClockIn): GuildEvent['deltas'] {
  return {
    onDuty: [{ op: 'upsert', key: userId, value: { userId, nickname, badge, rank, since: clockInAt.getTime() } }],
    overview: [{ op: 'add', field: 'onDuty', by: 1 }],
    dispatchers: [duty(userId, true)],
    alarm: [duty(userId, true)],
    standby: [duty(userId, true)],
  };
}

/**
 * The person leaves `onDuty`, the `overview` counts drop, each freed slot leaves `dispatchers`,
 * each left unit loses the member in `units`; duty notices for `dispatchers`, `units` and `alarm`,
 * `access` changed, and `einsatzEntries` learns which units the person left.
 */
export function clockOutDeltas({ userId, slots, callsigns }: ClockOut): GuildEvent['deltas'] {
  return {
    onDuty: [{ op: 'remove', key: userId }],
    overview: slots.length > 0
      ? [{ op: 'add', field: 'onDuty', by: -1 }, { op: 'add', field: 'dispatchers', by: -slots.length }]
      : [{ op: 'add', field: 'onDuty', by: -1 }],
    dispatchers: [duty(userId, false), ...slots.map((slot) => ({ op: 'remove', key: String(slot) }))],
    units: [duty(userId, false), ...callsigns.map((callsign) => ({ op: 'unlink', key: callsign, field: 'members', id: userId }))],
    alarm: [duty(userId, false)],
    access: [{ op: 'changed', userId }],
    einsatzEntries: [{ op: 'membersLeft', userId, callsigns }],
  };
}
