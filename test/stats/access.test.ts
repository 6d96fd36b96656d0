import t from 'tap';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

/** Who may read which statistics; module off; guild B never reads guild A. */
const server = await startTestServer(t);
const api = client(server);
for (const g of ['A', 'B']) {
  await seedGuild(server.sql, g, [
    { userId: 'crew', nickname: 'Crew', badge: '1', rank: 'crew' },
    { userId: 'boss', nickname: 'Boss', badge: '2', admin: true },
    { userId: 'stat', nickname: 'Stat', badge: '3', rank: 'stats' },
  ].map((p) => ({ ...p, rank: p.rank === 'stats' ? null : p.rank })));
  await insertRank(server.sql, g, { id: 'stats', name: 'Statistiker', position: 3, capabilities: ['timeclock.own.use', 'stats.leaderboard.view'] });
  await server.sql`update people set rank_id = 'stats' where guild_id = ${g} and user_id = 'stat'`;
}
await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values
  ('A', 'crew', now() - interval '3 hours', now() - interval '1 hour', 'CLOSED'),
  ('B', 'crew', now() - interval '7 hours', now() - interval '6 hours', 'CLOSED')`;
const keyA = await unscopedKey(server.sql, 'A');
const keyB = await unscopedKey(server.sql, 'B');
const scoped = await scopedKey(server.sql, 'A', ['timeclock:shift.ingame_clock', 'employees:read', 'calls:read']);
const crew = await signIn(server, 'A', 'crew');
const boss = await signIn(server, 'A', 'boss');
const stat = await signIn(server, 'A', 'stat');
// a member of A only, with the capability
await server.sql`insert into people (guild_id, user_id, nickname, badge, rank_id) values ('A', 'solo', 'Solo', '09', 'stats')`;
const solo = await signIn(server, 'A', 'solo');

const viewRoutes = ['/stats/leaderboard', '/stats/leaderboard/chart/bars.png', '/stats/heatmap', '/stats/staffing', '/stats/chart-links', '/stats/einsatz', '/stats/filters'];

t.test('leaderboard, heatmap and charts need stats.leaderboard.view; scoped keys never pass', async (t) => {
  for (const path of viewRoutes) {
    assertError(t, await api('GET', path, { session: crew }), 403, `crew ${path}`);
    assertError(t, await api('GET', path, { key: scoped }), 403, `scoped key ${path}`);
    t.equal((await api('GET', path, { session: stat })).status, 200, `capability ${path}`);
    t.equal((await api('GET', path, { session: boss })).status, 200, `admin ${path}`);
    t.equal((await api('GET', path, { key: keyA })).status, 200, `unscoped key ${path}`);
    assertError(t, await api('GET', path), 401, `no credential ${path}`);
  }
});

t.test('own statistics for everyone; other people\'s with the capability', async (t) => {
  t.equal((await api('GET', '/stats/user/crew', { session: crew })).status, 200, 'own');
  t.equal((await api('GET', '/stats/user/crew/chart/shifts.png', { session: crew })).status, 200, 'own chart');
  assertError(t, await api('GET', '/stats/user/boss', { session: crew }), 403, 'someone else', /stats\.leaderboard\.view/);
  assertError(t, await api('GET', '/stats/user/boss/chart/trend.png', { session: crew }), 403, 'someone else\'s chart');
  t.equal((await api('GET', '/stats/user/crew', { session: stat })).status, 200, 'with the capability');
  t.equal((await api('GET', '/stats/user/crew', { key: keyA })).status, 200, 'unscoped key');
  assertError(t, await api('GET', '/stats/user/crew', { key: scoped }), 403, 'scoped key');
  const me = await api('GET', '/me/stats?period=daily', { session: crew });
  t.equal(me.status, 200, me.text);
  t.equal(me.body.userId, 'crew');
  assertError(t, await api('GET', '/me/stats', { key: keyA }), 403, '/me with a key');
});

t.test('guild B\'s key never reads guild A', async (t) => {
  const a = await api('GET', '/stats/leaderboard?period=alltime', { key: keyA });
  const b = await api('GET', '/stats/leaderboard?period=alltime', { key: keyB });
  t.equal(a.body.totals.totalMs, 2 * 3_600_000);
  t.equal(b.body.totals.totalMs, 3_600_000, 'B sees only its own hour');
  const bUser = await api('GET', '/stats/user/crew?period=alltime', { key: keyB });
  t.equal(bUser.body.totals.totalMs, 3_600_000, 'the same user id in B is B\'s person');
  const imgA = await fetch(`${server.url}/api/v1/stats/leaderboard/chart/bars.png`, { headers: { authorization: `Bearer ${keyB}`, 'x-guild-id': 'A' } });
  t.equal(imgA.status, 200, 'a key\'s guild is its own; x-guild-id does not switch it');
  // a session of A only, naming guild B in the query of an <img src>, is refused
  const cross = await fetch(`${server.url}/api/v1/stats/leaderboard/chart/bars.png?guild=B`, { headers: { cookie: solo.cookie } });
  t.ok([401, 403].includes(cross.status), `session of A asking for B: ${cross.status}`);
  const own = await fetch(`${server.url}/api/v1/stats/leaderboard/chart/bars.png?guild=A`, { headers: { cookie: stat.cookie } });
  t.equal(own.status, 200, 'the board\'s <img src> with ?guild=');
  t.equal(own.headers.get('content-type'), 'image/png');
});

t.test('module stats off: every stats route and chart link 404', async (t) => {
  const link = await api('POST', '/stats/chart-links', { key: keyA, body: { chart: 'leaderboard/bars' } });
  t.equal(link.status, 200, link.text);
  t.equal((await fetch(link.body.url)).status, 200);
  t.equal((await api('PATCH', '/admin/modules', { key: keyA, body: { modules: { stats: false } } })).status, 200);
  for (const path of [...viewRoutes, '/stats/user/crew', '/stats/user/crew/chart/trend.png']) {
    assertError(t, await api('GET', path, { key: keyA }), 404, `off ${path}`, /module "stats" is switched off/);
  }
  assertError(t, await api('GET', '/me/stats', { session: crew }), 404, 'off /me/stats');
  const embed = await fetch(link.body.url);
  t.equal(embed.status, 404, 'the public link too');
  t.equal((await api('GET', '/stats/leaderboard', { key: keyB })).status, 200, 'guild B keeps its module');
  await api('PATCH', '/admin/modules', { key: keyA, body: { modules: { stats: true } } });
  t.equal((await fetch(link.body.url)).status, 200, 'back on');
});
