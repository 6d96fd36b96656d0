import type uWS from 'uWebSockets.js';
import type { Deps } from '../deps.ts';
import { readCookie } from '../auth/principal.ts';
import { bindingGuild, discordLoginEnabled, finishDiscordLogin, GUILD_ID, STATE_TTL_MS, startDiscordLogin, type LoginOutcome } from '../domains/chat/login.ts';
import { boardUrl, browserSessionCookie, pageHeaders } from './auth-routes.ts';
import { Reply } from './http.ts';
import {
  botOffPage, discordLoginBadLinkPage, discordLoginCancelledPage, discordLoginInvalidPage, discordLoginOffPage, discordLoginRefusedPage,
  discordNoPersonnelPage, discordUnavailablePage, type Page,
} from './login-pages.ts';
import { sendError } from './rest.ts';
import { API_PREFIX } from './routes.ts';

const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/**
 * "Login with Discord" and the bot's invite, for browsers:
 * - `GET /auth/discord[?guild=<id>]`: on to Discord's authorize page (state + PKCE), the browser
 *   bound to the sign-in by a short-lived cookie; 404 page when the server has no client id/secret.
 * - `GET /auth/discord/callback`: the session (the same cookie a login link sets) and on to the
 *   board, or a German page saying what went wrong and what to do.
 * - `GET /auth/discord/status`: `{loginWithDiscord}`, for the board's sign-in screen.
 * - `GET /invite` (and `/api/v1/invite`, spec §5.4: public): on to the bot's invite page.
 */
export function mountDiscordLogin(app: uWS.TemplatedApp, deps: Deps): void {
  const bindingCookie = deps.config.secureCookies ? '__Secure-dt_discord_login' : 'dt_discord_login';
  const secure = deps.config.secureCookies ? '; Secure' : '';
  /** Only the callback needs it; SameSite=Lax still sends it on the top-level redirect back from Discord. */
  const setBinding = (value: string, maxAgeS: number) => `${bindingCookie}=${value}; Path=/auth/discord; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure}`;
  const sendPage = (reply: Reply, page: Page, extra: Record<string, string> = {}) => reply.send(page.status, { ...pageHeaders, ...extra }, page.html);

  app.get('/auth/discord', (res, req) => {
    const reply = new Reply(res);
    const guild = new URLSearchParams(req.getQuery() ?? '').get('guild');
    (async () => {
      if (!(await reply.ready())) return;
      if (!discordLoginEnabled(deps.config)) return sendPage(reply, discordLoginOffPage(deps.config.publicUrl));
      if (guild !== null && !GUILD_ID.test(guild)) return sendPage(reply, discordLoginBadLinkPage());
      const start = await startDiscordLogin(deps, guild);
      reply.send(302, { location: start.authorizeUrl, 'set-cookie': setBinding(start.binding, STATE_TTL_MS / 1000), ...noStore }, '');
    })().catch((err) => sendError(deps, reply, err));
  });

  app.get('/auth/discord/callback', (res, req) => {
    const reply = new Reply(res);
    const q = new URLSearchParams(req.getQuery() ?? '');
    const cookie = req.getHeader('cookie');
    (async () => {
      if (!(await reply.ready())) return;
      if (!discordLoginEnabled(deps.config)) return sendPage(reply, discordLoginOffPage(deps.config.publicUrl));
      const binding = cookie ? readCookie(cookie, bindingCookie) : undefined;
      const outcome = await finishDiscordLogin(deps, {
        code: q.get('code') ?? undefined, state: q.get('state') ?? undefined, error: q.get('error') ?? undefined, binding,
      });
      if (outcome.kind === 'session') {
        // The binding cookie stays until it expires (one Set-Cookie per answer here); its state is used up.
        reply.send(302, { location: boardUrl(outcome.guildId), 'set-cookie': browserSessionCookie(deps, outcome.sessionToken), ...noStore }, '');
        return;
      }
      const clear: Record<string, string> = binding === undefined ? {} : { 'set-cookie': setBinding('', 0) };
      const page = failurePage(outcome, bindingGuild(binding));
      sendPage(reply, page, page.status === 503 ? { ...clear, 'retry-after': '60' } : clear);
    })().catch((err) => sendError(deps, reply, err));
  });

  // A HEAD would start or finish nothing (link previews send them); say to use GET, without a body.
  const useGet = (path: string) => app.head(path, (res) => new Reply(res, true).json(405, { error: `open ${path} with GET` }, { allow: 'GET' }));
  useGet('/auth/discord');
  useGet('/auth/discord/callback');

  const status = (head: boolean) => (res: uWS.HttpResponse) =>
    new Reply(res, head).json(200, { loginWithDiscord: discordLoginEnabled(deps.config) }, { 'cache-control': 'no-cache' });
  app.get('/auth/discord/status', status(false));
  app.head('/auth/discord/status', status(true));

  /** Browsers get a page when the bot is not set up; other clients the one error shape. */
  const invite = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const reply = new Reply(res, head);
    const url = deps.chat.inviteUrl();
    if (url) return reply.send(302, { location: url, 'cache-control': 'no-cache' }, '');
    if (/\btext\/html\b/.test(req.getHeader('accept'))) return sendPage(reply, botOffPage());
    reply.json(404, { error: 'the Discord bot is not configured on this server: set DISCORD_TOKEN (or DISCORD_CLIENT_ID) and restart it' });
  };
  for (const path of ['/invite', `${API_PREFIX}/invite`]) {
    app.get(path, invite(false));
    app.head(path, invite(true));
  }
}

function failurePage(outcome: Exclude<LoginOutcome, { kind: 'session' }>, guildId: string | null): Page {
  switch (outcome.kind) {
    case 'invalid': return discordLoginInvalidPage(guildId);
    case 'cancelled': return discordLoginCancelledPage(guildId);
    case 'refused': return discordLoginRefusedPage(outcome.error, guildId);
    case 'noPersonnel': return discordNoPersonnelPage(outcome.user, outcome.notInDiscord);
    case 'unavailable': return discordUnavailablePage(guildId, outcome.misconfigured);
  }
}
