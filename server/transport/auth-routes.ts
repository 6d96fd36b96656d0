import type uWS from 'uWebSockets.js';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { hashSecret } from '../auth/api-keys.ts';
import { isLoginToken, redeemLoginLink } from '../auth/login-links.ts';
import { readCookie } from '../auth/principal.ts';
import { deleteSession, liveSessionUser, loginTokenState, SESSION_ABSOLUTE_MS, touchSession } from '../auth/store.ts';
import { guildsOfUser } from '../domains/guilds/store.ts';
import { loginFailedPage } from './login-pages.ts';
import { copyRequest, isCrossSite, Reply } from './http.ts';
import { sendError } from './rest.ts';

const boardUrl = (guildId: string) => `/dispatch?guild=${encodeURIComponent(guildId)}`;
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Browser sign-in: `GET /auth/login/<token>` sets the session cookie and opens the board (a used,
 * expired or unknown link shows a German page saying what to do); `GET /auth/session` tells the
 * board who is signed in and which guilds they belong to; `POST /auth/logout` ends the session.
 */
export function mountAuthRoutes(app: uWS.TemplatedApp, deps: Deps): void {
  const name = deps.auth.cookieName;
  const secure = deps.config.secureCookies ? '; Secure' : '';

  app.get('/auth/login/:token', (res, req) => {
    const reply = new Reply(res);
    const token = req.getParameter(0) ?? '';
    const cookie = req.getHeader('cookie');
    (async () => {
      if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: the link stays unused
      const session = await redeemLoginLink(deps.sql, token);
      if (session) {
        reply.send(302, {
          location: boardUrl(session.guildId),
          'set-cookie': `${name}=${session.sessionToken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure}`,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        }, '');
        return;
      }
      const owner = isLoginToken(token) ? await loginTokenState(deps.sql, hashSecret(token)) : null;
      // A second click on a link that already signed this browser in: go on to the board.
      if (owner && (await sessionUserOf(cookie))?.userId === owner.userId) {
        reply.send(302, { location: boardUrl(owner.guildId), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, '');
        return;
      }
      const page = loginFailedPage(!owner ? 'unknown' : owner.used ? 'used' : 'expired', owner);
      reply.send(page.status, pageHeaders, page.html);
    })().catch((err) => sendError(deps, reply, err));
  });

  // A HEAD must not use up the one-time link (link previews send them): not allowed, say so without a body.
  app.head('/auth/login/:token', (res) => new Reply(res, true).json(405, { error: 'open the login link with GET' }, { allow: 'GET' }));

  /** Who the session cookie belongs to and the guilds they can open: what the board starts from. */
  const session = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const reply = new Reply(res, head);
    const cookie = req.getHeader('cookie');
    (async () => {
      if (!(await reply.ready())) return;
      const user = await sessionUserOf(cookie);
      if (!user) throw new AppError('UNAUTHORIZED', 'not signed in: open a login link');
      touchSession(deps.sql, user.hash).catch(() => {}); // an opened board counts as use; best effort
      reply.json(200, { userId: user.userId, guilds: await guildsOfUser(deps.sql, user.userId) }, { 'cache-control': 'no-store' });
    })().catch((err) => sendError(deps, reply, err));
  };
  app.get('/auth/session', session(false));
  app.head('/auth/session', session(true));

  /** The stored hash of the session token the cookie header carries, if it carries one. */
  function sessionHashOf(cookie: string | undefined): Buffer | null {
    const token = cookie ? readCookie(cookie, name) : undefined;
    return token ? hashSecret(token) : null;
  }

  /** The live session the cookie header carries, or null. */
  async function sessionUserOf(cookie: string) {
    const hash = sessionHashOf(cookie);
    const live = hash && await liveSessionUser(deps.sql, hash);
    return live ? { userId: live.userId, hash: hash! } : null;
  }

  app.post('/auth/logout', (res, req) => {
    const reply = new Reply(res);
    const http = copyRequest(req);
    (async () => { // a body is not read (uWS skips it)
      if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: the session stays
      if (isCrossSite(http.headers, deps.config.publicUrl)) throw new AppError('FORBIDDEN', 'cross-site request refused');
      const hash = sessionHashOf(http.headers.cookie);
      if (hash) {
        await deleteSession(deps.sql, hash);
        deps.bus.invalidate({ kind: 'session', id: hash.toString('hex') });
      }
      reply.json(200, { ok: true }, { 'set-cookie': `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}` });
    })().catch((err) => sendError(deps, reply, err));
  });
}
