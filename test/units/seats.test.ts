import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, unscopedKey, scopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { auditRows, dbSnapshot, seedWorld, sessions, topicsSince } from './world.ts';

const G = '630000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'crew2', nickname: 'Cem', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
  { userId: 'guest', nickname: 'Gast', badge: 5, rank: 'none' },
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { crew: 'crew1', crew2: 'crew2', leit: 'leit1', viewer: 'view1', guest: 'guest' });
for (const callsign of ['RTW-1', 'RTW-2', 'NEF-1']) await api('POST', '/units', { key, body: { callsign } });
const clockIn = (badge: number) => api('POST', '/admin/clock-in', { key, body: { badge } });
const clockOut = (badge: number) => api('POST', '/admin/clock-out', { key, body: { badge } });
const membersOf = async (callsign: string) =>
  (await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === callsign).members.map((m: any) => m.userId);

t.test('PUT /me/unit needs the caller on duty', async (t) => {
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } }), 409, 'off duty', /not clocked in/);
  t.same(await membersOf('RTW-1'), []);
});

t.test('occupy, move (one unit at a time), leave — live on a board', async (t) => {
  await clockIn(1);
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const members = (c: string) => ((board.state.topics.units![c] as any).members as { id: string }[]).map((m) => m.id);

  const e0 = server.events.length;
  const join = await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'rtw-1' } });
  t.equal(join.status, 200);
  t.same(join.body, { userId: 'crew1', callsign: 'RTW-1', left: null });
  t.same(topicsSince(server.events, G, e0), [['units']]);
  await board.until(() => members('RTW-1').includes('crew1'));
  t.same((board.state.topics.units!['RTW-1'] as any).members, [{ id: 'crew1', nickname: 'Cora' }]);

  const again = await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });
  t.same(again.body, { userId: 'crew1', callsign: 'RTW-1', left: null }, 'joining the same unit again changes nothing');

  const move = await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'NEF-1' } });
  t.same(move.body, { userId: 'crew1', callsign: 'NEF-1', left: 'RTW-1' }, 'joining another unit moves you');
  await board.until(() => members('NEF-1').includes('crew1') && !members('RTW-1').includes('crew1'));
  t.same(await membersOf('RTW-1'), []);
  t.same(await membersOf('NEF-1'), ['crew1']);
  const seats = await server.sql`select count(*)::int as n from unit_members where guild_id = ${G} and user_id = 'crew1'`;
  t.equal(seats[0].n, 1, 'one seat in the database');

  const leave = await api('DELETE', '/me/unit', { session: s.crew });
  t.same(leave.body, { userId: 'crew1', callsign: null, left: 'NEF-1' });
  await board.until(() => members('NEF-1').length === 0);
  assertError(t, await api('DELETE', '/me/unit', { session: s.crew }), 409, 'not in a unit');
  t.same(board.state.topics.units, (await dbSnapshot(server.deps.db, G)).units, 'board equals a fresh load');
  t.same((await auditRows(server.sql, G, 'unit.join')).map((r) => r.data.callsign), ['RTW-1', 'NEF-1']);
  t.match((await auditRows(server.sql, G, 'unit.leave'))[0], { actor_id: 'crew1', data: { callsign: 'NEF-1' } });
});

t.test('PUT /me/unit: unknown unit, bad bodies, keys, capability', async (t) => {
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'XX-9' } }), 404, 'unknown unit');
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: {} }), 400, 'callsign missing');
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1', userId: 'crew2' } }), 400, 'no userId on the self route');
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'A'.repeat(25) } }), 400, 'callsign of 25');
  assertError(t, await api('DELETE', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } }), 409, 'DELETE bodies are not read');
  assertError(t, await api('PUT', '/me/unit', { key, body: { callsign: 'RTW-1' } }), 403, 'API key on a session route');
  assertError(t, await api('PUT', '/me/unit', { key: await scopedKey(server.sql, G, ['units:unit.ingame_status']), body: { callsign: 'RTW-1' } }), 403, 'scoped key');
  assertError(t, await api('PUT', '/me/unit', { session: s.guest, body: { callsign: 'RTW-1' } }), 403, 'rank without timeclock.own.use');
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, raw: '{"callsign":"RTW-1"}', contentType: 'text/plain' }), 415, 'session writes need JSON');
});

t.test('a dispatcher seats and unseats people on duty', async (t) => {
  assertError(t, await api('PUT', '/units/RTW-2/members/crew2', { session: s.leit }), 409, 'crew2 off duty', /Cem is not clocked in/);
  await clockIn(2);
  const res = await api('PUT', '/units/RTW-2/members/crew2', { session: s.leit });
  t.same(res.body, { userId: 'crew2', callsign: 'RTW-2', left: null });
  t.same((await api('PUT', '/units/RTW-1/members/crew2', { key })).body, { userId: 'crew2', callsign: 'RTW-1', left: 'RTW-2' }, 'moves them');
  assertError(t, await api('PUT', '/units/RTW-1/members/nobody', { key }), 404, 'unknown person');
  assertError(t, await api('PUT', '/units/XX-1/members/crew2', { key }), 404, 'unknown unit');
  assertError(t, await api('PUT', '/units/RTW-1/members/bad%20id', { key }), 400, 'malformed user id');
  assertError(t, await api('PUT', '/units/RTW-1/members/crew2', { key, body: { userId: 'crew1' } }), 400, 'path param repeated in the body');
  assertError(t, await api('PUT', '/units/RTW-1/members/crew2', { key, body: { since: 1 } }), 400, 'unknown field');
  assertError(t, await api('PUT', '/units/RTW-1/members/crew2', { session: s.viewer }), 403, 'viewer lacks dispatch.manage', /dispatch\.manage/);
  assertError(t, await api('PUT', '/units/RTW-1/members/crew2', { session: s.crew }), 403, 'crew');

  assertError(t, await api('DELETE', '/units/RTW-2/members/crew2', { key }), 404, 'not in that unit');
  assertError(t, await api('DELETE', '/units/XX-1/members/crew2', { key }), 404, 'unknown unit');
  assertError(t, await api('DELETE', '/units/RTW-1/members/nobody', { key }), 404, 'unknown person');
  t.same((await api('DELETE', '/units/rtw-1/members/crew2', { session: s.leit })).body, { userId: 'crew2', callsign: null, left: 'RTW-1' });
  assertError(t, await api('DELETE', '/units/RTW-1/members/crew2', { key }), 404, 'already out');
  t.same((await auditRows(server.sql, G, 'unit.member_add')).map((r) => [r.actor_kind, r.data.callsign]), [['session', 'RTW-2'], ['key', 'RTW-1']]);
  t.equal((await auditRows(server.sql, G, 'unit.member_remove')).length, 1);
});

t.test('clock-out (real routes) takes people out of their units, visible on a board', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['units', 'onDuty', 'overview'] });
  t.teardown(board.close);
  await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });
  await api('PUT', '/units/RTW-1/members/crew2', { key });
  await board.until(() => ((board.state.topics.units?.['RTW-1'] as any)?.members ?? []).length === 2);
  t.same((board.state.topics.units!['RTW-1'] as any).members.map((m: any) => m.id), ['crew1', 'crew2'], 'in the order they joined');

  const out = await api('POST', '/me/clock-out', { session: s.crew });
  t.same(out.body.leftUnits, ['RTW-1']);
  await board.until(() => (board.state.topics.units!['RTW-1'] as any).members.length === 1);
  t.same((board.state.topics.units!['RTW-1'] as any).members, [{ id: 'crew2', nickname: 'Cem' }]);
  const out2 = await clockOut(2);
  t.same(out2.body.leftUnits, ['RTW-1']);
  await board.until(() => (board.state.topics.units!['RTW-1'] as any).members.length === 0);
  t.same(await membersOf('RTW-1'), [], 'GET /units agrees');
  const snap = await dbSnapshot(server.deps.db, G);
  t.same(board.state.topics.units, snap.units, 'units equal a fresh load');
  t.same(board.state.topics.overview, snap.overview, 'overview equals a fresh load');
  assertError(t, await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } }), 409, 'off duty again');
});

t.test('concurrent joins of one unit: every member ends on the board', async (t) => {
  await clockIn(1);
  await clockIn(2);
  await clockIn(3);
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  for (let round = 0; round < 4; round++) {
    const target = round % 2 ? 'RTW-2' : 'NEF-1';
    const res = await Promise.all([
      api('PUT', '/me/unit', { session: s.crew, body: { callsign: target } }),
      api('PUT', '/me/unit', { session: s.crew2, body: { callsign: target } }),
      api('PUT', '/me/unit', { session: s.leit, body: { callsign: target } }),
    ]);
    t.same(res.map((r) => r.status), [200, 200, 200], `round ${round}`);
  }
  const head = (await server.sql`select seq::int as seq from event_streams where guild_id = ${G}`)[0].seq;
  await board.until(() => board.state.seq === head);
  t.same(((board.state.topics.units!['RTW-2'] as any).members as any[]).map((m) => m.id).sort(), ['crew1', 'crew2', 'leit1']);
  t.same(board.state.topics.units, (await dbSnapshot(server.deps.db, G)).units, 'board equals a fresh load');
  for (const b of [1, 2, 3]) await clockOut(b);
});
