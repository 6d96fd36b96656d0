import { AppError } from '../../core/errors.ts';
import { capabilities as knownCapabilities } from '../../../contract/capabilities.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx } from '../../store/tx.ts';
import { beyondCaller, type Caller } from '../personnel/caller.ts';
import { lockEventStream } from '../personnel/store.ts';
import { assignableFromGame, checkGameFlag } from './game.ts';
import * as store from './store.ts';

const noRank = (id: string) => new AppError('NOT_FOUND', `no rank ${id} in this guild`);
const nameTaken = (name: string) => new AppError('CONFLICT', `a rank named ${JSON.stringify(name)} already exists in this guild`);

/** Known capabilities first, in their canonical order. */
const canonical = (caps: readonly string[]) => [...caps].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
const order = (c: string) => {
  const i = (knownCapabilities as readonly string[]).indexOf(c);
  return i < 0 ? knownCapabilities.length : i;
};

function rankOut(r: store.RankRow) {
  return {
    id: r.id, name: r.name, position: r.position, capabilities: canonical(r.capabilities),
    gameAssignable: r.gameAssignable, assignableFromGame: assignableFromGame(r), holders: r.holders,
  };
}

function checkGrant(caller: Caller, caps: readonly string[], what: string) {
  const missing = beyondCaller(caller, caps);
  if (missing.length) throw new AppError('FORBIDDEN', `${what} carries capabilities you do not hold (${missing.join(', ')}); only guild admins may grant or take them away`);
}

/** "Notfallsanitäter" -> "notfallsanitaeter"; room is left for a "-2" style suffix. */
export function slugOf(name: string): string {
  const s = name.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss')
    .normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 28).replace(/-+$/, '');
  return s || 'rank';
}

export async function listRanks(deps: Deps, guildId: string) {
  return { ranks: (await store.ranks(deps.sql, guildId)).map(rankOut) };
}

export interface NewRank { id?: string; name: string; position: number; capabilities: string[]; gameAssignable?: boolean | null }

export async function createRank(deps: Deps, guildId: string, input: NewRank, caller: Caller) {
  checkGrant(caller, input.capabilities, `rank ${input.name}`);
  const gameAssignable = input.gameAssignable ?? null;
  checkGameFlag(caller, null, { name: input.name, capabilities: input.capabilities, gameAssignable });
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    if (await store.rankNameTaken(tx.sql, guildId, input.name, null)) throw nameTaken(input.name);
    let id = input.id;
    if (id === undefined) {
      const base = slugOf(input.name);
      id = base;
      for (let n = 2; await store.rankIdTaken(tx.sql, guildId, id); n++) id = `${base}-${n}`;
    } else if (await store.rankIdTaken(tx.sql, guildId, id)) {
      throw new AppError('CONFLICT', `a rank with id ${id} already exists in this guild`);
    }
    const rank = { id, name: input.name, position: input.position, capabilities: canonical(input.capabilities), gameAssignable };
    if (!(await store.insertRank(tx.sql, guildId, rank))) {
      // Lost a race with a concurrent create: say which of the two was taken.
      if (await store.rankNameTaken(tx.sql, guildId, input.name, null)) throw nameTaken(input.name);
      throw new AppError('CONFLICT', `a rank with id ${id} already exists in this guild`);
    }
    tx.emit('access', { op: 'rank', rankId: id, change: 'created' });
    tx.audit('ranks.create', caller.actor, rank);
    return rankOut({ ...rank, holders: 0 });
  });
}

export async function updateRank(deps: Deps, guildId: string, id: string, input: store.RankChanges, caller: Caller) {
  const outcome = await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const before = await store.lockRank(tx.sql, guildId, id);
    if (!before) throw noRank(id);
    checkGrant(caller, before.capabilities, `rank ${before.name}`);
    if (input.capabilities) checkGrant(caller, input.capabilities, `the new capability list`);
    checkGameFlag(caller, before, {
      name: input.name ?? before.name, capabilities: input.capabilities ?? before.capabilities,
      gameAssignable: input.gameAssignable !== undefined ? input.gameAssignable : before.gameAssignable,
    });
    const changes: store.RankChanges = {};
    if (input.name !== undefined && input.name !== before.name) {
      if (await store.rankNameTaken(tx.sql, guildId, input.name, id)) throw nameTaken(input.name);
      changes.name = input.name;
    }
    if (input.position !== undefined && input.position !== before.position) changes.position = input.position;
    if (input.capabilities !== undefined) {
      const caps = canonical(input.capabilities);
      if (caps.join() !== canonical(before.capabilities).join()) changes.capabilities = caps;
    }
    if (input.gameAssignable !== undefined && input.gameAssignable !== before.gameAssignable) changes.gameAssignable = input.gameAssignable;
    if (Object.keys(changes).length === 0) return { rank: rankOut(before), capabilitiesChanged: false };
    await store.updateRank(tx.sql, guildId, id, changes);
    if (changes.name !== undefined) {
      // onDuty entries carry the rank name; read the holders under the stream lock (see lockEventStream).
      await lockEventStream(tx.sql, guildId);
      for (const userId of await store.onDutyHolders(tx.sql, guildId, id)) {
        tx.emit('onDuty', { op: 'patch', key: userId, value: { rank: changes.name } });
      }
    }
    tx.emit('access', { op: 'rank', rankId: id, change: 'updated' });
    tx.audit('ranks.update', caller.actor, { id, changes });
    return { rank: rankOut((await store.rankById(tx.sql, guildId, id))!), capabilitiesChanged: changes.capabilities !== undefined };
  });
  if (outcome.capabilitiesChanged) deps.guilds.changed(guildId);
  return outcome.rank;
}

/** A rank someone holds is not deleted (409): move its holders to another rank first. */
export async function deleteRank(deps: Deps, guildId: string, id: string, caller: Caller) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const rank = await store.lockRank(tx.sql, guildId, id);
    if (!rank) throw noRank(id);
    checkGrant(caller, rank.capabilities, `rank ${rank.name}`);
    const holders = await store.holderCount(tx.sql, guildId, id);
    if (holders > 0) throw new AppError('CONFLICT', `rank ${rank.name} is held by ${holders} ${holders === 1 ? 'person' : 'people'}; give them another rank first`);
    await store.deleteRank(tx.sql, guildId, id);
    tx.emit('access', { op: 'rank', rankId: id, change: 'deleted' });
    tx.audit('ranks.delete', caller.actor, { id, name: rank.name });
    return { deleted: true as const, id };
  });
}
