import { AppError } from '../../core/errors.ts';
import { positionsByCallsign } from '../positions/service.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../store/tx.ts';
import { unitTypeOf } from '../aao/service.ts';
import * as ops from './ops.ts';
import * as statusStore from './status-store.ts';
import * as store from './store.ts';
import { guildWrite, pgCode } from './write.ts';

export async function listUnits(deps: Deps, guildId: string) {
  const [units, positions] = await Promise.all([store.unitsWithMembers(deps.sql, guildId), positionsByCallsign(deps, guildId)]);
  return { units: units.map((u) => ({ ...u, position: positions.get(u.callsign) ?? null })) };
}

/** `GET /me/units`: the units a crew chooses from (never a typed callsign), by station. */
export async function listCrewUnits(deps: Deps, guildId: string) {
  return { units: await store.unitsForCrew(deps.sql, guildId) };
}

const taken = (callsign: string) => new AppError('CONFLICT', `a unit with callsign ${callsign} already exists`);
export const noUnit = (callsign: string) => new AppError('NOT_FOUND', `no unit ${callsign}`);

export async function createUnit(deps: Deps, guildId: string, input: { callsign: string; label?: string; orgUnit?: string; type?: string | null }, actor: Actor) {
  try {
    return await guildWrite(deps, guildId, async (tx) => {
      await statusStore.lockCatalogue(tx.sql, guildId, 'share');
      const initial = await statusStore.initialStatus(tx.sql, guildId);
      if (!initial) throw new AppError('CONFLICT', 'the status catalogue is empty; add a status first');
      const type = await unitTypeOf(tx.sql, guildId, input.type ?? null);
      const unit = await store.insertUnit(tx.sql, guildId, { callsign: input.callsign, label: input.label ?? '', orgUnit: input.orgUnit ?? '', status: initial.code, type });
      if (!unit) throw taken(input.callsign);
      ops.emitUnitAdded(tx, unit, initial.alarm);
      tx.audit('unit.create', actor, { callsign: unit.callsign });
      return view(unit, [], initial);
    });
  } catch (err) {
    if (pgCode(err) === '23505') throw taken(input.callsign);
    throw err;
  }
}

export async function updateUnit(deps: Deps, guildId: string, input: { callsign: string; newCallsign?: string; label?: string; orgUnit?: string; type?: string | null }, actor: Actor) {
  try {
    return await guildWrite(deps, guildId, async (tx) => {
      await statusStore.lockCatalogue(tx.sql, guildId, 'share');
      const unit = await store.lockUnit(tx.sql, guildId, input.callsign);
      if (!unit) throw noUnit(input.callsign);
      const members = await store.lockMembers(tx.sql, guildId, unit.id);
      const callsign = input.newCallsign ?? unit.callsign;
      const renamed = callsign !== unit.callsign;
      if (renamed && members.length) throw new AppError('CONFLICT', `${unit.callsign} can only be renamed while nobody occupies it`);
      const type = input.type === undefined ? unit.type : await unitTypeOf(tx.sql, guildId, input.type);
      const next = await store.updateUnit(tx.sql, guildId, unit.id, { callsign, label: input.label ?? unit.label, orgUnit: input.orgUnit ?? unit.orgUnit, type });
      if (!next) throw taken(callsign);
      const status = (await statusStore.statusesByCode(tx.sql, guildId, [next.status])).get(next.status) ?? null;
      if (renamed) {
        // The board's key is the callsign: the unit moves to its new key, alarm entry included.
        tx.emit('units', { op: 'remove', key: unit.callsign });
        tx.emit('units', { op: 'upsert', key: next.callsign, value: ops.unitValue(next, members) });
        if (status?.alarm) {
          tx.emit('alarm', { op: 'remove', key: unit.callsign });
          tx.emit('alarm', { op: 'upsert', key: next.callsign, value: { callsign: next.callsign, status: next.status, since: next.since.getTime() } });
        }
      } else {
        tx.emit('units', { op: 'patch', key: next.callsign, value: { label: next.label, orgUnit: next.orgUnit, type: next.type } });
      }
      tx.audit('unit.update', actor, { callsign: unit.callsign, ...(renamed ? { newCallsign: next.callsign } : {}), ...(input.type !== undefined ? { type: next.type } : {}) });
      return view(next, members, status);
    });
  } catch (err) {
    if (pgCode(err) === '23505') throw taken(input.newCallsign ?? input.callsign);
    throw err;
  }
}

export async function deleteUnit(deps: Deps, guildId: string, callsign: string, actor: Actor) {
  try {
    return await guildWrite(deps, guildId, async (tx) => {
      await statusStore.lockCatalogue(tx.sql, guildId, 'share');
      const unit = await store.lockUnit(tx.sql, guildId, callsign);
      if (!unit) throw noUnit(callsign);
      const members = await store.lockMembers(tx.sql, guildId, unit.id);
      if (members.length) throw new AppError('CONFLICT', `${unit.callsign} is occupied; its members must leave first`, { reason: 'unit_occupied', params: { unit: unit.callsign } });
      const status = (await statusStore.statusesByCode(tx.sql, guildId, [unit.status])).get(unit.status);
      await store.deleteUnit(tx.sql, guildId, unit.id);
      ops.emitUnitRemoved(tx, unit.callsign, !!status?.alarm);
      tx.audit('unit.delete', actor, { callsign: unit.callsign });
      return { deleted: true as const, callsign: unit.callsign };
    });
  } catch (err) {
    if (pgCode(err) === '23503') throw new AppError('CONFLICT', `${callsign} is still referenced (for example by an incident sheet)`);
    throw err;
  }
}

type Seating = { kind: 'self'; userId: string } | { kind: 'dispatcher'; userId: string };

/** Seats a person on duty in a unit; one unit at a time, so joining another moves them. */
export async function joinUnit(deps: Deps, guildId: string, who: Seating, callsign: string, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    const person = await store.lockPerson(tx.sql, guildId, { userId: who.userId });
    if (!person) throw personMissing(who);
    if (!person.onDuty) throw who.kind === 'self'
      ? new AppError('CONFLICT', 'you are not clocked in', { reason: 'not_clocked_in', params: {} })
      : new AppError('CONFLICT', `${person.nickname} is not clocked in`, { reason: 'not_clocked_in', params: { person: person.nickname } });
    const before = await store.seatOf(tx.sql, guildId, person.userId);
    const unit = await store.lockUnit(tx.sql, guildId, callsign);
    if (!unit) throw noUnit(callsign);
    if (before?.unitId === unit.id) return { userId: person.userId, callsign: unit.callsign, left: null };
    await store.seat(tx.sql, guildId, unit.id, person.userId);
    if (before) ops.emitMemberLeft(tx, before.callsign, person.userId);
    ops.emitMembers(tx, unit.callsign, await store.lockMembers(tx.sql, guildId, unit.id));
    tx.audit(who.kind === 'self' ? 'unit.join' : 'unit.member_add', actor, { userId: person.userId, callsign: unit.callsign, ...(before ? { left: before.callsign } : {}) });
    return { userId: person.userId, callsign: unit.callsign, left: before?.callsign ?? null };
  });
}

/** Takes a person out of their unit; with `callsign`, only out of that unit. */
export async function leaveUnit(deps: Deps, guildId: string, who: Seating, callsign: string | null, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    const person = await store.lockPerson(tx.sql, guildId, { userId: who.userId });
    if (callsign !== null && !(await store.lockUnit(tx.sql, guildId, callsign))) throw noUnit(callsign);
    if (!person) throw personMissing(who);
    const seat = await store.seatOf(tx.sql, guildId, person.userId);
    if (!seat) throw who.kind === 'self'
      ? new AppError('CONFLICT', 'you are not in a unit', { reason: 'not_in_unit', params: {} })
      : new AppError('NOT_FOUND', `${person.nickname} is not in unit ${callsign}`, { reason: 'not_in_unit', params: { person: person.nickname, unit: callsign ?? undefined } });
    if (callsign !== null && seat.callsign.toLowerCase() !== callsign.toLowerCase()) throw new AppError('NOT_FOUND', `${person.nickname} is not in unit ${callsign}`);
    await store.unseat(tx.sql, guildId, person.userId);
    ops.emitMemberLeft(tx, seat.callsign, person.userId);
    tx.audit(who.kind === 'self' ? 'unit.leave' : 'unit.member_remove', actor, { userId: person.userId, callsign: seat.callsign });
    return { userId: person.userId, callsign: null, left: seat.callsign };
  });
}

function personMissing(who: Seating): AppError {
  return who.kind === 'self'
    ? new AppError('NOT_FOUND', 'you have no personnel entry in this guild')
    : new AppError('NOT_FOUND', `no person ${who.userId} in this guild`);
}

function view(u: store.UnitRow, members: store.MemberRow[], status: statusStore.StatusRow | null) {
  return {
    callsign: u.callsign, label: u.label, orgUnit: u.orgUnit, type: u.type, status: u.status, statusLabel: status?.label ?? null,
    alarm: !!status?.alarm, since: u.since, note: u.note, members,
  };
}
