import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';

// Game routes: who a player is (employees:read) and in-game ranks (ranks:personal.ranks_set).
const G = '740000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'viewer', name: 'Viewer', position: 3, capabilities: ['personal.sheet.view'] });
await insertRank(server.sql, G, { id: 'editor', name: 'Editor', position: 4, capabilities: ['personal.sheet.view', 'personal.sheet.edit', 'timeclock.own.use'] });
for (const p of [
  { userId: '300000000000000001', nickname: 'Gina Game', badge: '07', rankId: 'crew', isAdmin: false },
  { userId: 'nobadge', nickname: 'Nora No-Badge', badge: null, rankId: null, isAdmin: false },
  { userId: 'vi', nickname: 'Vic Viewer', badge: '08', rankId: 'viewer', isAdmin: false },
  { userId: 'ed', nickname: 'Eda Editor', badge: '09', rankId: 'editor', isAdmin: false },
  { userId: 'cr', nickname: 'Cora Crew', badge: '10', rankId: 'crew', isAdmin: false },
]) await insertPerson(server.sql, G, p);
await server.sql`update people set org_unit = 'Wache Nord' where guild_id = ${G} and user_id = '300000000000000001'`;
const key = await unscopedKey(server.sql, G);
const readKey = await scopedKey(server.sql, G, ['employees:read'], 'game lookup');
const rankKey = await scopedKey(server.sql, G, ['ranks:personal.ranks_set'], 'game ranks');
const as = { vi: await signIn(server, G, 'vi'), ed: await signIn(server, G, 'ed'), cr: await signIn(server, G, 'cr') };
const historyOf = async (userId: string) => (await api('GET', `/personnel/${userId}/history`, { key })).body.entries;

t.test('look-up by badge: 7, "7", "07" and "007" are one badge', async (t) => {
  for (const badge of ['7', '07', '007']) {
    const res = await api('GET', `/integrations/ingame/employees/${badge}`, { key: readKey });
    t.equal(res.status, 200, `badge ${badge}`);
    t.same(res.body, { userId: '300000000000000001', nickname: 'Gina Game', badgeNumber: '07', rankId: 'crew', rank: 'Crew', orgUnit: 'Wache Nord', onDuty: false });
  }
  await api('POST', '/admin/clock-in', { key, body: { badge: 7 } });
  t.equal((await api('GET', '/integrations/ingame/employees/7', { key: readKey })).body.onDuty, true, 'onDuty follows the clock');
  await api('POST', '/admin/clock-out', { key, body: { badge: 7 } });
  assertError(t, await api('GET', '/integrations/ingame/employees/99', { key: readKey }), 404, 'unknown badge', /badge 99/);
  for (const bad of ['x', '-1', '1.5', '1234567', '%20']) assertError(t, await api('GET', `/integrations/ingame/employees/${bad}`, { key: readKey }), 400, `badge ${bad}`);
});

t.test('look-up by user id', async (t) => {
  const res = await api('GET', '/integrations/ingame/employees/user/300000000000000001', { key: readKey });
  t.equal(res.body.badgeNumber, '07');
  const none = await api('GET', '/integrations/ingame/employees/user/nobadge', { key: readKey });
  t.same(none.body, { userId: 'nobadge', nickname: 'Nora No-Badge', badgeNumber: null, rankId: null, rank: null, orgUnit: null, onDuty: false });
  assertError(t, await api('GET', '/integrations/ingame/employees/user/ghost', { key: readKey }), 404, 'unknown user', /ghost/);
  assertError(t, await api('GET', `/integrations/ingame/employees/user/${'1'.repeat(33)}`, { key: readKey }), 400, 'user id of 33');
});

t.test('PUT /integrations/ingame/ranks: by id or name, history, audit, idempotent', async (t) => {
  const res = await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: '7', rank: 'dispatch' } });
  t.equal(res.status, 200);
  t.same(res.body, { userId: '300000000000000001', nickname: 'Gina Game', badgeNumber: '07', rankId: 'dispatch', rank: 'Dispatch', previousRankId: 'crew', previousRank: 'Crew', changed: true });
  t.match((await historyOf('300000000000000001'))[0], { kind: 'promotion', rankChange: { from: 'Crew', to: 'Dispatch' }, by: { kind: 'key', name: 'game ranks' } });
  const [audit] = await server.sql`select actor_kind, data from audit_log where guild_id = ${G} and action = 'personal.ranks_set'`;
  t.match(audit, { actor_kind: 'key', data: { userId: '300000000000000001', changes: { rankId: { from: 'crew', to: 'dispatch' } } } });

  const byName = await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: 7, rank: 'CREW' } });
  t.match(byName.body, { rankId: 'crew', previousRankId: 'dispatch', changed: true });
  t.equal((await historyOf('300000000000000001'))[0].kind, 'demotion');

  const entries = (await historyOf('300000000000000001')).length;
  const same = await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: 7, rank: 'crew' } });
  t.match(same.body, { rankId: 'crew', previousRankId: 'crew', changed: false });
  t.equal((await historyOf('300000000000000001')).length, entries, 'the same rank writes nothing');

  const cleared = await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: 7, rank: null } });
  t.match(cleared.body, { rankId: null, rank: null, previousRank: 'Crew', changed: true });
  await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: 7, rank: 'crew' } });
});

t.test('PUT /integrations/ingame/ranks: 404s and validation', async (t) => {
  const put = (body: unknown) => api('PUT', '/integrations/ingame/ranks', { key: rankKey, body });
  assertError(t, await put({ badge: 99, rank: 'crew' }), 404, 'unknown badge', /badge 99/);
  assertError(t, await put({ badge: 7, rank: 'General' }), 404, 'unknown rank', /General/);
  assertError(t, await put({ badge: 7 }), 400, 'missing rank', /rank/);
  assertError(t, await put({ rank: 'crew' }), 400, 'missing badge', /badge/);
  assertError(t, await put({ badge: 'x', rank: 'crew' }), 400, 'bad badge');
  assertError(t, await put({ badge: 7, rank: '' }), 400, 'empty rank');
  assertError(t, await put({ badge: 7, rank: 'r'.repeat(65) }), 400, 'rank of 65');
  for (const field of ['userId', 'guildId', 'previousRank', 'changed']) assertError(t, await put({ badge: 7, rank: 'crew', [field]: 'x' }), 400, field, new RegExp(`unknown field ${field}`));
  t.equal((await api('GET', '/integrations/ingame/employees/7', { key: readKey })).body.rankId, 'crew', 'unchanged');
});

t.test('scopes: each game route passes with its scope and is 403 with any other', async (t) => {
  const routes = [
    { method: 'GET', path: '/integrations/ingame/employees/7', scope: 'employees:read' },
    { method: 'GET', path: '/integrations/ingame/employees/user/nobadge', scope: 'employees:read' },
    { method: 'PUT', path: '/integrations/ingame/ranks', scope: 'ranks:personal.ranks_set', body: { badge: 7, rank: 'crew' } },
  ];
  for (const r of routes) {
    for (const scope of specScopes) {
      const res = await api(r.method, r.path, { key: await scopedKey(server.sql, G, [scope]), body: r.body });
      if (scope === r.scope) t.equal(res.status, 200, `${r.method} ${r.path} with ${scope}`);
      else assertError(t, res, 403, `${r.method} ${r.path} with ${scope}`, new RegExp(r.scope.replace('.', '\\.')));
    }
    t.equal((await api(r.method, r.path, { key: await scopedKey(server.sql, G, ['calls:read', r.scope]) , body: r.body })).status, 200, 'a key with several scopes incl. the right one');
    t.equal((await api(r.method, r.path, { key, body: r.body })).status, 200, 'unscoped key');
  }
});

t.test('sessions: look-up needs personal.sheet.view, setting ranks personal.sheet.edit', async (t) => {
  assertError(t, await api('GET', '/integrations/ingame/employees/7', { session: as.cr }), 403, 'crew look-up');
  t.equal((await api('GET', '/integrations/ingame/employees/7', { session: as.vi })).status, 200, 'viewer look-up');
  assertError(t, await api('PUT', '/integrations/ingame/ranks', { session: as.vi, body: { badge: 10, rank: 'none' } }), 403, 'viewer sets a rank');
  t.equal((await api('PUT', '/integrations/ingame/ranks', { session: as.ed, body: { badge: 10, rank: 'none' } })).status, 200, 'editor: crew -> Guest');
  assertError(t, await api('PUT', '/integrations/ingame/ranks', { session: as.ed, body: { badge: 10, rank: 'dispatch' } }), 403, 'editor cannot grant timeclock.manage', /timeclock\.manage/);
});
