import t from 'tap';
import { createHash } from 'node:crypto';
import { startDiscordStandIn } from '../helpers/discord-standin.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { seedGuild } from '../helpers/fixtures.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';

// "Login with Discord" (OAuth2 authorization code + PKCE) against the Discord stand-in, and /invite:
// state and PKCE checked, the state bound to the browser that started the sign-in, a session only
// for people who are members of one of our guilds in Discord and have a personnel entry there,
// and a German page for everything else.
const NORD = '681000000000000001';
const SUED = '681000000000000002';
const WEST = '681000000000000003'; // in our database; Mia is no member of its Discord server
const MIA = '682000000000000001'; // personnel in all three guilds, Discord member of NORD and SUED
const CEM = '682000000000000002'; // Discord member of NORD, no personnel entry anywhere
const DORA = '682000000000000003'; // personnel in WEST only, not in its Discord server

const discord = await startDiscordStandIn(t);
discord.addGuild({ id: NORD, name: 'Wache Nord' });
discord.addGuild({ id: SUED, name: 'Wache Süd' });
discord.addGuild({ id: WEST, name: 'Wache West' });
discord.addMember(NORD, { id: MIA, username: 'mia', globalName: 'Mia Discord' });
discord.addMember(SUED, { id: MIA, username: 'mia', globalName: 'Mia Discord' });
discord.addMember(NORD, { id: CEM, username: 'cem' });
const server = await startTestServer(t, discord.env());
await seedGuild(server.sql, NORD, [{ userId: MIA, nickname: 'Mia Nord', badge: '1', rank: 'crew' }]);
await seedGuild(server.sql, SUED, [{ userId: MIA, nickname: 'Mia Süd', badge: '5', rank: 'crew' }]);
await seedGuild(server.sql, WEST, [{ userId: MIA, nickname: 'Mia West', badge: '7', rank: 'crew' }, { userId: DORA, nickname: 'Dora West', badge: '8', rank: 'crew' }]);
await server.sql`update guilds set name = 'Rettungswache Nord' where id = ${NORD}`;
await server.sql`update guilds set name = 'Rettungswache Süd' where id = ${SUED}`;
await server.sql`update guilds set name = 'Rettungswache West' where id = ${WEST}`;

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const states = async () => (await server.sql`select count(*)::int as n from oauth_states`)[0].n as number;
const stored = async (authorize: URL) =>
  (await server.sql`select 1 from oauth_states where state_hash = ${sha256(authorize.searchParams.get('state')!)}`).length === 1;
const sessionsOf = async (userId: string) => (await server.sql`select count(*)::int as n from sessions where user_id = ${userId}`)[0].n as number;

interface Answer { status: number; location: string | null; setCookie: string | null; text: string; headers: Headers }
async function get(url: string | URL, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const res = await fetch(url, { method, headers, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), setCookie: res.headers.get('set-cookie'), text: await res.text(), headers: res.headers };
}

/** `GET /auth/discord`: Discord's authorize URL and the binding cookie (`name=value`). */
async function begin(query = '', on: TestServer = server): Promise<{ authorize: URL; cookie: string; setCookie: string }> {
  const res = await get(`${on.url}/auth/discord${query}`);
  if (res.status !== 302 || !res.location || !res.setCookie) throw new Error(`sign-in did not start: ${res.status} ${res.text.slice(0, 200)}`);
  return { authorize: new URL(res.location), cookie: res.setCookie.split(';')[0], setCookie: res.setCookie };
}

/** The stand-in's authorize page as `userId` (null: "Cancel"): the callback URL it redirects to. */
async function atDiscord(authorize: URL, userId: string | null): Promise<URL> {
  discord.signInAs(userId);
  const res = await get(authorize);
  if (res.status !== 302 || !res.location) throw new Error(`the stand-in did not redirect: ${res.status} ${res.text.slice(0, 200)}`);
  return new URL(res.location);
}

/** A whole sign-in up to the callback's answer. */
async function signInAs(userId: string | null, query = ''): Promise<Answer & { authorize: URL }> {
  const { authorize, cookie } = await begin(query);
  const callback = await atDiscord(authorize, userId);
  return { ...(await get(callback, { cookie })), authorize };
}

/** The token requests the stand-in received, with their form bodies. */
function tokenRequests() {
  return discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/oauth2/token'))
    .map((r) => ({ status: r.status, form: new URLSearchParams(typeof r.body === 'string' ? r.body : r.body as Record<string, string>) }));
}

type Asserts = Pick<typeof t, 'equal' | 'match' | 'notMatch'>;
function assertPage(t: Asserts, res: Answer, status: number, headline: string | RegExp) {
  t.equal(res.status, status, `status ${status}`);
  t.match(res.headers.get('content-type'), /^text\/html/, 'a page, not JSON');
  t.match(res.text, typeof headline === 'string' ? `<h1 id="headline">${headline}</h1>` : headline);
  t.equal(res.headers.get('cache-control'), 'no-store');
}
const noSessionCookie = (t: Asserts, res: Answer) => t.notMatch(res.setCookie ?? '', /dt_session=/, 'no session cookie');

t.test('GET /auth/discord sends the browser to Discord with state and PKCE, and binds the state to the browser', async (t) => {
  const before = await states();
  const { authorize, setCookie } = await begin();
  t.equal(`${authorize.origin}${authorize.pathname}`, `${discord.origin}/oauth2/authorize`);
  const p = Object.fromEntries(authorize.searchParams);
  t.same(Object.keys(p).sort(), ['client_id', 'code_challenge', 'code_challenge_method', 'prompt', 'redirect_uri', 'response_type', 'scope', 'state']);
  t.match(p, {
    client_id: discord.applicationId, redirect_uri: `${server.url}/auth/discord/callback`, response_type: 'code',
    scope: 'identify guilds', code_challenge_method: 'S256', prompt: 'none',
  });
  t.match(p.state, /^[A-Za-z0-9_-]{43}$/, 'the state: 256 random bits');
  t.match(p.code_challenge, /^[A-Za-z0-9_-]{43}$/, 'the challenge: a SHA-256 in base64url');
  t.equal(await states(), before + 1, 'the state is stored');
  const [row] = await server.sql`select code_verifier, extract(epoch from expires_at - now())::int as ttl from oauth_states where state_hash = ${sha256(p.state)}`;
  t.ok(row, 'as its SHA-256');
  t.equal(createHash('sha256').update(row.code_verifier).digest('base64url'), p.code_challenge, 'with the verifier of the challenge');
  t.ok(row.ttl > 590 && row.ttl <= 600, `valid for 10 minutes (${row.ttl} s)`);
  t.match(setCookie, /; HttpOnly/);
  t.match(setCookie, /; SameSite=Lax/);
  t.match(setCookie, /; Max-Age=600/);
  t.match(setCookie, /; Path=\/auth\/discord/);
  t.notMatch(setCookie, p.state, 'the cookie holds the state\'s hash, not the state');

  const again = await begin();
  t.not(again.authorize.searchParams.get('state'), p.state, 'every sign-in has its own state');
  t.not(again.authorize.searchParams.get('code_challenge'), p.code_challenge, 'and its own verifier');
});

t.test('the whole flow signs the Discord user in, exactly like a login link, and sends a verifier that matches the challenge', async (t) => {
  const sent = tokenRequests().length;
  const res = await signInAs(MIA);
  t.equal(res.status, 302);
  t.equal(res.location, `/dispatch?guild=${NORD}`, 'the board opens the first allowed guild');
  t.match(res.setCookie, /^dt_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600$/, 'the session cookie of a login link');
  const cookie = res.setCookie!.split(';')[0];
  const session = await get(`${server.url}/auth/session`, { cookie });
  t.equal(session.status, 200);
  const body = JSON.parse(session.text);
  t.equal(body.userId, MIA, 'signed in as the Discord user');
  t.same(body.guilds.map((g: { guildId: string }) => g.guildId), [NORD, SUED, WEST], 'the board lists the guilds with a personnel entry, as for a login link');
  const [row] = await server.sql`select kind, extract(epoch from expires_at - now())::int as ttl from sessions where user_id = ${MIA}`;
  t.equal(row.kind, 'browser');
  t.ok(row.ttl > 14 * 86400 - 60, 'a browser session of 14 days');

  const requests = tokenRequests().slice(sent);
  t.equal(requests.length, 1, 'one token exchange');
  const { form, status } = requests[0];
  t.equal(status, 200, 'Discord accepted it');
  t.match(Object.fromEntries(form), { grant_type: 'authorization_code', redirect_uri: `${server.url}/auth/discord/callback`, client_id: discord.applicationId });
  t.equal(createHash('sha256').update(form.get('code_verifier')!).digest('base64url'), res.authorize.searchParams.get('code_challenge'),
    'the verifier sent is the one whose S256 is the challenge');
  t.notOk(await stored(res.authorize), 'the state is used up');
});

t.test('?guild= is remembered with the state: the board opens it when the user may, else the first allowed guild', async (t) => {
  t.equal((await signInAs(MIA, `?guild=${SUED}`)).location, `/dispatch?guild=${SUED}`);
  t.equal((await signInAs(MIA, `?guild=${WEST}`)).location, `/dispatch?guild=${NORD}`, 'not in WEST\'s Discord: the first allowed');
  t.equal((await signInAs(MIA, '?guild=999999999999999999')).location, `/dispatch?guild=${NORD}`, 'unknown guild: the first allowed');
  const bad = await get(`${server.url}/auth/discord?guild=${encodeURIComponent('bad id')}`);
  assertPage(t, bad, 400, 'Dieser Anmelde-Link ist fehlerhaft');
});

t.test('a callback with a bad, missing, foreign, reused or expired state signs nobody in', async (t) => {
  const { authorize, cookie } = await begin();
  const callback = await atDiscord(authorize, MIA);
  const sessions = await sessionsOf(MIA);

  const tampered = new URL(callback);
  tampered.searchParams.set('state', `${callback.searchParams.get('state')!.slice(0, -2)}AA`);
  const badState = await get(tampered, { cookie });
  assertPage(t, badState, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  t.match(badState.text, 'href="/auth/discord"', 'with a link to start again');
  noSessionCookie(t, badState);

  const noState = new URL(callback);
  noState.searchParams.delete('state');
  assertPage(t, await get(noState, { cookie }), 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  assertPage(t, await get(`${server.url}/auth/discord/callback`, { cookie }), 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');

  // Login CSRF: the callback link of someone else's sign-in, opened in a browser that did not start it.
  const noCookie = await get(callback);
  assertPage(t, noCookie, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  noSessionCookie(t, noCookie);
  const other = await begin();
  const foreign = await get(callback, { cookie: other.cookie });
  assertPage(t, foreign, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  t.equal(await sessionsOf(MIA), sessions, 'no session was made');

  const own = await get(callback, { cookie });
  t.equal(own.status, 302, 'the browser that started it still finishes it');
  const reused = await get(callback, { cookie });
  assertPage(t, reused, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  noSessionCookie(t, reused);
  t.equal(await sessionsOf(MIA), sessions + 1, 'the state signed in once');

  const late = await begin();
  const lateCallback = await atDiscord(late.authorize, MIA);
  await server.sql`update oauth_states set expires_at = now() - interval '1 second'`;
  const expired = await get(lateCallback, { cookie: late.cookie });
  assertPage(t, expired, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  t.match(expired.setCookie, /^dt_discord_login=; Path=\/auth\/discord; HttpOnly; SameSite=Lax; Max-Age=0/, 'the binding cookie is cleared');
  t.equal(await sessionsOf(MIA), sessions + 1, 'no session from an expired state');
  t.notOk(await stored(late.authorize), 'the expired state is gone');
  t.ok(await states() > 0, 'others, expired too, are left');
  await begin();
  t.equal(await states(), 1, 'the next sign-in clears every expired state');
});

t.test('a wrong PKCE verifier never passes: Discord refuses the code, nobody is signed in', async (t) => {
  const { authorize, cookie } = await begin();
  const callback = await atDiscord(authorize, MIA);
  await server.sql`update oauth_states set code_verifier = ${'x'.repeat(43)}`;
  const sessions = await sessionsOf(MIA);
  const sent = tokenRequests().length;
  const res = await get(callback, { cookie });
  assertPage(t, res, 400, 'Anmeldung abgelaufen oder ungültig – bitte erneut versuchen');
  noSessionCookie(t, res);
  const [request] = tokenRequests().slice(sent);
  t.equal(request.form.get('code_verifier'), 'x'.repeat(43), 'the stored verifier was sent');
  t.equal(request.status, 400, 'and Discord (the stand-in) refused it');
  t.equal(await sessionsOf(MIA), sessions);
});

t.test('a Discord user without a personnel entry gets a 403 page that says how to get one', async (t) => {
  const stranger = await signInAs(CEM);
  assertPage(t, stranger, 403, /Du hast in keiner Wache dieses Servers einen Personaleintrag/);
  t.match(stranger.text, CEM, 'with their Discord id, to give to the station lead');
  t.match(stranger.text, 'So bekommst du einen Personaleintrag');
  noSessionCookie(t, stranger);
  t.equal(await sessionsOf(CEM), 0);

  const notInDiscord = await signInAs(DORA);
  assertPage(t, notInDiscord, 403, /Du hast in keiner Wache dieses Servers einen Personaleintrag/);
  t.match(notInDiscord.text, /Einen Personaleintrag hast du in <b>Rettungswache West<\/b>.*nicht \(mehr\) Mitglied des Discord-Servers/s,
    'personnel in a guild whose Discord server they are not in: said so');
  t.equal(await sessionsOf(DORA), 0, 'a personnel entry alone is not enough');
});

t.test('"Cancel" at Discord (error=access_denied) shows "Anmeldung abgebrochen" with a retry link; the state is used up', async (t) => {
  const res = await signInAs(null, `?guild=${SUED}`);
  assertPage(t, res, 403, 'Anmeldung abgebrochen');
  t.match(res.text, `href="/auth/discord?guild=${SUED}"`, 'the retry keeps the guild');
  noSessionCookie(t, res);
  t.notOk(await stored(res.authorize), 'the state is used up');

  const odd = await get(`${server.url}/auth/discord/callback?error=invalid_scope&state=x`);
  assertPage(t, odd, 400, 'Discord hat die Anmeldung abgelehnt');
  t.match(odd.text, '<b>invalid_scope</b>', 'Discord\'s code is shown');
});

t.test('Discord down at the callback: a 503 page, nobody signed in', async (t) => {
  const { authorize, cookie } = await begin();
  const callback = await atDiscord(authorize, MIA);
  const sessions = await sessionsOf(MIA);
  discord.down();
  t.teardown(() => discord.up());
  const res = await get(callback, { cookie });
  discord.up();
  assertPage(t, res, 503, 'Discord ist gerade nicht erreichbar');
  t.equal(res.headers.get('retry-after'), '60');
  noSessionCookie(t, res);
  t.equal(await sessionsOf(MIA), sessions);
});

t.test('HEAD does not start or finish a sign-in', async (t) => {
  const before = await states();
  for (const path of ['/auth/discord', '/auth/discord/callback']) {
    const res = await get(`${server.url}${path}`, {}, 'HEAD');
    t.equal(res.status, 405, path);
    t.equal(res.headers.get('allow'), 'GET');
  }
  t.equal(await states(), before, 'no state was stored');
});

t.test('GET /invite (and /api/v1/invite, HEAD too) sends to the bot\'s invite with the permissions it needs', async (t) => {
  const permissions = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 18); // view channel, send, embed links, history, external emojis
  for (const path of ['/invite', '/api/v1/invite']) {
    for (const method of ['GET', 'HEAD']) {
      const res = await get(`${server.url}${path}`, {}, method);
      t.equal(res.status, 302, `${method} ${path}`);
      const to = new URL(res.location!);
      t.equal(`${to.origin}${to.pathname}`, `${discord.origin}/oauth2/authorize`);
      t.same(Object.fromEntries(to.searchParams), {
        client_id: discord.applicationId, scope: 'bot applications.commands', permissions: String(permissions), integration_type: '0',
      });
      t.equal(res.text, '');
    }
  }
});

t.test('GET /auth/discord/status says whether the board may offer the button', async (t) => {
  const res = await get(`${server.url}/auth/discord/status`);
  t.equal(res.status, 200);
  t.same(JSON.parse(res.text), { loginWithDiscord: true });
});

t.test('without Discord configured: German pages that say which variables to set', async (t) => {
  const bare = await startTestServer(t);
  const login = await get(`${bare.url}/auth/discord`);
  assertPage(t, login, 404, 'Anmelden mit Discord ist auf diesem Server nicht eingerichtet');
  for (const name of ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', `${bare.url}/auth/discord/callback`]) t.match(login.text, name);
  assertPage(t, await get(`${bare.url}/auth/discord/callback?code=a&state=b`), 404, 'Anmelden mit Discord ist auf diesem Server nicht eingerichtet');
  t.same(JSON.parse((await get(`${bare.url}/auth/discord/status`)).text), { loginWithDiscord: false });

  const invite = await get(`${bare.url}/invite`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  t.equal(invite.status, 404);
  t.match(invite.text, '<h1 id="headline">Der Discord-Bot ist auf diesem Server nicht eingerichtet</h1>');
  t.match(invite.text, 'DISCORD_TOKEN');
  const api = await get(`${bare.url}/api/v1/invite`);
  t.equal(api.status, 404, 'an API client gets the one error shape');
  t.same(Object.keys(JSON.parse(api.text)), ['error', 'reason']);
  t.match(JSON.parse(api.text).error, /DISCORD_TOKEN/);

  // The bot without the secret: /invite works, the sign-in does not.
  const { DISCORD_CLIENT_SECRET: _secret, ...botOnly } = discord.env();
  const half = await startTestServer(t, botOnly);
  t.equal((await get(`${half.url}/invite`)).status, 302, 'the bot can be invited');
  assertPage(t, await get(`${half.url}/auth/discord`), 404, 'Anmelden mit Discord ist auf diesem Server nicht eingerichtet');
});

t.test('in a real browser: from a used login link\'s page through Discord to the signed-in board', async (t) => {
  const browser = await launchBrowser(t);
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const link = await createLoginLink(server.sql, server.url, SUED, MIA);
  t.equal((await get(link)).status, 302, 'the link was used elsewhere');
  const page = await context.newPage();
  const used = await page.goto(link);
  t.equal(used?.status(), 410);
  t.equal(await page.locator('h1').innerText(), 'Dieser Login-Link wurde bereits benutzt');
  const button = page.getByRole('link', { name: 'Mit Discord anmelden' });
  t.equal(await button.getAttribute('href'), `/auth/discord?guild=${SUED}`, 'the used link\'s page offers Discord, for the link\'s guild');
  await screenshot(page, 'discord-login-used-link');

  discord.signInAs(MIA);
  await button.click();
  await page.waitForURL(`${server.url}/dispatch?guild=${SUED}`);
  await page.locator('#who').getByText('Mia Süd').waitFor();
  t.equal(await page.locator('#guild-name').innerText(), 'Rettungswache Süd', 'the board opened the link\'s guild');
  t.notOk(await page.locator('#signed-out').isVisible(), 'signed in');
  await page.locator('#connection.conn-live').waitFor();
  t.ok((await screenshot(page, 'discord-login-board')).length > 1000);
});

t.test('in a real browser: the board\'s signed-out screen offers "Mit Discord anmelden"', async (t) => {
  const browser = await launchBrowser(t);
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(`${server.url}/dispatch?guild=${NORD}`);
  await page.locator('#signed-out').waitFor();
  const button = page.locator('#discord-login');
  await button.waitFor();
  t.equal(await button.innerText(), 'Mit Discord anmelden');
  t.equal(await button.getAttribute('href'), `/auth/discord?guild=${NORD}`);
  await screenshot(page, 'discord-login-signed-out');

  discord.signInAs(CEM);
  await button.click();
  await page.locator('h1').getByText('Du hast in keiner Wache dieses Servers einen Personaleintrag').waitFor();
  await screenshot(page, 'discord-login-no-personnel');
  await page.goBack();
  await page.locator('#discord-login').waitFor();

  discord.signInAs(MIA);
  await page.locator('#discord-login').click();
  await page.waitForURL(`${server.url}/dispatch?guild=${NORD}`);
  await page.locator('#who').getByText('Mia Nord').waitFor();
  t.pass('signed in and on the board of the guild the address named');

  const bare = await startTestServer(t);
  const off = await context.newPage();
  await off.goto(`${bare.url}/dispatch`);
  await off.locator('#signed-out').waitFor();
  await off.waitForLoadState('networkidle');
  t.equal(await off.locator('#discord-login').count(), 0, 'no button where the server has no Discord login');
});
