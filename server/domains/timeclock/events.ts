import type { GuildEvent, Op } from '../../hub/topics.ts';

/**
 * What the events table stores for a clock-in or clock-out: the facts of the change as one JSON
 * array (`json_build_array` in the statement), not the topic deltas. The deltas are derived from the
 * facts here, by pure functions, wherever an event comes out of the database: the statement's own
 * answer and the replay of the log (store/event-codec.ts). The two hottest writes thereby leave the
 * building of some forty JSON values to JavaScript; in SQL, setting up and checking those
 * expressions cost PostgreSQL a sixth of the pair's statements (instructions counted under
 * callgrind).
 *
 * The layout is stored: a change to it needs a new kind name, and these functions must go on
 * decoding every kind ever written.
 */
export type ClockInFacts = [kind: 'clockIn', userId: string, nickname: string, badge: string | null, rank: string | null, clockInAt: string];
export type ClockOutFacts = [
  kind: 'clockOut', userId: string, nickname: string, badge: string | null, clockInAt: string, clockOutAt: string,
  freedSlots: number[], leftUnits: string[],
];

/** A clock-in as its facts tell it. */
export interface ClockIn { userId: string; nickname: string; badge: string | null; rank: string | null; clockInAt: Date }
/** A clock-out as its facts tell it; slots and callsigns in the statement's order. */
export interface ClockOut {
  userId: string; nickname: string; badge: string | null; clockInAt: Date; clockOutAt: Date; slots: number[]; callsigns: string[];
}

/**
 * The stored layouts, read in one place. Timestamps come as PostgreSQL writes them in JSON; their
 * µs are dropped, like in the `Date` postgres.js makes.
 */
export function readClockIn([, userId, nickname, badge, rank, clockInAt]: ClockInFacts): ClockIn {
  return { userId, nickname, badge, rank, clockInAt: new Date(clockInAt) };
}

export function readClockOut([, userId, nickname, badge, clockInAt, clockOutAt, slots, callsigns]: ClockOutFacts): ClockOut {
  return { userId, nickname, badge, clockInAt: new Date(clockInAt), clockOutAt: new Date(clockOutAt), slots, callsigns };
}

const duty = (userId: string, onDuty: boolean): Op => ({ op: 'duty', userId, onDuty });

/**
 * The person joins `onDuty`, the `overview` count rises, and their duty flips for `dispatchers`,
 * `alarm` and `standby` (notices: those views depend on it). Ops as in hub/reducers.ts.
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
