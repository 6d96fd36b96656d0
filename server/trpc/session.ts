import { AppError } from '../core/errors.ts';
import type { Principal, SessionPrincipal } from '../auth/principal.ts';

/** The session principal of a `sessionOnly` procedure (the access check already refused keys). */
export function requireSession(ctx: { principal: Principal }): SessionPrincipal {
  if (ctx.principal.kind !== 'session') throw new AppError('FORBIDDEN', 'this route needs a signed-in session');
  return ctx.principal;
}

/**
 * For `rest.guildQuery` routes: the `guild` query parameter a browser's <img src> sends must name
 * the caller's own guild (the one of the x-guild-id header or of the API key).
 */
export function requireOwnGuild(guild: string | undefined, guildId: string): void {
  if (guild !== undefined && guild !== guildId) throw new AppError('BAD_REQUEST', 'guild and x-guild-id name different guilds');
}
