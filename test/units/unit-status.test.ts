import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until, wsWithCookie } from '../helpers/live.ts';
import { watchAlarm } from '../../client-sdk/live.ts';
import { auditRows, dbSnapshot, seedWorld, sessions, topicsSince } from './world.ts';

const G = '640000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'crew2', nickname: 'Cem', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
  { userId: 'nobadge', nickname: 'Nora', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const game = await scopedKey(server.sql, G, ['units:unit.ingame_status']);
const s = await sessions(server, G, { crew: 'crew1', crew2: 'crew2', leit: 'leit1', viewer: 'view1' });
for (const callsign of ['RTW-1', 'RTW-2']) await api('POST', '/units', { key, body: { callsign } });
await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });
await api('PUT', '/me/unit', { session: s.crew2, body: { callsign: 'RTW-2' } });

t.test('PUT /me/unit-status: a unit the caller occupies', async (t) => {
  const e0 = server.events.length;
  const res = await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '3' } });
  t.equal(res.status, 200);
  t.match(res.body, { callsign: 'RTW-1', status: '3', statusLabel: 'Einsatz übernommen', alarm: false, previous: '2' });
  t.ok(Date.parse(res.body.since) > 0);
  t.same(topicsSince(server.events, G, e0), [['units']], 'a non-alarm change touches units only');
  const [audit] = await auditRows(server.sql, G, 'unit.self_status');
  t.match(audit, { actor_kind: 'session', actor_id: 'crew1', data: { callsign: 'RTW-1', status: '3', previous: '2' } });
  t.equal((await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'rtw-1', status: 4 } })).body.status, '4', 'callsign in any case; the FMS digit as a number');
});

t.test('PUT /me/unit-status: 403 for any unit the caller does not occupy; 400 unknown status', async (t) => {
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-2', status: '3' } }), 403, 'another crew\'s unit', /do not occupy/);
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'XX-1', status: '3' } }), 403, 'a unit that does not exist');
  assertError(t, await api('PUT', '/me/unit-status', { session: s.leit, body: { callsign: 'RTW-1', status: '3' } }), 403, 'a dispatcher in no unit');
  assertError(t, await api('PUT', '/me/unit-status', { session: s.viewer, body: { callsign: 'RTW-1', status: '3' } }), 403, 'rank without timeclock.own.use', /timeclock\.own\.use/);
  for (const status of ['9', 'Z', '00']) {
    assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status } }), 400, `unknown status ${status}`, /unknown status/);
  }
  for (const status of ['', 'ABCDE', '3 ', '-1', -1, 1.5, 10000, true, null, ['3'], { code: '3' }]) {
    assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status } }), 400, `status ${JSON.stringify(status)}`);
  }
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1' } }), 400, 'status missing');
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { status: '3' } }), 400, 'callsign missing');
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '3', since: 0 } }), 400, 'server-owned since');
  assertError(t, await api('PUT', '/me/unit-status', { key, body: { callsign: 'RTW-1', status: '3' } }), 403, 'API key on a session route');
  assertError(t, await api('PUT', '/me/unit-status', { key: game, body: { callsign: 'RTW-1', status: '3' } }), 403, 'game key on a session route');
  t.equal((await auditRows(server.sql, G, 'unit.self_status')).length, 2, 'refusals write no audit row');
});

t.test('alarm: true → the unit is in GET /me/alarm and the alarm topic, and leaves both on the next status', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['alarm', 'overview', 'units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body, { onDuty: true, alarms: [], unit: 'RTW-1', unitStatus: '4', incident: null }, 'unit: the one the caller occupies, and its status');

  const e0 = server.events.length;
  const res = await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '0' } });
  t.match(res.body, { status: '0', alarm: true, statusLabel: 'Notruf/priorisierter Sprechwunsch' });
  t.same(topicsSince(server.events, G, e0), [['alarm', 'overview', 'units']]);
  await board.until(() => 'RTW-1' in board.state.topics.alarm!);
  t.match(board.state.topics.alarm!['RTW-1'], { callsign: 'RTW-1', status: '0', since: Date.parse(res.body.since) });
  t.equal(board.state.topics.overview!.alarms, 1);
  t.match(board.state.topics.units!['RTW-1'], { status: '0', since: Date.parse(res.body.since) });
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body, { onDuty: true, alarms: ['RTW-1'], unit: 'RTW-1', unitStatus: '0', incident: null });
  t.same((await api('GET', '/me/alarm', { session: s.leit })).body, { onDuty: false, alarms: ['RTW-1'], unit: null, incident: null }, 'everyone sees the alarm; onDuty is the caller\'s');

  await api('PUT', '/units/RTW-2/status', { key, body: { status: '0' } });
  await board.until(() => Object.keys(board.state.topics.alarm!).length === 2);
  t.same((await api('GET', '/me/alarm', { session: s.crew2 })).body.alarms, ['RTW-1', 'RTW-2'], 'sorted callsigns');
  const again = await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '0' } });
  t.equal(again.status, 200, 'repeating the alarm status is fine');
  await board.until(() => (board.state.topics.alarm!['RTW-1'] as any).since === Date.parse(again.body.since));
  t.equal(board.state.topics.overview!.alarms, 2, 'and counts once');

  await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5' } });
  await board.until(() => !('RTW-1' in board.state.topics.alarm!));
  t.equal(board.state.topics.overview!.alarms, 1);
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body.alarms, ['RTW-2']);
  await api('PUT', '/units/RTW-2/status', { key, body: { status: '2' } });
  await board.until(() => Object.keys(board.state.topics.alarm!).length === 0);
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body, { onDuty: true, alarms: [], unit: 'RTW-1', unitStatus: '5', incident: null });
  const snap = await dbSnapshot(server.deps.db, G);
  for (const topic of ['alarm', 'overview', 'units'] as const) t.same(board.state.topics[topic], snap[topic], `${topic} equals a fresh load`);
});

t.test('PUT /units/{callsign}/status: a dispatcher sets any unit\'s status', async (t) => {
  const res = await api('PUT', '/units/rtw-2/status', { session: s.leit, body: { status: '6' } });
  t.match(res.body, { callsign: 'RTW-2', status: '6', previous: '2', alarm: false });
  t.match((await auditRows(server.sql, G, 'unit.status_set')).at(-1), { actor_id: 'leit1', data: { callsign: 'RTW-2', status: '6', previous: '2' } });
  assertError(t, await api('PUT', '/units/XX-1/status', { key, body: { status: '6' } }), 404, 'unknown unit');
  assertError(t, await api('PUT', '/units/RTW-2/status', { key, body: { status: '9' } }), 400, 'unknown status');
  assertError(t, await api('PUT', '/units/RTW-2/status', { key, body: { status: '6', callsign: 'RTW-2' } }), 400, 'callsign repeated in the body');
  assertError(t, await api('PUT', '/units/RTW-2/status', { key, body: {} }), 400, 'status missing');
  assertError(t, await api('PUT', '/units/RTW-2/status', { session: s.viewer, body: { status: '6' } }), 403, 'viewer lacks dispatch.manage');
  assertError(t, await api('PUT', '/units/RTW-2/status', { session: s.crew2, body: { status: '6' } }), 403, 'crew lacks dispatch.manage, even in the unit');
  for (const scope of specScopes) {
    assertError(t, await api('PUT', '/units/RTW-2/status', { key: await scopedKey(server.sql, G, [scope]), body: { status: '6' } }), 403, `scope ${scope}`);
  }
});

t.test('PUT /integrations/ingame/unit-status: by badge, with scope units:unit.ingame_status only', async (t) => {
  const auditCount = async () => (await server.sql`select count(*)::int as n from audit_log where guild_id = ${G}`)[0].n;
  const audits0 = await auditCount();
  const e0 = server.events.length;
  const res = await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 1, status: '3' } });
  t.equal(res.status, 200);
  t.match(res.body, { callsign: 'RTW-1', status: '3', previous: '5' });
  t.same(topicsSince(server.events, G, e0), [['units']]);
  for (const badge of ['1', '01', 1]) {
    t.equal((await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge, status: 4 } })).body.status, '4', `badge ${JSON.stringify(badge)}`);
  }
  t.equal((await api('PUT', '/integrations/ingame/unit-status', { key, body: { badge: 2, status: '1' } })).status, 200, 'unscoped key');
  t.equal((await api('PUT', '/integrations/ingame/unit-status', { key: await scopedKey(server.sql, G, ['calls:read', 'units:unit.ingame_status']), body: { badge: 2, status: '2' } })).status, 200, 'a key with the scope among others');
  for (const scope of specScopes.filter((x) => x !== 'units:unit.ingame_status')) {
    assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: await scopedKey(server.sql, G, [scope]), body: { badge: 1, status: '3' } }), 403, `scope ${scope}`, /units:unit\.ingame_status/);
  }
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 99, status: '3' } }), 404, 'unknown badge', /badge 99/);
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 3, status: '3' } }), 409, 'badge holder not in a unit', /not in a unit/);
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 1, status: 'Q' } }), 400, 'unknown status');
  for (const badge of [-1, 'abc', 1.5, '', null, '1234567']) {
    assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge, status: '3' } }), 400, `badge ${JSON.stringify(badge)}`);
  }
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 1, status: '3', callsign: 'RTW-2' } }), 400, 'no callsign: the unit is the badge holder\'s');
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { status: '3' } }), 400, 'badge missing');
  assertError(t, await api('PUT', '/integrations/ingame/unit-status', { session: s.crew, body: { badge: 1, status: '3' } }), 403, 'a crew session lacks dispatch.manage');
  t.equal((await api('PUT', '/integrations/ingame/unit-status', { session: s.leit, body: { badge: 1, status: '2' } })).status, 200, 'a dispatcher session may');
  t.equal(await auditCount(), audits0, 'status changes by badge write no audit row (like the badge clock)');
});

t.test('the game route follows the alarm catalogue too', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['alarm'] });
  t.teardown(board.close);
  await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 2, status: 0 } });
  await board.until(() => 'RTW-2' in (board.state.topics.alarm ?? {}));
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body.alarms, ['RTW-2']);
  await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 2, status: 1 } });
  await board.until(() => !('RTW-2' in board.state.topics.alarm!));
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body.alarms, []);
});

t.test('a unit leaving its alarm status through deletion and catalogue edits keeps the counters right', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['alarm', 'overview', 'units'] });
  t.teardown(board.close);
  await api('POST', '/units', { key, body: { callsign: 'TMP-1' } });
  await api('PUT', '/units/TMP-1/status', { key, body: { status: '0' } });
  await board.until(() => 'TMP-1' in (board.state.topics.alarm ?? {}));
  t.equal((await api('DELETE', '/units/TMP-1', { key })).status, 200);
  await board.until(() => !('TMP-1' in board.state.topics.alarm!) && !('TMP-1' in board.state.topics.units!));
  await api('PUT', '/admin/statuses/2', { key, body: { label: 'Wache (Alarm)', color: '#ff0000', alarm: true } });
  const created = await api('POST', '/units', { key, body: { callsign: 'TMP-2' } });
  t.match(created.body, { status: '2', alarm: true }, 'a new unit in an alarm status');
  await board.until(() => 'TMP-2' in board.state.topics.alarm!);
  await api('PATCH', '/units/TMP-2', { key, body: { newCallsign: 'TMP-3' } });
  await board.until(() => 'TMP-3' in board.state.topics.alarm! && !('TMP-2' in board.state.topics.alarm!));
  await api('PUT', '/admin/statuses/2', { key, body: { label: 'Einsatzbereit auf Wache', color: '#1b5e20', alarm: false } });
  await api('DELETE', '/units/TMP-3', { key });
  const head = (await server.sql`select seq::int as seq from event_streams where guild_id = ${G}`)[0].seq;
  await board.until(() => board.state.seq === head);
  const snap = await dbSnapshot(server.deps.db, G);
  for (const topic of ['alarm', 'overview', 'units'] as const) t.same(board.state.topics[topic], snap[topic], `${topic} equals a fresh load`);
});

t.test('me.alarm.watch and GET /me/alarm tell the unit the caller occupies, live', async (t) => {
  const states: { unit: string | null }[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(s.crew2.cookie), onState: (st) => states.push(st) });
  t.teardown(w.close);
  await until(() => states.length >= 1, 'first state');
  t.equal(states.at(-1)!.unit, 'RTW-2');
  await api('DELETE', '/me/unit', { session: s.crew2 });
  await until(() => states.at(-1)!.unit === null, 'left the unit');
  t.equal((await api('GET', '/me/alarm', { session: s.crew2 })).body.unit, null);
  await api('PUT', '/me/unit', { session: s.crew2, body: { callsign: 'RTW-1' } });
  await until(() => states.at(-1)!.unit === 'RTW-1', 'joined another unit');
  t.equal((await api('GET', '/me/alarm', { session: s.crew2 })).body.unit, 'RTW-1');
  const count = states.length;
  await api('PUT', '/units/RTW-2/status', { key, body: { status: '3' } });
  await new Promise((r) => setTimeout(r, 200));
  t.equal(states.length, count, 'a status change that alarms nobody sends nothing');
  await api('PUT', '/me/unit', { session: s.crew2, body: { callsign: 'RTW-2' } });
});
