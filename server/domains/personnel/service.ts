import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Tx } from '../../store/tx.ts';
import { loadDispatchers, loadStandby, loadUnits } from '../../hub/state/loaders.ts';
import { checkGameRankChange } from '../ranks/game.ts';
import { rankById as gameRankById } from '../ranks/store.ts';
import { beyondCaller, type Caller } from './caller.ts';
import * as store from './store.ts';

const DEFAULT_PAGE = 50;
const LAST_SHIFTS = 10;

export function personOut(p: store.PersonRow) {
  return {
    userId: p.userId, nickname: p.nickname, badgeNumber: p.badge, rankId: p.rankId, rank: p.rank,
    orgUnit: p.orgUnit, isAdmin: p.isAdmin, onDuty: p.onDuty, createdAt: p.createdAt,
  };
}

export function employeeOut(p: store.PersonRow) {
  return { userId: p.userId, nickname: p.nickname, badgeNumber: p.badge, rankId: p.rankId, rank: p.rank, orgUnit: p.orgUnit, onDuty: p.onDuty };
}

function historyOut(h: store.HistoryRow) {
  const rankEntry = h.kind === 'hired' || h.kind === 'promotion' || h.kind === 'demotion' || h.kind === 'rank_change';
  return {
    id: h.id, userId: h.userId, kind: h.kind as never, text: h.text,
    rankChange: rankEntry && (h.fromRank !== null || h.toRank !== null) ? { from: h.fromRank, to: h.toRank } : null,
    by: { kind: h.byKind as 'session' | 'key' | 'system', id: h.byId, name: h.byName }, at: h.at,
  };
}

const noPerson = (userId: string) => new AppError('NOT_FOUND', `no person with user id ${userId} in this guild`);
const noBadge = (badge: string) => new AppError('NOT_FOUND', `no person has badge ${badge}`);
const noRank = (rank: string) => new AppError('NOT_FOUND', `no rank ${JSON.stringify(rank)} in this guild`);
const badgeTaken = (badge: string) => new AppError('CONFLICT', `badge ${badge} is already taken in this guild`);

// ---- Reads ----------------------------------------------------------------------------------

export async function listPeople(deps: Deps, guildId: string) {
  const rows = await store.people(deps.sql, guildId);
  return { count: rows.length, people: rows.map(personOut) };
}

export async function getPerson(deps: Deps, guildId: string, userId: string) {
  const p = await store.personByUserId(deps.sql, guildId, userId);
  if (!p) throw noPerson(userId);
  return personOut(p);
}

export async function employeeByBadge(deps: Deps, guildId: string, badge: string) {
  const p = await store.personByBadge(deps.sql, guildId, badge);
  if (!p) throw noBadge(badge);
  return employeeOut(p);
}

export async function employeeByUserId(deps: Deps, guildId: string, userId: string) {
  const p = await store.personByUserId(deps.sql, guildId, userId);
  if (!p) throw noPerson(userId);
  return employeeOut(p);
}

export async function historyPage(deps: Deps, guildId: string, userId: string, q: { limit?: number; before?: string } = {}) {
  if (!(await store.personByUserId(deps.sql, guildId, userId))) throw noPerson(userId);
  const limit = q.limit ?? DEFAULT_PAGE;
  const rows = await store.history(deps.sql, guildId, userId, limit + 1, q.before ?? null);
  const page = rows.slice(0, limit);
  return { userId, entries: page.map(historyOut), nextBefore: rows.length > limit ? page[page.length - 1].id : null };
}

export async function ownActivity(deps: Deps, guildId: string, userId: string) {
  const [t, last] = await Promise.all([store.shiftTotals(deps.sql, guildId, userId), store.lastShifts(deps.sql, guildId, userId, LAST_SHIFTS)]);
  return {
    userId,
    onDuty: t.openSince !== null,
    currentShift: t.openSince ? { clockInAt: t.openSince, durationMs: Math.max(0, Date.now() - t.openSince.getTime()) } : null,
    totals: { totalMs: t.totalMs, shiftCount: t.shiftCount, last7DaysMs: t.last7DaysMs, last30DaysMs: t.last30DaysMs },
    firstShiftAt: t.firstAt,
    lastShifts: last,
  };
}

// ---- Writes ---------------------------------------------------------------------------------

export interface CreateInput { userId: string; nickname: string; badge?: string | null; rank?: string | null; orgUnit?: string | null; isAdmin?: boolean }

export async function createPerson(deps: Deps, guildId: string, input: CreateInput, caller: Caller) {
  if (input.isAdmin !== undefined && !caller.admin) throw new AppError('FORBIDDEN', 'only guild admins may set isAdmin');
  const result = await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const rank = input.rank ? await store.rankByIdOrName(tx.sql, guildId, input.rank) : null;
    if (input.rank && !rank) throw noRank(input.rank);
    if (rank) checkGrant(caller, rank.capabilities, `rank ${rank.name}`);
    const person = { userId: input.userId, nickname: input.nickname, badge: input.badge ?? null, rankId: rank?.id ?? null, orgUnit: input.orgUnit ?? null, isAdmin: input.isAdmin ?? false };
    let added: boolean;
    try {
      added = await store.insertPerson(tx.sql, guildId, person);
    } catch (err) {
      if (store.isForeignKeyViolation(err)) throw noRank(input.rank!);
      throw err;
    }
    if (!added) {
      if (await store.userIdTaken(tx.sql, guildId, input.userId)) throw new AppError('CONFLICT', `user id ${input.userId} already has a personnel sheet in this guild`);
      throw badgeTaken(person.badge!);
    }
    await store.insertHistory(tx.sql, guildId, {
      userId: input.userId, kind: 'hired', text: 'personnel sheet created', fromRank: null, toRank: rank?.name ?? null,
      byKind: caller.actor.kind, byId: caller.actor.id,
    });
    tx.emit('access', { op: 'changed', userId: input.userId });
    tx.audit('personal.create', caller.actor, { userId: input.userId, badge: person.badge, rankId: person.rankId, isAdmin: person.isAdmin });
    return personOut((await store.personByUserId(tx.sql, guildId, input.userId))!);
  });
  // A sign-in attempt before the sheet existed may have cached "not a member".
  deps.guilds.changed(guildId);
  return result;
}

export interface UpdateInput { nickname?: string; badge?: string | null; rank?: string | null; orgUnit?: string | null; isAdmin?: boolean }

/**
 * Changes a person's sheet. A rank change writes a promotion, demotion or rank_change history
 * entry; changes of what boards show (nickname, badge, rank) patch the live topics the person
 * appears in; rank and admin changes drop the guild's cached memberships after commit, so the new
 * rights apply to the very next request.
 */
export async function updatePerson(
  deps: Deps, guildId: string, who: { userId: string } | { badge: string }, input: UpdateInput, caller: Caller, audit: string,
) {
  if (input.isAdmin !== undefined && !caller.admin) throw new AppError('FORBIDDEN', 'only guild admins may set isAdmin');
  const outcome = await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const admins = input.isAdmin === false ? await store.lockAdmins(tx.sql, guildId) : [];
    const before = await store.lockPerson(tx.sql, guildId, who);
    if (!before) throw 'userId' in who ? noPerson(who.userId) : noBadge(who.badge);
    const changes: store.PersonChanges = {};
    if (input.nickname !== undefined && input.nickname !== before.nickname) changes.nickname = input.nickname;
    if (input.badge !== undefined && input.badge !== before.badge) changes.badge = input.badge;
    if (input.orgUnit !== undefined && input.orgUnit !== before.orgUnit) changes.orgUnit = input.orgUnit;
    if (input.isAdmin !== undefined && input.isAdmin !== before.isAdmin) changes.isAdmin = input.isAdmin;
    let rank: store.RankRef | null = null;
    if (input.rank !== undefined) {
      rank = input.rank === null ? null : await store.rankByIdOrName(tx.sql, guildId, input.rank);
      if (input.rank !== null && !rank) throw noRank(input.rank);
      if ((rank?.id ?? null) !== before.rankId) changes.rankId = rank?.id ?? null;
    }
    const previous = changes.rankId !== undefined && before.rankId ? await store.rankById(tx.sql, guildId, before.rankId) : null;
    if (changes.rankId !== undefined && caller.scopedKey) {
      // The game's key holds no capability: the guild's per-rank rule decides, for both ranks.
      const ofGame = (id: string | null | undefined) => (id ? gameRankById(tx.sql, guildId, id) : null);
      checkGameRankChange(before.nickname, await ofGame(before.rankId), await ofGame(rank?.id));
    } else if (changes.rankId !== undefined) {
      checkGrant(caller, previous?.capabilities ?? [], `rank ${previous?.name}`);
      checkGrant(caller, rank?.capabilities ?? [], `rank ${rank?.name}`);
    }
    if (changes.isAdmin === false && admins.every((id) => id === before.userId)) {
      throw new AppError('CONFLICT', `${before.nickname} is the guild's last admin; make someone else admin first`);
    }
    if (Object.keys(changes).length === 0) return { before, after: before, changed: false };

    try {
      await store.updatePerson(tx.sql, guildId, before.userId, changes);
    } catch (err) {
      if (store.isUniqueViolation(err, 'people_guild_id_badge_key')) throw badgeTaken(changes.badge!);
      if (store.isForeignKeyViolation(err)) throw noRank(input.rank!);
      throw err;
    }
    if (changes.rankId !== undefined) {
      await store.insertHistory(tx.sql, guildId, {
        userId: before.userId, kind: rankChangeKind(previous, rank), text: `${before.rank ?? 'no rank'} → ${rank?.name ?? 'no rank'}`,
        fromRank: before.rank, toRank: rank?.name ?? null, byKind: caller.actor.kind, byId: caller.actor.id,
      });
    }
    const after = (await store.personByUserId(tx.sql, guildId, before.userId))!;
    await emitPersonChange(tx, before, after);
    tx.audit(audit, caller.actor, { userId: before.userId, changes: diff(before, after) });
    return { before, after, changed: true };
  });
  if (outcome.changed && (outcome.before.rankId !== outcome.after.rankId || outcome.before.isAdmin !== outcome.after.isAdmin)) {
    deps.guilds.changed(guildId);
  }
  return outcome;
}

export async function addHistory(deps: Deps, guildId: string, userId: string, entry: { kind: string; text: string }, caller: Caller) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    if (!(await store.personByUserId(tx.sql, guildId, userId))) throw noPerson(userId);
    const row = await store.insertHistory(tx.sql, guildId, { userId, kind: entry.kind, text: entry.text, byKind: caller.actor.kind, byId: caller.actor.id });
    tx.audit('personal.history_add', caller.actor, { userId, entryId: row.id, kind: entry.kind });
    return historyOut(row);
  });
}

// ---- Rules and live ops ---------------------------------------------------------------------

function checkGrant(caller: Caller, capabilities: readonly string[], what: string) {
  const missing = beyondCaller(caller, capabilities);
  if (missing.length) throw new AppError('FORBIDDEN', `${what} carries capabilities you do not hold (${missing.join(', ')}); only guild admins may assign or take it away`);
}

/** Higher position = higher rank; getting a rank is a promotion, losing it a demotion. */
function rankChangeKind(from: store.RankRef | null, to: store.RankRef | null): string {
  if (!from) return 'promotion';
  if (!to) return 'demotion';
  if (to.position > from.position) return 'promotion';
  if (to.position < from.position) return 'demotion';
  return 'rank_change';
}

function diff(before: store.PersonRow, after: store.PersonRow) {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of ['nickname', 'badge', 'rankId', 'orgUnit', 'isAdmin'] as const) {
    if (before[k] !== after[k]) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}

/**
 * Keeps every hot topic the person appears in equal to a fresh snapshot (shapes of
 * hub/state/loaders.ts): onDuty carries nickname, badge and rank; dispatcher slots, unit members
 * and the stand-by roster carry the nickname. Reads happen under the stream lock, so no event of
 * another transaction can slip between what is read here and this transaction's seq.
 */
async function emitPersonChange(tx: Tx, before: store.PersonRow, after: store.PersonRow) {
  const { userId } = after;
  if (before.rankId !== after.rankId || before.isAdmin !== after.isAdmin) tx.emit('access', { op: 'changed', userId });
  const shown = before.nickname !== after.nickname || before.badge !== after.badge || before.rank !== after.rank;
  if (!shown) return;
  await store.lockEventStream(tx.sql, tx.guildId);
  const now = await store.personByUserId(tx.sql, tx.guildId, userId);
  if (now?.onDuty) tx.emit('onDuty', { op: 'patch', key: userId, value: { nickname: after.nickname, badge: after.badge, rank: after.rank } });
  if (before.nickname === after.nickname) return;
  const nickname = after.nickname;
  for (const [slot, value] of Object.entries(await loadDispatchers(tx.sql, tx.guildId))) {
    if ((value as { userId?: string }).userId === userId) tx.emit('dispatchers', { op: 'patch', key: slot, value: { nickname } });
  }
  const { units } = await loadUnits(tx.sql, tx.guildId);
  for (const [callsign, value] of Object.entries(units)) {
    const members = (value as { members?: { id: string }[] }).members ?? [];
    if (members.some((m) => m.id === userId)) tx.emit('units', { op: 'patch', key: callsign, value: { members } });
  }
  const standby = await loadStandby(tx.sql, tx.guildId);
  if (standby[userId]) tx.emit('standby', { op: 'patch', key: userId, value: { nickname } });
}
