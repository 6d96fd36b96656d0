import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { auditRows, dbSnapshot, seedWorld, sessions, topicsSince } from '../units/world.ts';

const G = '660000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'crew2', nickname: 'Cem', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { crew: 'crew1', crew2: 'crew2', leit: 'leit1', viewer: 'view1' });
const roster = async () => (await api('GET', '/standby', { key })).body.people.map((p: any) => p.userId);

t.test('PUT /me/standby puts the caller on the roster, live', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['standby', 'overview'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same(board.state.topics.standby, {});

  const e0 = server.events.length;
  const res = await api('PUT', '/me/standby', { session: s.crew });
  t.equal(res.status, 200);
  t.match(res.body, { userId: 'crew1', nickname: 'Cora' });
  t.ok(Date.parse(res.body.since) > 0);
  t.same(topicsSince(server.events, G, e0), [['overview', 'standby']]);
  await board.until(() => 'crew1' in board.state.topics.standby!);
  t.same(board.state.topics.standby!.crew1, { userId: 'crew1', nickname: 'Cora', since: Date.parse(res.body.since) });
  t.equal(board.state.topics.overview!.standby, 1);
  t.match((await auditRows(server.sql, G, 'standby.self_set'))[0], { actor_kind: 'session', actor_id: 'crew1' });

  const e1 = server.events.length;
  const again = await api('PUT', '/me/standby', { session: s.crew, body: {} });
  t.same(again.body, res.body, 'repeating it changes nothing');
  t.same(topicsSince(server.events, G, e1), [], 'and emits nothing');

  await api('PUT', '/me/standby', { session: s.crew2 });
  t.same(await roster(), ['crew1', 'crew2'], 'in the order they joined');
  await board.until(() => board.state.topics.overview!.standby === 2);
  t.same(board.state.topics.standby, (await dbSnapshot(server.deps.db, G)).standby, 'board equals a fresh load');
});

t.test('stand-by is independent of the time clock', async (t) => {
  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  t.same(await roster(), ['crew1', 'crew2'], 'clocking in keeps you on stand-by');
  await api('POST', '/me/clock-out', { session: s.crew });
  t.same(await roster(), ['crew1', 'crew2'], 'clocking out too');
  t.equal((await api('PUT', '/me/standby', { session: s.leit })).status, 200, 'off duty may go on stand-by');
});

t.test('DELETE /me/standby and DELETE /standby/{userId}', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['standby', 'overview'] });
  t.teardown(board.close);
  await board.until(() => board.state.topics.overview?.standby === 3);
  t.same((await api('DELETE', '/me/standby', { session: s.crew })).body, { removed: true, userId: 'crew1' });
  assertError(t, await api('DELETE', '/me/standby', { session: s.crew }), 409, 'not on stand-by');
  await board.until(() => !('crew1' in board.state.topics.standby!));
  t.equal(board.state.topics.overview!.standby, 2);

  t.same((await api('DELETE', '/standby/crew2', { session: s.leit })).body, { removed: true, userId: 'crew2' });
  assertError(t, await api('DELETE', '/standby/crew2', { key }), 404, 'not on stand-by', /not on stand-by/);
  assertError(t, await api('DELETE', '/standby/ghost', { key }), 404, 'unknown person');
  assertError(t, await api('DELETE', '/standby/bad%20id', { key }), 400, 'malformed user id');
  assertError(t, await api('DELETE', '/standby/leit1', { session: s.viewer }), 403, 'viewer lacks dispatch.manage');
  assertError(t, await api('DELETE', '/standby/leit1', { session: s.crew }), 403, 'crew');
  await board.until(() => board.state.topics.overview!.standby === 1);
  t.same(await roster(), ['leit1']);
  t.match((await auditRows(server.sql, G, 'standby.remove'))[0], { actor_id: 'leit1', data: { userId: 'crew2' } });
  t.equal((await auditRows(server.sql, G, 'standby.self_clear')).length, 1);
  const snap = await dbSnapshot(server.deps.db, G);
  t.same(board.state.topics.standby, snap.standby);
  t.same(board.state.topics.overview, snap.overview);
});

t.test('access and bodies', async (t) => {
  t.equal((await api('GET', '/standby', { session: s.viewer })).status, 200, 'dispatch.view reads');
  assertError(t, await api('GET', '/standby', { session: s.crew }), 403, 'crew lacks dispatch.view');
  for (const scope of specScopes) {
    const k = await scopedKey(server.sql, G, [scope]);
    assertError(t, await api('GET', '/standby', { key: k }), 403, `GET with scope ${scope}`);
    assertError(t, await api('DELETE', '/standby/leit1', { key: k }), 403, `DELETE with scope ${scope}`);
  }
  assertError(t, await api('PUT', '/me/standby', { key }), 403, 'API key on a session route');
  assertError(t, await api('PUT', '/me/standby', { session: s.viewer }), 403, 'rank without timeclock.own.use');
  assertError(t, await api('PUT', '/me/standby', { session: s.crew, body: { userId: 'crew2' } }), 400, 'no userId on the self route');
  assertError(t, await api('PUT', '/me/standby', { session: s.crew, body: { since: 0 } }), 400, 'server-owned since');
  assertError(t, await api('PUT', '/me/standby', { session: s.crew, raw: '[]' }), 400, 'array body');
  assertError(t, await api('GET', '/standby?userId=crew1', { key }), 400, 'no query parameters');
});

t.test('concurrent stand-by writes of one person stay consistent', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['standby', 'overview'] });
  t.teardown(board.close);
  for (let round = 0; round < 3; round++) {
    const res = await Promise.all([1, 2, 3].map(() => api('PUT', '/me/standby', { session: s.crew2 })));
    t.same(res.map((r) => r.status), [200, 200, 200]);
    t.equal(new Set(res.map((r) => r.body.since)).size, 1, 'one entry, one since');
    const del = await Promise.all([1, 2].map(() => api('DELETE', '/me/standby', { session: s.crew2 })));
    t.same(del.map((r) => r.status).sort(), [200, 409]);
  }
  const head = (await server.sql`select seq::int as seq from event_streams where guild_id = ${G}`)[0].seq;
  await board.until(() => board.state.seq === head);
  const snap = await dbSnapshot(server.deps.db, G);
  t.same(board.state.topics.standby, snap.standby);
  t.same(board.state.topics.overview, snap.overview);
});
