import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import * as store from './store.ts';

type Who = store.Who;
/** Self routes write audit rows; the badge routes of game scripts and tools do not (spec §3). */
type Audit = { actor: Actor; audited: boolean };

function notFound(who: Who): AppError {
  return 'badge' in who
    ? new AppError('NOT_FOUND', `no person has badge ${who.badge}`)
    : new AppError('NOT_FOUND', 'you have no personnel entry in this guild');
}

export async function clockIn(deps: Deps, guildId: string, who: Who, audit: Audit) {
  const result = await inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    const { person, clockInAt } = await store.openShift(tx.sql, guildId, who);
    if (!person) throw notFound(who);
    if (!clockInAt) throw new AppError('CONFLICT', `${person.nickname} is already clocked in`);
    emitClockIn(tx, person, clockInAt.getTime());
    if (audit.audited) tx.audit('shift.clock_in', audit.actor, { userId: person.userId });
    return { badgeNumber: person.badge, userId: person.userId, nickname: person.nickname, clockInAt, status: 'OPEN' as const };
  });
  deps.panel.refresh(guildId);
  return result;
}

export async function clockOut(deps: Deps, guildId: string, who: Who, audit: Audit) {
  const result = await inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    const { person, shift } = await store.closeShift(tx.sql, guildId, who);
    if (!person) throw notFound(who);
    if (!shift) throw new AppError('CONFLICT', `${person.nickname} is not clocked in`);
    emitClockOut(tx, person.userId, shift.slots, shift.callsigns);
    if (audit.audited) tx.audit('shift.clock_out', audit.actor, { userId: person.userId, durationMs: duration(shift) });
    return {
      badgeNumber: person.badge, userId: person.userId, nickname: person.nickname,
      clockInAt: shift.clockInAt, clockOutAt: shift.clockOutAt, durationMs: duration(shift), status: 'CLOSED' as const,
      clearedDispatcherSlots: shift.slots, leftUnits: shift.callsigns,
    };
  });
  deps.panel.refresh(guildId);
  return result;
}

// Topic ops follow hub/reducers.ts; `duty` and `changed` are notices (the person's duty flips,
// which the alarm, stand-by and access views of that person depend on). Times are epoch ms.
function emitClockIn(tx: Tx, person: store.PersonRef, since: number) {
  const { userId } = person;
  tx.emit('onDuty', { op: 'upsert', key: userId, value: { userId, nickname: person.nickname, badge: person.badge, rank: person.rank, since } });
  tx.emit('overview', { op: 'add', field: 'onDuty', by: 1 });
  tx.emit('dispatchers', { op: 'duty', userId, onDuty: true });
  tx.emit('alarm', { op: 'duty', userId, onDuty: true });
  tx.emit('standby', { op: 'duty', userId, onDuty: true });
}

function emitClockOut(tx: Tx, userId: string, slots: number[], callsigns: string[]) {
  tx.emit('onDuty', { op: 'remove', key: userId });
  tx.emit('overview', { op: 'add', field: 'onDuty', by: -1 });
  if (slots.length) tx.emit('overview', { op: 'add', field: 'dispatchers', by: -slots.length });
  tx.emit('dispatchers', { op: 'duty', userId, onDuty: false });
  for (const slot of slots) tx.emit('dispatchers', { op: 'remove', key: String(slot) });
  tx.emit('units', { op: 'duty', userId, onDuty: false });
  for (const callsign of callsigns) tx.emit('units', { op: 'unlink', key: callsign, field: 'members', id: userId });
  tx.emit('alarm', { op: 'duty', userId, onDuty: false });
  tx.emit('access', { op: 'changed', userId });
  tx.emit('einsatzEntries', { op: 'membersLeft', userId, callsigns });
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
    since: clockedIn ? s.clockInAt : s.clockOutAt,
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
