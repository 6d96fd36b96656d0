import { AppError } from '../../core/errors.ts';
import { managementOf } from '../../../contract/capabilities.ts';
import type { Caller } from '../personnel/caller.ts';

/**
 * Which ranks the game may assign (PUT /integrations/ingame/ranks with a scoped key). A scoped key
 * holds no capability of its own, so the guild decides per rank: `gameAssignable` true or false, or
 * null for the default rule (ranks without management capabilities, auth/capabilities.ts). The
 * game may neither give a rank it may not assign nor take one away: a leader is not demoted from
 * the game either.
 */
export interface GameRank { id: string; name: string; capabilities: readonly string[]; gameAssignable: boolean | null }

export function assignableFromGame(r: GameRank): boolean {
  return r.gameAssignable ?? managementOf(r.capabilities).length === 0;
}

/** 403 unless the game may give (`to`) or take away (`from`) the rank; says which rank, why and where to change it. */
export function checkGameRankChange(personName: string, from: GameRank | null, to: GameRank | null): void {
  if (from && !assignableFromGame(from)) throw notFromGame(from, `${personName} holds it, and the game may not take it away`);
  if (to && !assignableFromGame(to)) throw notFromGame(to, 'the game may not give it');
}

function notFromGame(r: GameRank, what: string): AppError {
  const why = r.gameAssignable === false
    ? 'it is marked not assignable from the game (gameAssignable false)'
    : `it carries management capabilities (${managementOf(r.capabilities).join(', ')})`;
  const change = r.gameAssignable === false ? 'a rank manager can change that' : 'a guild admin can allow it';
  return new AppError('FORBIDDEN', `rank ${r.name} (${r.id}): ${what}, because ${why}; ${change} with PATCH /admin/ranks/${r.id} {"gameAssignable": true}`);
}

/**
 * 403 when a write would let the game assign a management rank and the caller is no guild admin:
 * marking one `gameAssignable` true, or giving a rank so marked more management capabilities.
 */
export function checkGameFlag(caller: Caller, before: GameRank | null, after: Omit<GameRank, 'id'>): void {
  if (caller.admin || after.gameAssignable !== true) return;
  const management = managementOf(after.capabilities);
  if (!management.length) return;
  const had = before?.gameAssignable === true ? managementOf(before.capabilities) : [];
  if (management.every((c) => had.includes(c))) return; // an admin's earlier decision, not widened
  throw new AppError('FORBIDDEN', `only guild admins may let the game assign rank ${after.name}: it carries management capabilities (${management.join(', ')})`);
}
