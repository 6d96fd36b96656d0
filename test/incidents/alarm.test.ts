import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until, wsWithCookie } from '../helpers/live.ts';
import { watchAlarm } from '../../client-sdk/live.ts';
import type { AlarmState } from '../../client-sdk/router.ts';
import { auditRows, seedWorld, sessions } from '../units/world.ts';

// Alarmieren (issue 29): POST /incidents/{number}/alarm puts units in the alarm status, the crew
// sees the incident in GET /me/alarm and its watch, and acknowledges with FMS 3.
const G = '729000000000000001';
const OTHER = '729000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'crew2', nickname: 'Cem', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
]);
await seedWorld(server.sql, OTHER, []);
const key = await unscopedKey(server.sql, G);
const otherKey = await unscopedKey(server.sql, OTHER);
const s = await sessions(server, G, { crew: 'crew1', crew2: 'crew2', leit: 'leit1', viewer: 'view1' });
const must = (res: { status: number; body: unknown }) => {
  if (res.status !== 200) throw new Error(`setup: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};
for (const callsign of ['RTW 1', 'RTW 2', 'NEF 1', 'HLF 1', 'KTW 1']) must(await api('POST', '/units', { key, body: { callsign } }));
await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
must(await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW 1' } }));
must(await api('PUT', '/me/unit', { session: s.crew2, body: { callsign: 'RTW 2' } }));

const sheet = async (keyword: string, location: unknown = { street: 'Hafenstraße 3', postal: '20457', text: 'Hinterhof', x: 120.5, y: -33.25 }) =>
  (await api('POST', '/incidents', { key, body: { keyword, location, priority: 1 } })).body.number as number;
const alarm = (n: number | string, body: unknown, as: { key?: string; session?: { cookie: string; guildId: string } } = { session: s.leit }) =>
  api('POST', `/incidents/${n}/alarm`, { ...as, body });
const unitOf = (body: any, callsign: string) => body.units.find((u: any) => u.callsign === callsign);

const first = await sheet('VU mit eingeklemmter Person');
const second = await sheet('Brand Wohnhaus', 'Grove Street');

t.test('the catalogue: A "Alarmiert" with alarm: true, FMS 3 acknowledges; both editable', async (t) => {
  const { statuses } = (await api('GET', '/admin/statuses', { key })).body;
  t.match(statuses.find((x: any) => x.code === 'A'), { label: 'Alarmiert', alarm: true, acknowledges: false });
  t.match(statuses.find((x: any) => x.code === '3'), { label: 'Einsatz übernommen', alarm: false, acknowledges: true });
  t.same(statuses.filter((x: any) => x.acknowledges).map((x: any) => x.code), ['3']);
  const put = await api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false, acknowledges: true } });
  t.match(put.body, { code: '4', acknowledges: true });
  const keep = await api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false } });
  t.match(keep.body, { acknowledges: true }, 'omitting acknowledges keeps it');
  await api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false, acknowledges: false } });
  assertError(t, await api('PUT', '/admin/statuses/4', { key, body: { label: 'x', color: '#ef6c00', alarm: false, acknowledges: 'yes' } }), 400, 'acknowledges must be boolean');
});

t.test('alarm: unit in status A, live alarm op and sheet notice, /me/alarm carries the incident', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['alarm', 'units', 'einsatzEntries'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const states: AlarmState[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(s.crew.cookie), onState: (st) => states.push(st) });
  t.teardown(w.close);
  await until(() => states.length >= 1, 'first alarm state');
  t.equal(states.at(-1)!.incident, null, 'no incident before the alarm');

  const res = await alarm(first, { callsigns: ['rtw 1', 'NEF 1'] });
  t.equal(res.status, 200);
  t.equal(res.body.alarmAckTimeoutS, 60);
  t.match(unitOf(res.body, 'RTW 1'), { acknowledgedAt: null, unacknowledged: false });
  t.ok(Date.parse(unitOf(res.body, 'RTW 1').alarmedAt) > 0, 'alarmedAt set');
  t.same(res.body.entries.filter((e: any) => e.kind === 'unit_alarmed').map((e: any) => e.text), ['RTW 1 alarmiert', 'NEF 1 alarmiert']);
  t.match((await auditRows(server.sql, G, 'incident.alarm')).at(-1), { actor_id: 'leit1', data: { number: first, callsigns: ['RTW 1', 'NEF 1'] } });

  const units = (await api('GET', '/units', { key })).body.units;
  t.match(units.find((u: any) => u.callsign === 'RTW 1'), { status: 'A', alarm: true });
  await board.until(() => 'RTW 1' in board.state.topics.alarm! && 'NEF 1' in board.state.topics.alarm!);
  t.match(board.state.topics.alarm!['RTW 1'], { status: 'A' });
  t.ok(board.frames.some((f: any) => JSON.stringify(f).includes('"change":"unit_alarmed"')), 'the sheet notice reached the board');

  const me = (await api('GET', '/me/alarm', { session: s.crew })).body;
  t.same(Object.keys(me).sort(), ['alarms', 'incident', 'onDuty', 'unit', 'unitStatus']);
  t.match(me, { onDuty: true, alarms: ['NEF 1', 'RTW 1'], unit: 'RTW 1' });
  t.match(me.incident, {
    number: first, keyword: 'VU mit eingeklemmter Person', priority: 1, message: null, acknowledgedAt: null,
    location: { street: 'Hafenstraße 3', postal: '20457', text: 'Hinterhof', x: 120.5, y: -33.25 },
    units: [{ callsign: 'NEF 1', acknowledgedAt: null }],
  });
  t.equal(me.incident.units.length, 1, 'the other alarmed units, not the own');
  t.equal(Date.parse(me.incident.alarmedAt), Date.parse(unitOf(res.body, 'RTW 1').alarmedAt));
  t.equal((await api('GET', '/me/alarm', { session: s.crew2 })).body.incident, null, 'a crew whose unit is not alarmed gets no incident');

  await until(() => states.at(-1)!.incident?.number === first, 'the crew\'s alarm watch carries the incident');
  t.match(states.at(-1), { alarms: ['NEF 1', 'RTW 1'], unit: 'RTW 1', incident: { keyword: 'VU mit eingeklemmter Person' } });

  // Sheet updates reach the alarmed crew live.
  await api('POST', `/incidents/${first}/entries`, { key, body: { text: 'Zweites Fahrzeug beteiligt' } });
  await until(() => !!states.at(-1)!.incident?.entries.some((e) => e.text === 'Zweites Fahrzeug beteiligt'), 'a new timeline entry reaches the crew');
  const version = (await api('GET', `/incidents/${first}`, { key })).body.version;
  await api('PATCH', `/incidents/${first}`, { key, body: { version, location: { street: 'Kaistraße 1', postal: '20457' } } });
  await until(() => (states.at(-1)!.incident?.location as any)?.street === 'Kaistraße 1', 'a changed address reaches the crew');
});

t.test('acknowledgement: FMS 3 records acknowledgedAt; re-alarming clears it', async (t) => {
  t.equal((await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW 1', status: '3' } })).status, 200);
  const after = (await api('GET', `/incidents/${first}`, { key })).body;
  const rtw = unitOf(after, 'RTW 1');
  t.ok(Date.parse(rtw.acknowledgedAt) >= Date.parse(rtw.alarmedAt), 'acknowledgedAt after alarmedAt');
  t.equal(rtw.unacknowledged, false);
  t.equal(unitOf(after, 'NEF 1').acknowledgedAt, null, 'the other unit has not acknowledged');
  t.match(after.entries.at(-1), { kind: 'unit_acknowledged', text: /RTW 1/, by: { kind: 'session', id: 'crew1' } });
  t.ok((await api('GET', '/me/alarm', { session: s.crew })).body.incident.acknowledgedAt, '/me/alarm shows the own acknowledgement');
  t.notOk((await api('GET', '/me/alarm', { session: s.crew })).body.alarms.includes('RTW 1'), 'status 3 is no alarm status');
  const entries = after.entries.length;
  await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW 1', status: '3' } });
  t.equal((await api('GET', `/incidents/${first}`, { key })).body.entries.length, entries, 'a second 3 acknowledges nothing more');

  const again = await alarm(first, { callsigns: ['RTW 1'] });
  t.equal(again.status, 200);
  t.equal(unitOf(again.body, 'RTW 1').acknowledgedAt, null, 're-alarm clears the acknowledgement');
  t.ok(Date.parse(unitOf(again.body, 'RTW 1').alarmedAt) >= Date.parse(rtw.alarmedAt), 'and re-sets alarmedAt');
  t.equal(again.body.units.filter((u: any) => u.callsign === 'RTW 1').length, 1, 'still one row per unit');
});

t.test('unacknowledged after alarmAckTimeoutS, computed when read; the setting is validated', async (t) => {
  await server.sql`update incident_units set alarmed_at = now() - interval '90 seconds'
    where guild_id = ${G} and number = ${first} and unit_id = (select id from units where guild_id = ${G} and callsign = 'NEF 1')`;
  t.equal(unitOf((await api('GET', `/incidents/${first}`, { key })).body, 'NEF 1').unacknowledged, true, '90 s > 60 s');
  t.equal(unitOf((await api('GET', `/incidents/${first}`, { key })).body, 'RTW 1').unacknowledged, false, 'a fresh alarm is not flagged');
  t.same((await api('PATCH', '/admin/alarm-settings', { key, body: { alarmAckTimeoutS: 120 } })).body, { alarmAckTimeoutS: 120 });
  const read = (await api('GET', `/incidents/${first}`, { key })).body;
  t.equal(read.alarmAckTimeoutS, 120);
  t.equal(unitOf(read, 'NEF 1').unacknowledged, false, '90 s < 120 s');
  t.same((await api('GET', '/admin/alarm-settings', { key })).body, { alarmAckTimeoutS: 120 });
  for (const v of [9, 601, 60.5, '60', null]) {
    assertError(t, await api('PATCH', '/admin/alarm-settings', { key, body: { alarmAckTimeoutS: v } }), 400, `alarmAckTimeoutS ${JSON.stringify(v)}`, /10 to 600/);
  }
  assertError(t, await api('PATCH', '/admin/alarm-settings', { session: s.leit, body: { alarmAckTimeoutS: 30 } }), 403, 'needs settings.manage');
  await api('PATCH', '/admin/alarm-settings', { key, body: { alarmAckTimeoutS: 60 } });
});

t.test('a unit on another open sheet: 409 unit_on_other_incident, force moves it', async (t) => {
  const refused = await alarm(second, { callsigns: ['HLF 1', 'RTW 1'] });
  assertError(t, refused, 409, 'RTW 1 is on sheet 1', /RTW 1 is on open incident sheet/);
  t.match(refused.body, { reason: 'unit_on_other_incident', params: { units: 'RTW 1', sheets: String(first) } });
  t.equal((await api('GET', `/incidents/${second}`, { key })).body.units.length, 0, 'nothing alarmed');
  t.match((await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'HLF 1'), { status: '2' }, 'HLF 1 untouched');

  const moved = await alarm(second, { callsigns: ['HLF 1', 'RTW 1'], force: true });
  t.equal(moved.status, 200);
  t.same(moved.body.units.map((u: any) => u.callsign).sort(), ['HLF 1', 'RTW 1']);
  const old = (await api('GET', `/incidents/${first}`, { key })).body;
  t.same(old.units.map((u: any) => u.callsign), ['NEF 1'], 'released from the first sheet');
  t.match(old.entries.at(-1), { kind: 'unit_released', text: `RTW 1 zu Einsatz ${second} umalarmiert` });
  t.equal((await api('GET', '/me/alarm', { session: s.crew })).body.incident.number, second, 'the crew sees the new sheet');
});

t.test('the game acknowledges by badge; closing the sheet ends the crew\'s incident, live', async (t) => {
  const states: AlarmState[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(s.crew.cookie), onState: (st) => states.push(st) });
  t.teardown(w.close);
  await until(() => states.at(-1)?.incident?.number === second, 'the watch starts with the sheet');
  t.equal(states.at(-1)!.incident!.acknowledgedAt, null);
  const game = await scopedKey(server.sql, G, ['units:unit.ingame_status']);
  t.equal((await api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 1, status: 3 } })).status, 200);
  const read = (await api('GET', `/incidents/${second}`, { key })).body;
  t.ok(unitOf(read, 'RTW 1').acknowledgedAt, 'acknowledged from the game');
  t.match(read.entries.at(-1), { kind: 'unit_acknowledged', by: { kind: 'key', name: 'scoped (Cora)' } });
  await until(() => !!states.at(-1)!.incident?.acknowledgedAt, 'the crew\'s watch sees its acknowledgement');
  await api('POST', `/incidents/${second}/close`, { key, body: {} });
  await until(() => states.at(-1)!.incident === null, 'a closed sheet leaves the crew\'s alarm state');
  t.equal((await api('GET', '/me/alarm', { session: s.crew })).body.incident, null);
});

t.test('404 unknown unit or sheet (also another guild\'s), 409 closed sheet', async (t) => {
  assertError(t, await alarm(first, { callsigns: ['RTW 1', 'XYZ 9'] }), 404, 'unknown unit', /no unit XYZ 9/);
  assertError(t, await alarm(999, { callsigns: ['RTW 1'] }), 404, 'unknown sheet', /no incident sheet 999/);
  // The other guild's sheet 3 exists there only; its unit exists there only.
  for (let i = 0; i < 3; i++) await api('POST', '/incidents', { key: otherKey, body: { keyword: `Fremd ${i}` } });
  await api('POST', '/units', { key: otherKey, body: { callsign: 'FREMD 1' } });
  assertError(t, await alarm(3, { callsigns: ['RTW 1'] }), 404, 'another guild\'s sheet number', /no incident sheet 3/);
  assertError(t, await alarm(first, { callsigns: ['FREMD 1'] }), 404, 'another guild\'s unit', /no unit FREMD 1/);
  assertError(t, await api('POST', `/incidents/${first}/alarm`, { key: otherKey, body: { callsigns: ['RTW 1'] } }), 404, 'another guild\'s key sees neither');
  const third = await sheet('Erledigt');
  await api('POST', `/incidents/${third}/close`, { key, body: {} });
  const closed = await alarm(third, { callsigns: ['RTW 2'] });
  assertError(t, closed, 409, 'closed', /closed/);
  t.match(closed.body, { reason: 'incident_closed' });
  t.match((await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'RTW 2'), { status: '2' }, 'a refused alarm changes no status');
});

t.test('400: empty, more than 20, repeated units, bad fields', async (t) => {
  const many = Array.from({ length: 21 }, (_, i) => `U ${i}`);
  const bad: [unknown, RegExp][] = [
    [{ callsigns: [] }, /at least one/], [{ callsigns: many }, /at most 20/], [{ callsigns: ['RTW 1', 'rtw 1'] }, /must not repeat/],
    [{}, /callsigns/], [{ callsigns: 'RTW 1' }, /callsigns/], [{ callsigns: [' RTW'] }, /callsign must be/], [{ callsigns: [7] }, /callsigns/],
    [{ callsigns: ['RTW 2'], force: 'yes' }, /force/], [{ callsigns: ['RTW 2'], extra: 1 }, /unknown field extra/],
  ];
  for (const [body, message] of bad) assertError(t, await alarm(first, body), 400, JSON.stringify(body).slice(0, 40), message);
  assertError(t, await alarm('abc', { callsigns: ['RTW 2'] }), 400, 'bad number');
});

t.test('two desks alarm the same unit for two sheets at once: one wins, the other is asked', async (t) => {
  const [a, b] = [await sheet('Parallel A'), await sheet('Parallel B')];
  const results = await Promise.all([alarm(a, { callsigns: ['KTW 1'] }), alarm(b, { callsigns: ['ktw 1'] }, { key })]);
  t.same(results.map((r) => r.status).sort(), [200, 409]);
  t.match(results.find((r) => r.status === 409)!.body, { reason: 'unit_on_other_incident', params: { units: 'KTW 1' } });
  const on = await server.sql`select number from incident_units where guild_id = ${G}
    and unit_id = (select id from units where guild_id = ${G} and callsign = 'KTW 1')`;
  t.equal(on.length, 1, 'the unit is on one sheet');
  // An acknowledgement racing a re-alarm: both land, in some order, and neither fails.
  const [ack, again] = await Promise.all([
    api('PUT', '/units/KTW 1/status', { key, body: { status: '3' } }),
    alarm(on[0].number, { callsigns: ['KTW 1'] }),
  ]);
  t.same([ack.status, again.status], [200, 200]);
});

t.test('403 without dispatch.manage, and for scoped keys', async (t) => {
  assertError(t, await alarm(first, { callsigns: ['RTW 2'] }, { session: s.viewer }), 403, 'viewer (dispatch.view only)', /dispatch\.manage/);
  assertError(t, await alarm(first, { callsigns: ['RTW 2'] }, { session: s.crew2 }), 403, 'crew');
  for (const scope of specScopes) {
    assertError(t, await alarm(first, { callsigns: ['RTW 2'] }, { key: await scopedKey(server.sql, G, [scope]) }), 403, `scope ${scope}`);
  }
  t.equal((await alarm(first, { callsigns: ['RTW 2'] }, { key })).status, 200, 'an unscoped key may');
});
