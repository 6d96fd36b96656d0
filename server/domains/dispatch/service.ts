import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Actor, Tx } from '../../store/tx.ts';
import { lockPerson } from '../units/store.ts';
import { guildWrite } from '../units/write.ts';
import { MAX_SLOTS } from './schema.ts';
import * as store from './store.ts';

export async function listDispatchers(deps: Deps, guildId: string) {
  return { maxSlots: MAX_SLOTS, slots: await store.slots(deps.sql, guildId) };
}

type Who = { kind: 'self' | 'admin'; userId: string };

/**
 * Gives a person on duty a dispatcher slot: `slot`, or (self, none given) the slot they hold or the
 * first free one. A person holds one slot: any other they held is freed. An admin may take a slot
 * from someone else; a person setting themselves may not.
 */
export async function takeSlot(deps: Deps, guildId: string, who: Who, slot: number | null, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    await store.lockSlots(tx.sql, guildId);
    const person = await lockPerson(tx.sql, guildId, { userId: who.userId });
    if (!person) throw who.kind === 'self' ? new AppError('NOT_FOUND', 'you have no personnel entry in this guild') : new AppError('NOT_FOUND', `no person ${who.userId} in this guild`);
    if (!person.onDuty) throw who.kind === 'self'
      ? new AppError('CONFLICT', 'you are not clocked in', { reason: 'not_clocked_in', params: {} })
      : new AppError('CONFLICT', `${person.nickname} is not clocked in`, { reason: 'not_clocked_in', params: { person: person.nickname } });
    const mine = await store.slotsOf(tx.sql, guildId, person.userId);
    const target = slot ?? mine[0] ?? (await store.firstFreeSlot(tx.sql, guildId, MAX_SLOTS));
    if (target === null) throw new AppError('CONFLICT', `all ${MAX_SLOTS} dispatcher slots are taken`, { reason: 'all_slots_taken', params: { slots: String(MAX_SLOTS) } });
    const holder = await store.slotHolder(tx.sql, guildId, target);
    if (holder && holder.userId !== person.userId && who.kind === 'self') throw new AppError('CONFLICT', `slot ${target} is taken by ${holder.nickname}`, { reason: 'slot_taken', params: { slot: String(target), person: holder.nickname } });
    if (holder?.userId === person.userId && mine.length === 1) {
      return { ...holder, replaced: null, movedFrom: [] as number[] }; // already so: nothing changes
    }
    const movedFrom = mine.filter((s) => s !== target);
    if (movedFrom.length) await store.deleteSlots(tx.sql, guildId, movedFrom);
    const since = await store.putSlot(tx.sql, guildId, target, person.userId);
    const value = { slot: target, userId: person.userId, nickname: person.nickname, since };
    for (const s of movedFrom) tx.emit('dispatchers', { op: 'remove', key: String(s) });
    tx.emit('dispatchers', { op: 'upsert', key: String(target), value: { ...value, since: since.getTime() } });
    const by = (holder ? 0 : 1) - movedFrom.length;
    if (by !== 0) tx.emit('overview', { op: 'add', field: 'dispatchers', by });
    const replaced = holder && holder.userId !== person.userId ? holder.userId : null;
    emitAccess(tx, [person.userId, ...(replaced ? [replaced] : [])]);
    tx.audit(who.kind === 'self' ? 'dispatchers.self_set' : 'dispatchers.set', actor, { slot: target, userId: person.userId, ...(replaced ? { replaced } : {}), ...(movedFrom.length ? { movedFrom } : {}) });
    return { ...value, replaced, movedFrom };
  });
}

/** Frees one slot (admin). */
export async function clearSlot(deps: Deps, guildId: string, slot: number, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    await store.lockSlots(tx.sql, guildId);
    const holder = await store.slotHolder(tx.sql, guildId, slot);
    if (!holder) throw new AppError('NOT_FOUND', `dispatcher slot ${slot} is free`);
    await store.deleteSlots(tx.sql, guildId, [slot]);
    emitCleared(tx, holder.userId, [slot]);
    tx.audit('dispatchers.clear', actor, { slot, userId: holder.userId });
    return { userId: holder.userId, cleared: [slot] };
  });
}

/** Frees the caller's slots. */
export async function leaveSlots(deps: Deps, guildId: string, userId: string, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    await store.lockSlots(tx.sql, guildId);
    const mine = await store.slotsOf(tx.sql, guildId, userId);
    if (!mine.length) throw new AppError('CONFLICT', 'you hold no dispatcher slot', { reason: 'no_dispatcher_slot' });
    await store.deleteSlots(tx.sql, guildId, mine);
    emitCleared(tx, userId, mine);
    tx.audit('dispatchers.self_clear', actor, { slots: mine });
    return { userId, cleared: mine };
  });
}

function emitCleared(tx: Tx, userId: string, slots: number[]) {
  for (const s of slots) tx.emit('dispatchers', { op: 'remove', key: String(s) });
  tx.emit('overview', { op: 'add', field: 'dispatchers', by: -slots.length });
  emitAccess(tx, [userId]);
}

/** Holding a dispatcher slot is part of a person's access status (`GET /access`): a notice per person. */
function emitAccess(tx: Tx, userIds: string[]) {
  for (const userId of userIds) tx.emit('access', { op: 'changed', userId });
}

// ---- stand-by ----------------------------------------------------------------------------------

export async function listStandby(deps: Deps, guildId: string) {
  return { people: await store.standby(deps.sql, guildId) };
}

/** Puts the caller on the stand-by roster; already on it: unchanged, no event. */
export async function enterStandby(deps: Deps, guildId: string, userId: string, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    const added = await store.insertStandby(tx.sql, guildId, userId);
    if (!added) {
      const existing = await store.standbyEntry(tx.sql, guildId, userId);
      if (existing) return existing;
      throw new AppError('NOT_FOUND', 'you have no personnel entry in this guild');
    }
    tx.emit('standby', { op: 'upsert', key: added.userId, value: { ...added, since: added.since.getTime() } });
    tx.emit('overview', { op: 'add', field: 'standby', by: 1 });
    tx.audit('standby.self_set', actor, { userId });
    return added;
  });
}

/** Takes a person off the roster: themselves (`self`, 409 when not on it) or anyone (admin, 404 when not on it). */
export async function removeStandby(deps: Deps, guildId: string, who: Who, actor: Actor) {
  return guildWrite(deps, guildId, async (tx) => {
    const r = await store.leaveStandby(tx.sql, guildId, who.userId);
    if (!r) throw who.kind === 'self' ? new AppError('NOT_FOUND', 'you have no personnel entry in this guild') : new AppError('NOT_FOUND', `no person ${who.userId} in this guild`);
    if (!r.removed) throw who.kind === 'self'
      ? new AppError('CONFLICT', 'you are not on stand-by', { reason: 'not_on_standby', params: {} })
      : new AppError('NOT_FOUND', `${r.nickname} is not on stand-by`, { reason: 'not_on_standby', params: { person: r.nickname } });
    tx.emit('standby', { op: 'remove', key: r.userId });
    tx.emit('overview', { op: 'add', field: 'standby', by: -1 });
    tx.audit(who.kind === 'self' ? 'standby.self_clear' : 'standby.remove', actor, { userId: r.userId });
    return { removed: true as const, userId: r.userId };
  });
}
