import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Actor, Tx } from '../../store/tx.ts';
import type { ActorName } from '../calls/store.ts';
import { acknowledgeAlarms } from '../incidents/acknowledge.ts';
import * as ops from './ops.ts';
import * as statusStore from './status-store.ts';
import * as store from './store.ts';
import { noUnit } from './service.ts';
import { guildWrite, pgCode } from './write.ts';
import { changeUnitStatus, type StatusTarget } from './status-change-store.ts';

/** At most this many statuses per guild. */
export const MAX_STATUSES = 50;

export async function listStatuses(deps: Deps, guildId: string) {
  let list = await statusStore.statuses(deps.sql, guildId);
  if (!list.length) {
    // A guild older than the catalogue: seed it once, then it is there for good.
    await guildWrite(deps, guildId, (tx) => statusStore.lockCatalogue(tx.sql, guildId, 'update'));
    list = await statusStore.statuses(deps.sql, guildId);
  }
  return { statuses: list };
}

/**
 * Creates or replaces a status. When its alarm flag flips, every unit in it enters or leaves the
 * alarm topic in the same event; `units` gets a `statuses` notice so boards re-read labels and colours.
 */
export async function putStatus(deps: Deps, guildId: string, s: { code: string; label: string; color: string; alarm: boolean; acknowledges?: boolean; available?: boolean; position?: number }, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'update');
    const { status, previousAlarm } = await statusStore.putStatus(tx.sql, guildId, { ...s, acknowledges: s.acknowledges ?? null, available: s.available ?? null, position: s.position ?? null });
    if (previousAlarm === null && (await statusStore.statusCount(tx.sql, guildId)) > MAX_STATUSES) {
      throw new AppError('CONFLICT', `a guild has at most ${MAX_STATUSES} statuses`);
    }
    if (previousAlarm !== null && previousAlarm !== status.alarm) {
      for (const u of await statusStore.unitsInStatus(tx.sql, guildId, status.code)) {
        if (status.alarm) ops.emitAlarmEntered(tx, u.callsign, u.status, u.since);
        else ops.emitAlarmLeft(tx, u.callsign);
      }
    }
    tx.emit('units', { op: 'statuses' });
    tx.audit('statuses.set', actor, { code: status.code, label: status.label, color: status.color, alarm: status.alarm, acknowledges: status.acknowledges, available: status.available });
    return status;
  });
}

export async function deleteStatus(deps: Deps, guildId: string, code: string, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'update');
    const { existed, deleted, inUse } = await statusStore.deleteUnusedStatus(tx.sql, guildId, code);
    if (!existed) throw new AppError('NOT_FOUND', `no status ${code}`);
    if (!deleted) throw new AppError('CONFLICT', `status ${code} is in use by ${inUse.join(', ')}`, { reason: 'status_in_use', params: { status: code, units: inUse.join(', ') } });
    if ((await statusStore.statusCount(tx.sql, guildId)) === 0) throw new AppError('CONFLICT', 'the last status cannot be deleted');
    tx.emit('units', { op: 'statuses' });
    tx.audit('statuses.delete', actor, { code });
    return { deleted: true as const, code };
  });
}

type StatusSource = 'dispatcher' | 'self' | 'game';

/**
 * Sets a unit's (locked) status: `units` patch, and `alarm` plus `overview.alarms` when it enters or
 * leaves an alarm status. A status with `acknowledges: true` acknowledges the unit's pending alarms
 * on open sheets (see ../incidents/acknowledge.ts), in the same transaction.
 */
export async function changeStatus(tx: Tx, guildId: string, unit: { id: string; callsign: string; status: string }, code: string, by: ActorName, note: string | null = null) {
  const known = await statusStore.statusesByCode(tx.sql, guildId, [unit.status, code]);
  const next = known.get(code);
  if (!next) throw unknownStatus(code);
  const was = !!known.get(unit.status)?.alarm;
  const since = await store.setUnitStatus(tx.sql, guildId, unit.id, code, note);
  ops.emitStatus(tx, unit.callsign, code, since.getTime(), was, next.alarm, note);
  if (next.acknowledges) await acknowledgeAlarms(tx, unit, next, by);
  return { callsign: unit.callsign, status: code, statusLabel: next.label, alarm: next.alarm, previous: unit.status, since, note };
}

/**
 * The three doors of a status change. Each is one statement (status-change-store.ts: the unit, the
 * event and the audit row, autocommit), whose answer says what it found; the event goes to the bus
 * after it committed. The transaction's way below runs only for what the statement leaves to it:
 * an acknowledging status with an alarm (possibly) pending, whose sheet entries it writes, and a
 * guild whose catalogue row was never seeded.
 */
export async function setUnitStatus(deps: Deps, guildId: string, callsign: string, code: string, actor: Actor, by: ActorName) {
  const done = await oneStatement(deps, guildId, { door: 'dispatcher', callsign }, code, null, { action: 'unit.status_set', actor });
  if (done === null) return setUnitStatusInTx(deps, guildId, callsign, code, actor, by);
  const { verdict, result } = done;
  if (!result) throw verdict.unitFound ? unknownStatus(code) : noUnit(callsign);
  return result;
}

/**
 * The caller sets the status of the unit they occupy (`PUT /me/unit-status`), with an optional note
 * for the desk (an empty one is none); 403 for any other unit.
 */
export async function setOwnUnitStatus(deps: Deps, guildId: string, userId: string, callsign: string, code: string, actor: Actor, by: ActorName, note?: string) {
  const done = await oneStatement(deps, guildId, { door: 'self', callsign, userId }, code, note || null, { action: 'unit.self_status', actor });
  if (done === null) return setOwnUnitStatusInTx(deps, guildId, userId, callsign, code, actor, by, note);
  const { verdict, result } = done;
  if (!result) throw verdict.unitFound && verdict.seated ? unknownStatus(code) : notYourUnit(callsign);
  return result;
}

/** The game sets the status of the unit the person with `badge` occupies. Not audited (like the badge clock). */
export async function setUnitStatusByBadge(deps: Deps, guildId: string, badge: string, code: string, actor: Actor, by: ActorName) {
  const done = await oneStatement(deps, guildId, { door: 'game', badge }, code, null, null);
  if (done === null) return setUnitStatusByBadgeInTx(deps, guildId, badge, code, actor, by);
  const { verdict, result } = done;
  if (result) return result;
  if (verdict.nickname === null) throw new AppError('NOT_FOUND', `no person has badge ${badge}`);
  if (!verdict.seated) throw new AppError('CONFLICT', `${verdict.nickname} is not in a unit`);
  throw verdict.unitFound ? unknownStatus(code) : new AppError('NOT_FOUND', `the unit of ${verdict.nickname} is gone`);
}

const unknownStatus = (code: string) => new AppError('BAD_REQUEST', `unknown status ${code}; see GET /admin/statuses`);
const notYourUnit = (callsign: string) => new AppError('FORBIDDEN', `you do not occupy unit ${callsign}`, { reason: 'not_your_unit', params: { unit: callsign } });

/**
 * The statement, retried when PostgreSQL broke a deadlock against it (it wrote nothing then), and
 * its event to the bus once committed. Null: the transaction's way must do this change.
 */
async function oneStatement(deps: Deps, guildId: string, target: StatusTarget, code: string, note: string | null, audit: { action: string; actor: Actor } | null) {
  for (let attempt = 1; ; attempt++) {
    try {
      const { verdict, changed, event } = await changeUnitStatus(deps.sql, guildId, target, code, note, audit);
      if (!verdict.catalogue || verdict.acknowledges) return null;
      if (event) deps.bus.publish([event]);
      const result = changed && {
        callsign: changed.callsign, status: changed.status, statusLabel: changed.statusLabel, alarm: changed.alarm,
        previous: changed.previous, since: changed.since, note: changed.note,
      };
      return { verdict, result };
    } catch (err) {
      if (attempt < 4 && pgCode(err) === '40P01') continue;
      throw err;
    }
  }
}

/** A dispatcher sets any unit's status: the transaction's way. */
async function setUnitStatusInTx(deps: Deps, guildId: string, callsign: string, code: string, actor: Actor, by: ActorName) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const unit = await store.lockUnit(tx.sql, guildId, callsign);
    if (!unit) throw noUnit(callsign);
    const result = await changeStatus(tx, guildId, unit, code, by);
    audit(tx, 'dispatcher', actor, result);
    return result;
  });
}

async function setOwnUnitStatusInTx(deps: Deps, guildId: string, userId: string, callsign: string, code: string, actor: Actor, by: ActorName, note?: string) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const unit = await store.lockUnit(tx.sql, guildId, callsign);
    const seat = unit ? await store.seatOf(tx.sql, guildId, userId) : null;
    if (!unit || seat?.unitId !== unit.id) throw notYourUnit(callsign);
    const result = await changeStatus(tx, guildId, unit, code, by, note || null);
    audit(tx, 'self', actor, result);
    return result;
  });
}

async function setUnitStatusByBadgeInTx(deps: Deps, guildId: string, badge: string, code: string, actor: Actor, by: ActorName) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const person = await store.lockPerson(tx.sql, guildId, { badge });
    if (!person) throw new AppError('NOT_FOUND', `no person has badge ${badge}`);
    const seat = await store.seatOf(tx.sql, guildId, person.userId);
    if (!seat) throw new AppError('CONFLICT', `${person.nickname} is not in a unit`);
    const unit = await store.lockUnit(tx.sql, guildId, seat.callsign);
    if (!unit) throw noUnit(seat.callsign);
    const result = await changeStatus(tx, guildId, unit, code, { ...by, name: `${by.name ?? 'Spiel'} (${person.nickname})` });
    audit(tx, 'game', actor, result);
    return result;
  });
}

/** Spec §6 names `unit.self_status`; dispatcher changes are audited too. Game changes by badge are not (like the badge clock). */
function audit(tx: Tx, source: StatusSource, actor: Actor, r: { callsign: string; status: string; previous: string; note: string | null }) {
  if (source === 'game') return;
  tx.audit(source === 'self' ? 'unit.self_status' : 'unit.status_set', actor, { callsign: r.callsign, status: r.status, previous: r.previous, ...(r.note ? { note: r.note } : {}) });
}
