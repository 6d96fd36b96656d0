import type uWS from 'uWebSockets.js';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { hashSecret } from '../auth/api-keys.ts';
import { redeemLoginLink } from '../auth/login-links.ts';
import { readCookie } from '../auth/principal.ts';
import { deleteSession, SESSION_ABSOLUTE_MS } from '../auth/store.ts';
import { copyRequest, isCrossSite, Reply } from './http.ts';
import { sendError } from './rest.ts';

/** Browser sign-in: `GET /auth/login/<token>` sets the session cookie and opens the board; `POST /auth/logout` ends it. */
export function mountAuthRoutes(app: uWS.TemplatedApp, deps: Deps): void {
  const name = deps.auth.cookieName;
  const secure = deps.config.secureCookies ? '; Secure' : '';

  app.get('/auth/login/:token', (res, req) => {
    const reply = new Reply(res);
    const token = req.getParameter(0) ?? '';
    (async () => {
      const session = await redeemLoginLink(deps.sql, token);
      if (!session) throw new AppError('NOT_FOUND', 'this login link is unknown, already used or expired; ask for a new one');
      reply.send(302, {
        location: `/dispatch?guild=${encodeURIComponent(session.guildId)}`,
        'set-cookie': `${name}=${session.sessionToken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure}`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      }, '');
    })().catch((err) => sendError(deps, reply, err));
  });

  app.post('/auth/logout', (res, req) => {
    const reply = new Reply(res);
    const http = copyRequest(req);
    (async () => {
      if (isCrossSite(http.headers, deps.config.publicUrl)) throw new AppError('FORBIDDEN', 'cross-site request refused');
      const token = http.headers.cookie ? readCookie(http.headers.cookie, name) : undefined;
      if (token) {
        const hash = hashSecret(token);
        await deleteSession(deps.sql, hash);
        deps.bus.invalidate({ kind: 'session', id: hash.toString('hex') });
      }
      reply.json(200, { ok: true }, { 'set-cookie': `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}` });
    })().catch((err) => sendError(deps, reply, err));
  });
}
