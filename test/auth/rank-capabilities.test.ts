import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Ranks of seedGuild: crew (timeclock.own.use), dispatch (+ timeclock.manage), none (nothing).
// This file adds `settings` (settings.manage only).
const G = '650000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'settings', name: 'Settings', position: 3, capabilities: ['settings.manage'] });
await server.sql`insert into people (guild_id, user_id, nickname, badge, rank_id, is_admin) values
  (${G}, 'crew', 'Cora Crew', '01', 'crew', false),
  (${G}, 'disp', 'Dana Dispatch', '02', 'dispatch', false),
  (${G}, 'guest', 'Gil Guest', '03', 'none', false),
  (${G}, 'boss', 'Bea Boss', '04', null, true),
  (${G}, 'norank', 'Nils Norank', '05', null, false),
  (${G}, 'setter', 'Sam Settings', '06', 'settings', false)`;
const key = await unscopedKey(server.sql, G, 'tool');

const as: Record<string, { cookie: string; guildId: string }> = {};
for (const user of ['crew', 'disp', 'guest', 'boss', 'norank', 'setter']) as[user] = await signIn(server, G, user);

const onDuty = async () => (await api('GET', '/admin/on-duty', { key })).body.people.map((p: any) => p.userId).sort();

t.test('/me/clock-in and /me/clock-out need timeclock.own.use (or admin)', async (t) => {
  for (const user of ['guest', 'norank', 'setter']) {
    assertError(t, await api('POST', '/me/clock-in', { session: as[user] }), 403, `${user} clock-in`);
    assertError(t, await api('POST', '/me/clock-out', { session: as[user] }), 403, `${user} clock-out`);
  }
  t.same(await onDuty(), [], 'nobody got clocked in');
  for (const user of ['crew', 'disp', 'boss']) {
    const res = await api('POST', '/me/clock-in', { session: as[user] });
    t.equal(res.status, 200, `${user} clocks in`);
    t.equal(res.body.userId, user);
  }
  t.same(await onDuty(), ['boss', 'crew', 'disp']);
  await api('POST', '/admin/clock-in', { key, body: { badge: 3 } });
  assertError(t, await api('POST', '/me/clock-out', { session: as.guest }), 403, 'guest cannot clock out even while on duty');
  for (const user of ['crew', 'disp', 'boss']) t.equal((await api('POST', '/me/clock-out', { session: as[user] })).status, 200, `${user} clocks out`);
  await api('POST', '/admin/clock-out', { key, body: { badge: 3 } });
});

t.test('badge routes with a session need timeclock.manage (or admin)', async (t) => {
  for (const user of ['crew', 'guest', 'norank', 'setter']) {
    assertError(t, await api('POST', '/admin/clock-in', { session: as[user], body: { badge: 5 } }), 403, `${user} clock-in`);
    assertError(t, await api('POST', '/admin/clock-out', { session: as[user], body: { badge: 5 } }), 403, `${user} clock-out`);
    assertError(t, await api('GET', '/admin/clock-status/05', { session: as[user] }), 403, `${user} clock-status`);
    assertError(t, await api('GET', '/admin/on-duty', { session: as[user] }), 403, `${user} on-duty`);
  }
  t.same(await onDuty(), [], 'nobody got clocked in');
  const byDispatch = await api('POST', '/admin/clock-in', { session: as.disp, body: { badge: 5 } });
  t.equal(byDispatch.status, 200, 'dispatch clocks in badge 05');
  t.equal(byDispatch.body.userId, 'norank');
  t.equal((await api('GET', '/admin/clock-status/5', { session: as.disp })).body.clockedIn, true);
  t.equal((await api('GET', '/admin/on-duty', { session: as.boss })).body.count, 1, 'admin reads on-duty');
  t.equal((await api('POST', '/admin/clock-out', { session: as.boss, body: { badge: 5 } })).status, 200, 'admin clocks out');
});

t.test('/admin/apikeys with a session needs settings.manage (or admin), and a scope needs what its routes need', async (t) => {
  for (const user of ['crew', 'disp', 'guest', 'norank']) {
    assertError(t, await api('GET', '/admin/apikeys', { session: as[user] }), 403, `${user} list`);
    assertError(t, await api('POST', '/admin/apikeys', { session: as[user], body: { name: 'x', scopes: ['calls:read'] } }), 403, `${user} create`);
  }
  // Issue 27: a key does no more than its maker. Sam holds settings.manage only, so employees:read
  // (personal.sheet.view, timeclock.manage) is refused, capabilities:read (the self-check) is not.
  assertError(t, await api('POST', '/admin/apikeys', { session: as.setter, body: { name: 'by setter', scopes: ['employees:read'] } }), 403,
    'a scope beyond the maker', /employees:read needs the capability personal\.sheet\.view and timeclock\.manage/);
  const created = await api('POST', '/admin/apikeys', { session: as.setter, body: { name: 'by setter', scopes: ['capabilities:read'] } });
  t.equal(created.status, 200, 'settings.manage creates');
  t.match(created.body.key, /^stmp_sc_/);
  const works = () => api('GET', '/integrations/ingame/self-check', { key: created.body.key });
  t.equal((await works()).status, 200, 'the new key works');
  for (const user of ['crew', 'disp']) {
    assertError(t, await api('DELETE', `/admin/apikeys/${created.body.id}`, { session: as[user] }), 403, `${user} delete`);
  }
  t.equal((await works()).status, 200, 'the key survived');
  const list = await api('GET', '/admin/apikeys', { session: as.boss });
  t.equal(list.status, 200, 'admin lists');
  t.same(list.body.keys.map((k: any) => k.name).sort(), ['by setter', 'tool']);
  t.notOk(list.body.keys.some((k: any) => 'key' in k), 'no secrets in the list');
  t.equal((await api('DELETE', `/admin/apikeys/${created.body.id}`, { session: as.setter })).status, 200, 'settings.manage deletes');
  assertError(t, await works(), 401, 'revoked');
});

t.test('PATCH /admin/modules with a session needs settings.manage (or admin)', async (t) => {
  for (const user of ['crew', 'disp', 'guest']) {
    assertError(t, await api('PATCH', '/admin/modules', { session: as[user], body: { modules: { stats: false } } }), 403, user);
  }
  t.equal((await api('GET', `/branding/${G}`)).body.modules.stats, true, 'unchanged');
  t.equal((await api('PATCH', '/admin/modules', { session: as.setter, body: { modules: { stats: false } } })).status, 200);
  t.equal((await api('GET', `/branding/${G}`)).body.modules.stats, false);
  t.equal((await api('PATCH', '/admin/modules', { session: as.boss, body: { modules: { stats: true } } })).status, 200);
});

t.test('/me/preferences is open to every member, whatever the rank', async (t) => {
  for (const user of ['guest', 'norank', 'crew', 'setter']) {
    t.equal((await api('GET', '/me/preferences', { session: as[user] })).status, 200, `${user} reads`);
    t.equal((await api('PUT', '/me/preferences', { session: as[user], body: { prefs: { alarmVolume: 5 } } })).status, 200, `${user} writes`);
  }
});

t.test('the map (issue 31): GET /map and /map/postals need dispatch.view; GET/PUT /admin/map and PUT /admin/map/postals settings.manage (or admin)', async (t) => {
  for (const user of ['crew', 'disp', 'guest', 'norank', 'setter']) {
    assertError(t, await api('GET', '/map', { session: as[user] }), 403, `${user} GET /map`);
    assertError(t, await api('GET', '/map/postals', { session: as[user] }), 403, `${user} GET /map/postals`);
  }
  for (const user of ['crew', 'disp', 'guest', 'norank']) {
    assertError(t, await api('GET', '/admin/map', { session: as[user] }), 403, `${user} GET /admin/map`);
    assertError(t, await api('PUT', '/admin/map', { session: as[user], body: { staleAfterSeconds: 30 } }), 403, `${user} PUT /admin/map`);
    assertError(t, await api('PUT', '/admin/map/postals', { session: as[user], body: { postals: [] } }), 403, `${user} PUT /admin/map/postals`);
  }
  t.equal((await api('PUT', '/admin/map', { session: as.setter, body: { staleAfterSeconds: 30 } })).status, 200, 'settings.manage writes');
  t.equal((await api('PUT', '/admin/map/postals', { session: as.setter, body: { postals: [{ code: '1', x: 0, y: 0 }] } })).status, 200);
  t.match((await api('GET', '/admin/map', { session: as.setter })).body, { image: null, staleAfterSeconds: 30, postals: 1 }, 'settings.manage reads what it may change, without dispatch.view');
  t.match((await api('GET', '/map', { session: as.boss })).body, { staleAfterSeconds: 30, postals: 1 }, 'admin reads');
  t.same((await api('GET', '/admin/map', { session: as.boss })).body, (await api('GET', '/map', { session: as.boss })).body, 'GET /admin/map answers as GET /map');
  t.equal((await api('GET', '/map', { key })).status, 200, 'the unscoped key reads');
});
