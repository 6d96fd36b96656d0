import { AppError } from '../../core/errors.ts';
import { capabilities } from '../../../contract/capabilities.ts';
import { scopes, type Scope } from '../../../contract/scopes.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import * as store from './store.ts';

/** What the dispatch game resource uses (spec §5.7 without the optional facility features). */
export const gameResourceScopes: Scope[] = scopes.filter((s) => !s.startsWith('facility:'));

async function modulesOf(deps: Deps, guildId: string): Promise<Record<string, boolean>> {
  return (await deps.guilds.modules(guildId)) ?? {};
}

export async function accessStatus(deps: Deps, p: Principal) {
  const modules = await modulesOf(deps, p.guildId);
  const partnerAreas: { guildId: string; name: string; areas: string[] }[] = [];
  if (p.kind === 'key') {
    const unscoped = p.scopes === null;
    return {
      guildId: p.guildId, kind: 'key' as const, keyId: p.keyId, keyName: p.name, isAdmin: unscoped,
      capabilities: unscoped ? [...capabilities] : [], ...(unscoped ? {} : { scopes: [...p.scopes!] }), modules, partnerAreas,
    };
  }
  // Read fresh: this is what the access check applies once the (at most 5 s) membership cache is dropped.
  const m = await store.memberAccess(deps.sql, p.guildId, p.userId);
  if (!m) throw new AppError('FORBIDDEN', 'you are not a member of this guild');
  return {
    guildId: p.guildId, kind: 'session' as const, userId: p.userId, nickname: m.nickname, rankId: m.rankId, rank: m.rank,
    isAdmin: m.isAdmin, capabilities: m.isAdmin ? [...capabilities] : capabilities.filter((c) => m.capabilities.includes(c)),
    modules, partnerAreas,
  };
}

export async function selfCheck(deps: Deps, p: Principal, need: Scope[] | undefined) {
  if (p.kind !== 'key') throw new AppError('FORBIDDEN', 'the self-check is for API keys of game resources; sessions use GET /access');
  const modules = await modulesOf(deps, p.guildId);
  const unscoped = p.scopes === null;
  const held: Scope[] = unscoped ? [...scopes] : [...p.scopes!];
  const wanted = [...new Set(need ?? gameResourceScopes)];
  const missing = wanted.filter((s) => !held.includes(s));
  return {
    ok: true as const, guildId: p.guildId, keyId: p.keyId, keyName: p.name,
    unscoped, scopes: held, need: wanted, missing, complete: missing.length === 0,
    medicSync: unscoped && modules.medic === true, modules, serverTime: new Date(),
  };
}
