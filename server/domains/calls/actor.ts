import type { Principal } from '../../auth/principal.ts';
import type { Actor } from '../../store/tx.ts';
import type { ActorName } from './store.ts';

/** Who did it, with a name people can read: a session's nickname or an API key's name at the time (shown on calls and incident sheets). */
export function actorName(ctx: { principal: Principal; actor: Actor }): ActorName {
  return { kind: ctx.actor.kind, id: ctx.actor.id, name: ctx.principal.kind === 'session' ? ctx.principal.nickname : ctx.principal.name };
}
