import t from 'tap';
import { createHash } from 'node:crypto';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';

const G = '630000000000000001';
const H = '630000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'multi', nickname: 'Mia in G', badge: '5', rank: 'crew' },
]);
await seedGuild(server.sql, H, [{ userId: 'multi', nickname: 'Mia in H', badge: '7', rank: 'crew' }]);
const keyH = await unscopedKey(server.sql, H);

/** A fresh one-time link's path, e.g. `/auth/login/<token>`. */
async function loginPath(guildId: string, userId: string) {
  return new URL(await createLoginLink(server.sql, server.url, guildId, userId)).pathname;
}

function parseSetCookie(header: string) {
  const [pair, ...attrs] = header.split(';').map((s) => s.trim());
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attrs: attrs.map((a) => a.toLowerCase()) };
}

t.test('the login link answers 302 to the board with an HttpOnly, SameSite=Lax, Path=/ cookie', async (t) => {
  const path = await loginPath(G, 'u1');
  const res = await api('GET', path);
  t.equal(res.status, 302);
  t.equal(res.headers.get('location'), `/dispatch?guild=${G}`);
  const setCookie = res.headers.get('set-cookie');
  t.ok(setCookie, 'a cookie is set');
  const c = parseSetCookie(setCookie!);
  t.ok(c.attrs.includes('httponly'), 'HttpOnly');
  t.ok(c.attrs.includes('samesite=lax'), 'SameSite=Lax');
  t.ok(c.attrs.includes('path=/'), 'Path=/');
  t.notOk(c.attrs.some((a) => a.startsWith('domain=')), 'no Domain attribute');
  t.match(c.value, /^[A-Za-z0-9_-]{22,}$/, 'an opaque token of at least 128 bits');
  t.not(c.value, path.split('/').pop(), 'the session token is not the login token');
  const me = await api('GET', '/me/preferences', { session: { cookie: `${c.name}=${c.value}`, guildId: G } });
  t.equal(me.status, 200, 'the cookie signs in');
});

t.test('a login link works once; a used, expired or unknown link shows a German page (410/404), not JSON, and sets no cookie', async (t) => {
  const page = (res: { status: number; headers: Headers; text: string }, status: number, headline: RegExp, label: string) => {
    t.equal(res.status, status, `${label}: status ${status}`);
    t.match(res.headers.get('content-type'), /^text\/html/, `${label}: an HTML page`);
    t.match(res.text, headline, `${label}: says why`);
    t.match(res.text, /So bekommst du einen neuen Link/, `${label}: says what to do`);
    t.notOk(res.headers.get('set-cookie'), `${label}: no cookie`);
  };
  const path = await loginPath(G, 'u1');
  t.equal((await api('GET', path)).status, 302);
  const again = await api('GET', path);
  page(again, 410, /Dieser Login-Link wurde bereits benutzt/, 'second use');
  t.match(again.text, new RegExp(`login-link --guild ${G} --user u1`), 'with the command that makes a new one');

  const expired = await loginPath(G, 'u1');
  await server.sql`update login_tokens set expires_at = now() - interval '1 second' where used_at is null`;
  page(await api('GET', expired), 410, /Dieser Login-Link ist abgelaufen/, 'expired link');

  for (const token of ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'abc', 'x'.repeat(200), '%00%00%00%00%00%00%00%00%00%00%00']) {
    page(await api('GET', `/auth/login/${token}`), 404, /Diesen Login-Link kennen wir nicht/, `token ${token.slice(0, 12)}…`);
  }
});

t.test('a second click on a link that already signed this browser in goes on to the board', async (t) => {
  const path = await loginPath(H, 'multi');
  const first = await api('GET', path);
  const cookie = first.headers.get('set-cookie')!.split(';')[0];
  const again = await api('GET', path, { headers: { cookie } });
  t.equal(again.status, 302);
  t.equal(again.headers.get('location'), `/dispatch?guild=${H}`);
  t.notOk(again.headers.get('set-cookie'), 'the session stays as it is');
  const other = await signIn(server, G, 'u1');
  t.equal((await api('GET', path, { headers: { cookie: other.cookie } })).status, 410, 'another user\'s session does not pass');
});

t.test('GET /auth/session: who is signed in and every guild they can open; 401 {error} without a live session', async (t) => {
  const s = await signIn(server, H, 'multi');
  const res = await api('GET', '/auth/session', { headers: { cookie: s.cookie } });
  t.equal(res.status, 200);
  t.same(res.body, { userId: 'multi', guilds: [
    { guildId: G, name: `Guild ${G}`, nickname: 'Mia in G', isAdmin: false },
    { guildId: H, name: `Guild ${H}`, nickname: 'Mia in H', isAdmin: false },
  ] });
  t.equal(res.headers.get('cache-control'), 'no-store');
  assertError(t, await api('GET', '/auth/session'), 401, 'no cookie');
  assertError(t, await api('GET', '/auth/session', { headers: { cookie: 'dt_session=nope' } }), 401, 'unknown session');
  await api('POST', '/auth/logout', { headers: { cookie: s.cookie } });
  assertError(t, await api('GET', '/auth/session', { headers: { cookie: s.cookie } }), 401, 'after logout');
});

t.test('two concurrent uses of one link: exactly one session', async (t) => {
  const path = await loginPath(G, 'u1');
  const results = await Promise.all([api('GET', path), api('GET', path), api('GET', path)]);
  t.same(results.map((r) => r.status).sort(), [302, 410, 410]);
});

t.test('the session cookie plus x-guild-id works on /me/preferences and /me/clock-in', async (t) => {
  const s = await signIn(server, G, 'u1');
  const prefs = await api('GET', '/me/preferences', { session: s });
  t.equal(prefs.status, 200);
  t.match(prefs.body, { prefs: { theme: String } });
  const put = await api('PUT', '/me/preferences', { session: s, body: { prefs: { density: 'compact' } } });
  t.equal(put.status, 200);
  const clockIn = await api('POST', '/me/clock-in', { session: s });
  t.equal(clockIn.status, 200);
  t.match(clockIn.body, { userId: 'u1', badgeNumber: '01', status: 'OPEN' });
  t.equal((await api('POST', '/me/clock-out', { session: s })).status, 200);
  const withOthers = await api('GET', '/me/preferences', { session: { cookie: `theme=x; ${s.cookie}; other=1`, guildId: G } });
  t.equal(withOthers.status, 200, 'found among other cookies');
});

t.test('POST /auth/logout ends the session at once and clears the cookie', async (t) => {
  const s = await signIn(server, G, 'u1');
  const keep = await signIn(server, G, 'u1');
  t.equal((await api('GET', '/me/preferences', { session: s })).status, 200, 'works (and is now cached)');
  const out = await api('POST', '/auth/logout', { session: s });
  t.equal(out.status, 200);
  const c = parseSetCookie(out.headers.get('set-cookie') ?? '');
  t.equal(c.name, s.cookie.split('=')[0], 'the same cookie name');
  t.equal(c.value, '', 'emptied');
  t.ok(c.attrs.includes('max-age=0') || c.attrs.some((a) => a.startsWith('expires=')), 'expired in the browser');
  t.ok(c.attrs.includes('path=/'));
  assertError(t, await api('GET', '/me/preferences', { session: s }), 401, 'the very next request');
  assertError(t, await api('POST', '/me/clock-in', { session: s }), 401, 'mutations too');
  t.equal((await api('GET', '/me/preferences', { session: keep })).status, 200, 'another session of the same user lives on');
  const rows = await server.sql`select count(*)::int as n from sessions where user_id = 'u1'`;
  t.ok(rows[0].n >= 1);
});

t.test('expired or idle sessions in the database: 401 {error}', async (t) => {
  const expired = await signIn(server, G, 'u1');
  const idle = await signIn(server, G, 'multi');
  const token = (s: { cookie: string }) => s.cookie.slice(s.cookie.indexOf('=') + 1);
  const hash = (v: string) => createHash('sha256').update(v).digest();
  await server.sql`update sessions set expires_at = now() - interval '1 second' where token_hash = ${hash(token(expired))}`;
  await server.sql`update sessions set last_seen_at = now() - interval '25 hours' where token_hash = ${hash(token(idle))}`;
  assertError(t, await api('GET', '/me/preferences', { session: expired }), 401, 'past expires_at');
  assertError(t, await api('GET', '/me/preferences', { session: idle }), 401, 'idle longer than a day');
  assertError(t, await api('GET', '/admin/on-duty', { session: expired }), 401, 'admin route');
});

t.test('unknown or malformed session cookies: 401 {error}, never a 500', async (t) => {
  const name = (await signIn(server, G, 'u1')).cookie.split('=')[0];
  for (const value of ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'x', '%E0%A4%A', '%', '"quoted"']) {
    assertError(t, await api('GET', '/me/preferences', { session: { cookie: `${name}=${value}`, guildId: G } }), 401, `cookie value ${value}`);
  }
  assertError(t, await api('GET', '/me/preferences', { session: { cookie: 'unrelated=1', guildId: G } }), 401, 'no session cookie');
  assertError(t, await api('GET', '/me/preferences', { session: { cookie: `${name}=nonsense` } }), 401, 'bad session, no x-guild-id: the session is judged first');
});

t.test('logout without a session, or with a malformed cookie, still answers 200 and clears the cookie', async (t) => {
  const plain = await api('POST', '/auth/logout', {});
  t.equal(plain.status, 200);
  t.match(plain.headers.get('set-cookie') ?? '', /max-age=0/i);
  const name = (await signIn(server, G, 'u1')).cookie.split('=')[0];
  const weird = await api('POST', '/auth/logout', { session: { cookie: `${name}=%E0%A4%A` } });
  t.equal(weird.status, 200, 'a malformed cookie is no server error');
});

t.test('a member of two guilds selects either with x-guild-id', async (t) => {
  const s = await signIn(server, G, 'multi');
  const inH = await api('POST', '/me/clock-in', { session: { cookie: s.cookie, guildId: H } });
  t.equal(inH.status, 200);
  t.match(inH.body, { userId: 'multi', nickname: 'Mia in H', badgeNumber: '07' }, 'H\'s personnel entry');
  const onDutyH = await api('GET', '/admin/on-duty', { key: keyH });
  t.same(onDutyH.body.people.map((p: any) => p.nickname), ['Mia in H']);
  const shiftsG = await server.sql`select count(*)::int as n from shifts where guild_id = ${G} and user_id = 'multi'`;
  t.equal(shiftsG[0].n, 0, 'no shift in G');
  const inG = await api('POST', '/me/clock-in', { session: { cookie: s.cookie, guildId: G } });
  t.match(inG.body, { nickname: 'Mia in G', badgeNumber: '05' });
  t.equal((await api('POST', '/me/clock-out', { session: { cookie: s.cookie, guildId: H } })).body.nickname, 'Mia in H');
  t.equal((await api('POST', '/me/clock-out', { session: { cookie: s.cookie, guildId: G } })).body.nickname, 'Mia in G');
});

t.test('behind https (PUBLIC_URL https://…) the cookie is Secure with the __Host- prefix', async (t) => {
  const https = await startTestServer(t, { PUBLIC_URL: 'https://dispatch.example' });
  await seedGuild(https.sql, G, [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' }]);
  const link = await createLoginLink(https.sql, https.url, G, 'u1');
  const res = await client(https)('GET', new URL(link).pathname);
  t.equal(res.status, 302);
  const c = parseSetCookie(res.headers.get('set-cookie') ?? '');
  t.match(c.name, /^__Host-/, '__Host- prefix');
  t.ok(c.attrs.includes('secure'), 'Secure');
  t.ok(c.attrs.includes('httponly') && c.attrs.includes('samesite=lax') && c.attrs.includes('path=/'));
  t.notOk(c.attrs.some((a) => a.startsWith('domain=')), 'no Domain (required by __Host-)');
  const session = { cookie: `${c.name}=${c.value}`, guildId: G };
  const put = await client(https)('PUT', '/me/preferences', { session, body: { prefs: { theme: 'dark' } }, headers: { origin: 'https://dispatch.example' } });
  t.equal(put.status, 200, 'the public origin counts as same-site');
  const out = await client(https)('POST', '/auth/logout', { session });
  t.ok(parseSetCookie(out.headers.get('set-cookie') ?? '').attrs.includes('secure'), 'the clearing cookie is Secure too');
});
