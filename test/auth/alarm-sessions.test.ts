import t from 'tap';
import { createHash } from 'node:crypto';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn } from '../helpers/fixtures.ts';
import { until, wsWithCookie } from '../helpers/live.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { createLiveClient, watchAlarm } from '../../client-sdk/live.ts';

const G = '650000000000000001';
const server = await startTestServer(t, { WS_REVALIDATE_MS: '200' });
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'boss', nickname: 'Berta Boss', badge: '2', admin: true },
]);

const loginPath = async (userId = 'u1') => new URL(await createLoginLink(server.sql, server.url, G, userId)).pathname;
const hashOf = (cookie: string) => createHash('sha256').update(cookie.slice(cookie.indexOf('=') + 1)).digest();
const alarmLogin = (path: string, o: { body?: unknown; contentType?: string | null; headers?: Record<string, string> } = {}) =>
  api('POST', path, { body: o.body ?? { device: 'alarm' }, contentType: o.contentType, headers: o.headers });

async function alarmSession(userId = 'u1') {
  const res = await alarmLogin(await loginPath(userId));
  return { cookie: res.headers.get('set-cookie')!.split(';')[0], guildId: G };
}

async function row(cookie: string) {
  const [r] = await server.sql`select kind, expires_at = 'infinity' as endless, case when expires_at = 'infinity' then null else extract(epoch from expires_at - created_at)::int end as lifetime_s, last_seen_at
    from sessions where token_hash = ${hashOf(cookie)}`;
  return r;
}

t.test('POST of a login link with {"device":"alarm"}: an alarm session as an HttpOnly cookie, JSON answer, no absolute end', async (t) => {
  const res = await alarmLogin(await loginPath());
  t.equal(res.status, 200);
  t.same(res.body, { userId: 'u1', guildId: G, kind: 'alarm' });
  t.equal(res.headers.get('cache-control'), 'no-store');
  const [pair, ...attrs] = res.headers.get('set-cookie')!.split(';').map((s) => s.trim().toLowerCase());
  t.match(pair, /^dt_session=[a-z0-9_-]{22,}$/);
  t.ok(attrs.includes('httponly') && attrs.includes('samesite=lax') && attrs.includes('path=/'), 'HttpOnly, SameSite=Lax, Path=/');
  t.notOk(attrs.some((a) => a.startsWith('max-age') || a.startsWith('expires')), 'no end in the cookie either');
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  t.match(await row(cookie), { kind: 'alarm', endless: true });
  t.equal((await api('GET', '/me/alarm', { session: { cookie, guildId: G } })).status, 200, 'signs in');

  const browser = await signIn(server, G, 'u1');
  const b = await row(browser.cookie);
  t.match(b, { kind: 'browser', endless: false }, 'a browser login (GET) is unchanged');
  t.equal(b.lifetime_s, 14 * 86400, 'and ends 14 days after sign-in');
});

t.test('an alarm session can only watch alarms, even a guild admin\'s: 403 elsewhere on both doors', async (t) => {
  const alarm = await alarmSession('boss');
  t.equal((await api('GET', '/me/alarm', { session: alarm })).status, 200);
  t.equal((await api('GET', '/auth/session', { headers: { cookie: alarm.cookie } })).status, 200, 'GET /auth/session (its heartbeat) too');
  const only = /an alarm session \(dispatch-terminal alarm\) can only watch alarms/;
  assertError(t, await api('GET', '/me/preferences', { session: alarm }), 403, 'GET /me/preferences', only);
  assertError(t, await api('POST', '/me/clock-in', { session: alarm }), 403, 'POST /me/clock-in', only);
  assertError(t, await api('GET', '/admin/on-duty', { session: alarm }), 403, 'an admin route', only);
  const errors: unknown[] = [];
  const states: unknown[] = [];
  const board = createLiveClient({ url: server.url, guildId: G, WebSocket: wsWithCookie(alarm.cookie) });
  t.teardown(board.close);
  board.trpc.live.watch.subscribe({ topics: ['units'] }, { onData: (d) => states.push(d), onError: (e) => errors.push(e) });
  await until(() => errors.length === 1, 'live.watch refused');
  t.match((errors[0] as Error).message, only);
  t.same(states, [], 'no board data');
  const browser = await signIn(server, G, 'boss');
  t.equal((await api('GET', '/admin/on-duty', { session: browser })).status, 200, 'the same user\'s browser session is not restricted');
});

t.test('an alarm session outlives the absolute end of a browser session, but not the idle limit', async (t) => {
  const alarm = await alarmSession();
  const browser = await signIn(server, G, 'u1');
  // Both signed in 30 days ago and used a minute ago: a browser session would have ended after 14 days.
  for (const s of [alarm, browser]) {
    await server.sql`update sessions set created_at = now() - interval '30 days', last_seen_at = now() - interval '1 minute',
      expires_at = case when kind = 'alarm' then expires_at else now() - interval '16 days' end where token_hash = ${hashOf(s.cookie)}`;
  }
  t.equal((await api('GET', '/auth/session', { headers: { cookie: alarm.cookie } })).status, 200, 'alarm session: alive after 30 days');
  t.equal((await api('GET', '/me/alarm', { session: alarm })).status, 200);
  assertError(t, await api('GET', '/auth/session', { headers: { cookie: browser.cookie } }), 401, 'browser session: ended');

  await server.sql`update sessions set last_seen_at = now() - interval '25 hours' where token_hash = ${hashOf(alarm.cookie)}`;
  assertError(t, await api('GET', '/auth/session', { headers: { cookie: alarm.cookie } }), 401, 'alarm session unused for 25 h');
});

t.test('an open alarm watch keeps its session in use', async (t) => {
  const alarm = await alarmSession();
  const states: unknown[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(alarm.cookie), onState: (s) => states.push(s) });
  t.teardown(w.close);
  await until(() => states.length === 1, 'the first alarm state');
  await server.sql`update sessions set last_seen_at = now() - interval '23 hours 59 minutes' where token_hash = ${hashOf(alarm.cookie)}`;
  const recent = async () => (await row(alarm.cookie)).last_seen_at > new Date(Date.now() - 60_000);
  const start = Date.now();
  while (!(await recent()) && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 50));
  t.ok(await recent(), 'the socket touched the session again');
});

t.test('the device login is refused without JSON, cross-site or with another body, and the link stays unused', async (t) => {
  const path = await loginPath();
  assertError(t, await alarmLogin(path, { contentType: 'text/plain' }), 415, 'text/plain');
  assertError(t, await alarmLogin(path, { headers: { origin: 'https://evil.example' } }), 403, 'cross-site Origin');
  assertError(t, await alarmLogin(path, { headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'Sec-Fetch-Site: cross-site');
  for (const body of [{}, { device: 'tablet' }, { device: 'alarm', name: 'x' }, [1]]) {
    assertError(t, await alarmLogin(path, { body }), 400, JSON.stringify(body));
  }
  t.equal((await alarmLogin(path)).status, 200, 'the link still signs in');
});

t.test('a used, expired or unknown link answers JSON 410/404 saying what to do, and makes no session', async (t) => {
  const path = await loginPath();
  await alarmLogin(path);
  const [before] = await server.sql`select count(*)::int as n from sessions`;
  assertError(t, await alarmLogin(path), 410, 'used', /used already: get a new one with: npx dispatch-terminal login-link --guild 650000000000000001 --user u1/);
  t.equal((await api('GET', path)).status, 410, 'a browser opening it sees the page as before');

  const expired = await loginPath();
  await server.sql`update login_tokens set expires_at = now() - interval '1 second' where token_hash = ${createHash('sha256').update(expired.split('/').pop()!).digest()}`;
  assertError(t, await alarmLogin(expired), 410, 'expired', /has expired/);
  assertError(t, await alarmLogin('/auth/login/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'unknown', /unknown login link/);
  assertError(t, await alarmLogin('/auth/login/x'), 404, 'malformed');
  const [after] = await server.sql`select count(*)::int as n from sessions`;
  t.equal(after.n, before.n, 'no session made');
});
