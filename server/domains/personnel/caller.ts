import type { Principal } from '../../auth/principal.ts';
import type { Actor } from '../../store/tx.ts';

/**
 * Who is writing, for the rules that depend on it: guild admins and unscoped keys may do anything;
 * a scoped key got its right from its scope; a session without admin rights may grant or take away
 * only capabilities it holds itself (no one raises their own rights through a rank).
 */
export interface Caller {
  actor: Actor;
  admin: boolean;
  holds(capability: string): boolean;
}

export function callerOf(principal: Principal, actor: Actor): Caller {
  if (principal.kind === 'key') return { actor, admin: principal.scopes === null, holds: () => true };
  const caps = principal.capabilities;
  return { actor, admin: principal.isAdmin, holds: (c) => principal.isAdmin || caps.has(c) };
}

/** Capabilities of `capabilities` the caller does not hold (empty: the caller may grant them). */
export function beyondCaller(caller: Caller, capabilities: readonly string[]): string[] {
  return capabilities.filter((c) => !caller.holds(c));
}
