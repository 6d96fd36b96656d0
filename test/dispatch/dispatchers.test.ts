import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { auditRows, dbSnapshot, seedWorld, sessions, topicsSince } from '../units/world.ts';

const G = '650000000000000001';
const server = await startTestServer(t);
const api = client(server);
const crowd = Array.from({ length: 21 }, (_, i) => ({ userId: `p${i + 10}`, nickname: `Person ${i + 10}`, badge: i + 10, rank: 'crew' }));
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'crew2', nickname: 'Cem', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
  ...crowd,
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { crew: 'crew1', crew2: 'crew2', leit: 'leit1', viewer: 'view1' });
const clockIn = (badge: number) => api('POST', '/admin/clock-in', { key, body: { badge } });
const clockOut = (badge: number) => api('POST', '/admin/clock-out', { key, body: { badge } });
// Paths starting with /dispatch are sent to the root by the test client (the board lives at /dispatch), so GET /dispatchers is written in full.
const listed = async () => (await api('GET', '/api/v1/dispatchers', { key })).body.slots.map((x: any) => [x.slot, x.userId]);

t.test('PUT /me/dispatcher needs the caller on duty', async (t) => {
  assertError(t, await api('PUT', '/me/dispatcher', { session: s.crew }), 409, 'off duty', /not clocked in/);
  t.same(await listed(), []);
});

t.test('PUT /me/dispatcher: the first free slot, audited, topics dispatchers and access', async (t) => {
  await clockIn(1);
  const board = openBoard(server.url, { apiKey: key, topics: ['dispatchers', 'overview'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const e0 = server.events.length;
  const res = await api('PUT', '/me/dispatcher', { session: s.crew });
  t.equal(res.status, 200);
  t.match(res.body, { slot: 1, userId: 'crew1', nickname: 'Cora', replaced: null, movedFrom: [] });
  t.ok(Date.parse(res.body.since) > 0);
  const [topics] = topicsSince(server.events, G, e0);
  t.ok(topics.includes('dispatchers') && topics.includes('access'), 'topics dispatchers and access');
  t.same(topics, ['access', 'dispatchers', 'overview'], 'and the overview counter');
  await board.until(() => '1' in board.state.topics.dispatchers!);
  t.match(board.state.topics.dispatchers!['1'], { slot: 1, userId: 'crew1', nickname: 'Cora', since: Date.parse(res.body.since) });
  t.equal(board.state.topics.overview!.dispatchers, 1);
  const [audit] = await auditRows(server.sql, G, 'dispatchers.self_set');
  t.match(audit, { actor_kind: 'session', actor_id: 'crew1', data: { slot: 1, userId: 'crew1' } });

  const again = await api('PUT', '/me/dispatcher', { session: s.crew, body: {} });
  t.match(again.body, { slot: 1, since: res.body.since }, 'asking again keeps your slot');
  t.equal((await auditRows(server.sql, G, 'dispatchers.self_set')).length, 1, 'and changes nothing');

  await clockIn(2);
  t.match((await api('PUT', '/me/dispatcher', { session: s.crew2 })).body, { slot: 2 }, 'next free slot');
  assertError(t, await api('PUT', '/me/dispatcher', { session: s.crew2, body: { slot: 1 } }), 409, 'a slot held by someone else', /taken by Cora/);
  const moved = await api('PUT', '/me/dispatcher', { session: s.crew2, body: { slot: 7 } });
  t.match(moved.body, { slot: 7, userId: 'crew2', movedFrom: [2] }, 'a person holds one slot: asking for another moves them');
  await board.until(() => '7' in board.state.topics.dispatchers! && !('2' in board.state.topics.dispatchers!));
  t.equal(board.state.topics.overview!.dispatchers, 2);
  t.same(await listed(), [[1, 'crew1'], [7, 'crew2']]);
  t.match((await api('PUT', '/me/dispatcher', { session: s.crew })).body, { slot: 1 });
  t.same(board.state.topics.dispatchers, (await dbSnapshot(server.deps.db, G)).dispatchers, 'board equals a fresh load');
});

t.test('slot boundaries and bodies', async (t) => {
  for (const slot of [0, 21, -1, 1.5, '3', null, true]) {
    assertError(t, await api('PUT', '/me/dispatcher', { session: s.crew, body: { slot } }), 400, `self slot ${JSON.stringify(slot)}`);
  }
  assertError(t, await api('PUT', '/me/dispatcher', { session: s.crew, body: { userId: 'crew2' } }), 400, 'no userId on the self route');
  for (const slot of ['0', '21', '-1', 'abc', '1.5', '1e1', '%201', '0x1']) {
    assertError(t, await api('PUT', `/admin/dispatchers/${slot}`, { key, body: { userId: 'crew1' } }), 400, `admin slot ${slot}`);
    assertError(t, await api('DELETE', `/admin/dispatchers/${slot}`, { key }), 400, `clear slot ${slot}`);
  }
  t.match((await api('PUT', '/admin/dispatchers/20', { key, body: { userId: 'crew1' } })).body, { slot: 20, movedFrom: [1] }, 'slot 20 exists');
  t.match((await api('PUT', '/admin/dispatchers/01', { key, body: { userId: 'crew1' } })).body, { slot: 1, movedFrom: [20] }, 'slot 1 (as "01")');
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: {} }), 400, 'userId missing');
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: { userId: 'crew1', slot: 3 } }), 400, 'slot repeated in the body');
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: { userId: 'crew1', since: 1 } }), 400, 'server-owned since');
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: { userId: 'bad id' } }), 400, 'malformed userId');
});

t.test('admin set and clear: replace, 404 free slot, off duty 409, unknown person 404', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['dispatchers', 'overview'] });
  t.teardown(board.close);
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: { userId: 'view1' } }), 409, 'off duty', /Vera is not clocked in/);
  assertError(t, await api('PUT', '/admin/dispatchers/3', { key, body: { userId: 'ghost' } }), 404, 'unknown person');
  const replaced = await api('PUT', '/admin/dispatchers/7', { session: s.leit, body: { userId: 'crew1' } });
  t.match(replaced.body, { slot: 7, userId: 'crew1', replaced: 'crew2', movedFrom: [1] }, 'an admin may take a slot from its holder');
  t.same(await listed(), [[7, 'crew1']]);
  await board.until(() => board.state.topics.overview?.dispatchers === 1 && (board.state.topics.dispatchers!['7'] as any)?.userId === 'crew1');
  t.match((await auditRows(server.sql, G, 'dispatchers.set')).at(-1), { actor_id: 'leit1', data: { slot: 7, userId: 'crew1', replaced: 'crew2' } });

  assertError(t, await api('DELETE', '/admin/dispatchers/3', { key }), 404, 'free slot');
  t.same((await api('DELETE', '/admin/dispatchers/7', { session: s.leit })).body, { userId: 'crew1', cleared: [7] });
  await board.until(() => board.state.topics.overview!.dispatchers === 0);
  t.same(await listed(), []);
  t.match((await auditRows(server.sql, G, 'dispatchers.clear'))[0], { data: { slot: 7, userId: 'crew1' } });

  assertError(t, await api('PUT', '/admin/dispatchers/3', { session: s.viewer, body: { userId: 'crew1' } }), 403, 'viewer lacks dispatch.manage');
  assertError(t, await api('DELETE', '/admin/dispatchers/3', { session: s.crew }), 403, 'crew lacks dispatch.manage');
  assertError(t, await api('GET', '/api/v1/dispatchers', { session: s.crew }), 403, 'crew lacks dispatch.view');
  t.equal((await api('GET', '/api/v1/dispatchers', { session: s.viewer })).status, 200, 'viewer reads');
  for (const scope of specScopes) {
    const k = await scopedKey(server.sql, G, [scope]);
    assertError(t, await api('GET', '/api/v1/dispatchers', { key: k }), 403, `GET with scope ${scope}`);
    assertError(t, await api('PUT', '/admin/dispatchers/3', { key: k, body: { userId: 'crew1' } }), 403, `PUT with scope ${scope}`);
  }
  assertError(t, await api('PUT', '/me/dispatcher', { key }), 403, 'API key on a session route');
  assertError(t, await api('PUT', '/me/dispatcher', { session: s.viewer }), 403, 'rank without timeclock.own.use');
});

t.test('DELETE /me/dispatcher', async (t) => {
  await api('PUT', '/me/dispatcher', { session: s.crew, body: { slot: 4 } });
  t.same((await api('DELETE', '/me/dispatcher', { session: s.crew })).body, { userId: 'crew1', cleared: [4] });
  assertError(t, await api('DELETE', '/me/dispatcher', { session: s.crew }), 409, 'holds none');
  t.equal((await auditRows(server.sql, G, 'dispatchers.self_clear')).length, 1);
});

t.test('all 20 slots taken: 409', async (t) => {
  const crowdSessions = await sessions(server, G, Object.fromEntries(crowd.map((p) => [p.userId, p.userId])) as Record<string, string>);
  for (const p of crowd) await clockIn(p.badge);
  const res = await Promise.all(crowd.map((p) => api('PUT', '/me/dispatcher', { session: crowdSessions[p.userId] })));
  const ok = res.filter((r) => r.status === 200);
  t.equal(ok.length, 20, '20 concurrent takers get a slot');
  t.same(ok.map((r) => r.body.slot).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1), 'each a different one');
  const refused = res.filter((r) => r.status !== 200);
  t.equal(refused.length, 1);
  assertError(t, refused[0], 409, 'the 21st', /all 20 dispatcher slots are taken/);
  const list = await api('GET', '/api/v1/dispatchers', { key });
  t.equal(list.body.maxSlots, 20);
  t.equal(list.body.slots.length, 20);
  const snap = await dbSnapshot(server.deps.db, G);
  t.equal(snap.overview.dispatchers, 20);
});

t.test('clock-out (real routes) frees the slot, visible on a board', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['dispatchers', 'overview', 'onDuty'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal(board.state.topics.overview!.dispatchers, 20);
  const holder = (await api('GET', '/api/v1/dispatchers', { key })).body.slots[0];
  const badge = crowd.find((p) => p.userId === holder.userId)!.badge;
  const out = await clockOut(badge);
  t.same(out.body.clearedDispatcherSlots, [holder.slot]);
  await board.until(() => !(String(holder.slot) in board.state.topics.dispatchers!));
  t.equal(board.state.topics.overview!.dispatchers, 19);
  for (const p of crowd) if (p.badge !== badge) await clockOut(p.badge).catch(() => {});
  await board.until(() => board.state.topics.overview!.dispatchers === 0);
  t.same(board.state.topics.dispatchers, {});
  const snap = await dbSnapshot(server.deps.db, G);
  for (const topic of ['dispatchers', 'overview', 'onDuty'] as const) t.same(board.state.topics[topic], snap[topic], `${topic} equals a fresh load`);
});
