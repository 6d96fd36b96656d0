import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Actor, Tx } from '../../store/tx.ts';
import type { ActorName } from '../calls/store.ts';
import { acknowledgeAlarms } from '../incidents/acknowledge.ts';
import * as ops from './ops.ts';
import * as statusStore from './status-store.ts';
import * as store from './store.ts';
import { noUnit } from './service.ts';
import { guildWrite } from './write.ts';

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
  if (!next) throw new AppError('BAD_REQUEST', `unknown status ${code}; see GET /admin/statuses`);
  const was = !!known.get(unit.status)?.alarm;
  const since = await store.setUnitStatus(tx.sql, guildId, unit.id, code, note);
  ops.emitStatus(tx, unit.callsign, code, since.getTime(), was, next.alarm, note);
  if (next.acknowledges) await acknowledgeAlarms(tx, unit, next, by);
  return { callsign: unit.callsign, status: code, statusLabel: next.label, alarm: next.alarm, previous: unit.status, since, note };
}

/** A dispatcher sets any unit's status. */
export async function setUnitStatus(deps: Deps, guildId: string, callsign: string, code: string, actor: Actor, by: ActorName) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const unit = await store.lockUnit(tx.sql, guildId, callsign);
    if (!unit) throw noUnit(callsign);
    const result = await changeStatus(tx, guildId, unit, code, by);
    audit(tx, 'dispatcher', actor, result);
    return result;
  });
}

/**
 * The caller sets the status of the unit they occupy (`PUT /me/unit-status`), with an optional note
 * for the desk (an empty one is none); 403 for any other unit.
 */
export async function setOwnUnitStatus(deps: Deps, guildId: string, userId: string, callsign: string, code: string, actor: Actor, by: ActorName, note?: string) {
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const unit = await store.lockUnit(tx.sql, guildId, callsign);
    const seat = unit ? await store.seatOf(tx.sql, guildId, userId) : null;
    if (!unit || seat?.unitId !== unit.id) throw new AppError('FORBIDDEN', `you do not occupy unit ${callsign}`, { reason: 'not_your_unit', params: { unit: callsign } });
    const result = await changeStatus(tx, guildId, unit, code, by, note || null);
    audit(tx, 'self', actor, result);
    return result;
  });
}

/** The game sets the status of the unit the person with `badge` occupies. */
export async function setUnitStatusByBadge(deps: Deps, guildId: string, badge: string, code: string, actor: Actor, by: ActorName) {
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
