import { AppError } from '../core/errors.ts';
import type { Principal, SessionPrincipal } from '../auth/principal.ts';

/** The session principal of a `sessionOnly` procedure (the access check already refused keys). */
export function requireSession(ctx: { principal: Principal }): SessionPrincipal {
  if (ctx.principal.kind !== 'session') throw new AppError('FORBIDDEN', 'this route needs a signed-in session');
  return ctx.principal;
}
