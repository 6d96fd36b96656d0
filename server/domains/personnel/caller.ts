import type { Principal } from '../../auth/principal.ts';
import type { Actor } from '../../store/tx.ts';

/**
 * Who is writing, for the rules that depend on it: guild admins and unscoped keys (only guild
 * admins mint those) may do anything; a session without admin rights may grant or take away only
 * capabilities it holds itself (no one raises their own rights through a rank); a scoped key holds
 * no capability at all: its scope let it in, and the rank rule of the game (ranks/game.ts) decides
 * which ranks it may assign.
 */
export interface Caller {
  actor: Actor;
  admin: boolean;
  /** A scoped API key (a game resource). */
  scopedKey: boolean;
  holds(capability: string): boolean;
}

export function callerOf(principal: Principal, actor: Actor): Caller {
  if (principal.kind === 'key') {
    const unscoped = principal.scopes === null;
    return { actor, admin: unscoped, scopedKey: !unscoped, holds: () => unscoped };
  }
  const caps = principal.capabilities;
  return { actor, admin: principal.isAdmin, scopedKey: false, holds: (c) => principal.isAdmin || caps.has(c) };
}

/** Capabilities of `capabilities` the caller does not hold (empty: the caller may grant them). */
export function beyondCaller(caller: Caller, capabilities: readonly string[]): string[] {
  return capabilities.filter((c) => !caller.holds(c));
}
