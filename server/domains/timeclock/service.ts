import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { GuildEvent } from '../../../contract/topics.ts';
import type { Actor } from '../../store/tx.ts';
import * as store from './store.ts';

type Who = store.Who;
/** Self routes write audit rows; the badge routes of game scripts and tools do not (spec §3). */
type Audit = { actor: Actor; audited: boolean };

function notFound(who: Who): AppError {
  return 'badge' in who
    ? new AppError('NOT_FOUND', `no person has badge ${who.badge}`)
    : new AppError('NOT_FOUND', 'you have no personnel entry in this guild');
}

/**
 * Clock-in and clock-out are each one statement (rows, event and audit row together, autocommit):
 * the hottest writes of an evening and of every game script, so one round trip instead of the
 * four statements of an `inGuildTx`. The event goes to the bus after that statement committed.
 */
export async function clockIn(deps: Deps, guildId: string, who: Who, audit: Audit) {
  const { opened, event, person } = await store.openShift(deps.sql, guildId, who, audit.audited ? { action: 'shift.clock_in', actor: audit.actor } : null);
  if (!opened) throw person ? new AppError('CONFLICT', `${person.nickname} is already clocked in`, { reason: 'already_clocked_in', params: { person: person.nickname } }) : notFound(who);
  afterCommit(deps, guildId, event);
  return { badgeNumber: opened.badge, userId: opened.userId, nickname: opened.nickname, clockInAt: opened.clockInAt, status: 'OPEN' as const };
}

export async function clockOut(deps: Deps, guildId: string, who: Who, audit: Audit) {
  const { closed, event, person } = await store.closeShift(deps.sql, guildId, who, audit.audited ? { action: 'shift.clock_out', actor: audit.actor } : null);
  if (!closed) throw person ? new AppError('CONFLICT', `${person.nickname} is not clocked in`, { reason: 'not_clocked_in', params: { person: person.nickname } }) : notFound(who);
  afterCommit(deps, guildId, event);
  return {
    badgeNumber: closed.badge, userId: closed.userId, nickname: closed.nickname,
    clockInAt: closed.clockInAt, clockOutAt: closed.clockOutAt, durationMs: duration(closed), status: 'CLOSED' as const,
    clearedDispatcherSlots: closed.slots, leftUnits: closed.callsigns,
  };
}

/** The committed event to the bus, and the chat panel's refresh (debounced; never fails the request). */
function afterCommit(deps: Deps, guildId: string, event: GuildEvent | null) {
  if (event) deps.bus.publish([event]);
  deps.panel.refresh(guildId);
}

function duration(shift: { clockInAt: Date; clockOutAt: Date }): number {
  return Math.max(0, shift.clockOutAt.getTime() - shift.clockInAt.getTime());
}

export async function clockStatus(deps: Deps, guildId: string, badge: string) {
  const s = await store.shiftStatusByBadge(deps.sql, guildId, badge);
  if (!s) throw new AppError('NOT_FOUND', `no person has badge ${badge}`);
  const clockedIn = s.clockInAt !== null && s.clockOutAt === null;
  return {
    badgeNumber: badge,
    clockedIn,
    status: (s.status ?? 'OFF_DUTY') as 'OPEN' | 'CLOSED' | 'AUTO_CLOSED' | 'OFF_DUTY',
    // Never clocked in: off duty since the person was added, so `since` is always a timestamp.
    since: (clockedIn ? s.clockInAt : s.clockOutAt) ?? s.addedAt,
  };
}

export async function onDuty(deps: Deps, guildId: string) {
  const now = Date.now();
  const people = (await store.onDutyPeople(deps.sql, guildId)).map((p) => ({
    userId: p.userId, nickname: p.nickname, badgeNumber: p.badge, rank: p.rank,
    clockInAt: p.clockInAt, durationMs: Math.max(0, now - p.clockInAt.getTime()),
  }));
  return { count: people.length, people };
}
