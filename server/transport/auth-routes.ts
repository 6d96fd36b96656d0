import type uWS from 'uWebSockets.js';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { hashSecret } from '../auth/api-keys.ts';
import { isLoginToken, redeemLoginLink } from '../auth/login-links.ts';
import { readCookie } from '../auth/principal.ts';
import { deleteSession, liveSessionUser, loginTokenState, SESSION_ABSOLUTE_MS, touchSession } from '../auth/store.ts';
import { guildsOfUser } from '../domains/guilds/store.ts';
import { discordLoginEnabled } from '../domains/chat/login.ts';
import { loginFailedPage } from './login-pages.ts';
import { copyRequest, isCrossSite, isJsonContentType, readBody, Reply } from './http.ts';
import { parseJsonObject } from './json-body.ts';
import { utf8Text } from './strict-text.ts';
import { sendError } from './rest.ts';

const DeviceLogin = z.strictObject({ device: z.literal('alarm') });
export const boardUrl = (guildId: string) => `/dispatch?guild=${encodeURIComponent(guildId)}`;
/** Headers of the server's own HTML pages (sign-in outcomes): never cached, nothing loaded from elsewhere. */
export const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The Set-Cookie of a new browser session: what a login link and "Login with Discord" set. */
export function browserSessionCookie(deps: Deps, sessionToken: string): string {
  const secure = deps.config.secureCookies ? '; Secure' : '';
  return `${deps.auth.cookieName}=${sessionToken}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure}`;
}

/**
 * Browser sign-in: `GET /auth/login/<token>` sets the session cookie and opens the board (a used,
 * expired or unknown link shows a German page saying what to do); `POST /auth/login/<token>` is the
 * terminal alarm client's sign-in; `GET /auth/session` tells the board who is signed in and which
 * guilds they belong to; `POST /auth/logout` ends the session.
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
          'set-cookie': browserSessionCookie(deps, session.sessionToken),
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
      const page = loginFailedPage(!owner ? 'unknown' : owner.used ? 'used' : 'expired', owner, { discordLogin: discordLoginEnabled(deps.config) });
      reply.send(page.status, pageHeaders, page.html);
    })().catch((err) => sendError(deps, reply, err));
  });

  /**
   * The terminal alarm client's sign-in (browsers only ever GET the link): `POST` of the link with
   * `{"device":"alarm"}` (JSON, not cross-site) trades it for an alarm session, which has no
   * absolute end but the same idle limit, revocation and cookie as a browser's, and answers
   * `{userId, guildId, kind}`. A link that cannot sign in: 410 used or expired, 404 unknown, each
   * `{error}` saying what to do.
   */
  app.post('/auth/login/:token', (res, req) => {
    const reply = new Reply(res);
    const token = req.getParameter(0) ?? '';
    const http = copyRequest(req);
    (async () => {
      const raw = await readBody(reply, http.headers, 1024);
      if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: the link stays unused
      if (isCrossSite(http.headers, deps.config.publicUrl)) throw new AppError('FORBIDDEN', 'cross-site request refused', { reason: 'csrf' });
      if (!isJsonContentType(http.headers)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'body must be sent as Content-Type: application/json');
      if (!DeviceLogin.safeParse(parseJsonObject(utf8Text(raw, 'body'))).success) throw new AppError('BAD_REQUEST', 'body must be {"device":"alarm"}');
      const session = await redeemLoginLink(deps.sql, token, 'alarm');
      if (session) {
        reply.json(200, { userId: session.userId, guildId: session.guildId, kind: 'alarm' }, {
          'set-cookie': `${name}=${session.sessionToken}; Path=/; HttpOnly; SameSite=Lax${secure}`,
          'cache-control': 'no-store',
        });
        return;
      }
      const owner = isLoginToken(token) ? await loginTokenState(deps.sql, hashSecret(token)) : null;
      if (!owner) return reply.json(404, { error: 'unknown login link: check that it was copied whole and belongs to this server' });
      const again = `get a new one with: npx dispatch-terminal login-link --guild ${owner.guildId} --user ${owner.userId}`;
      reply.json(410, { error: `this login link ${owner.used ? 'was used already' : 'has expired'}: ${again}` }, { 'cache-control': 'no-store' });
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
      if (isCrossSite(http.headers, deps.config.publicUrl)) throw new AppError('FORBIDDEN', 'cross-site request refused', { reason: 'csrf' });
      const hash = sessionHashOf(http.headers.cookie);
      if (hash) {
        await deleteSession(deps.sql, hash);
        deps.bus.invalidate({ kind: 'session', id: hash.toString('hex') });
      }
      reply.json(200, { ok: true }, { 'set-cookie': `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}` });
    })().catch((err) => sendError(deps, reply, err));
  });
}
