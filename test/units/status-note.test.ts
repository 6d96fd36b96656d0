import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until, wsWithCookie } from '../helpers/live.ts';
import { watchAlarm } from '../../client-sdk/live.ts';
import type { AlarmState } from '../../contract/alarm.ts';
import { auditRows, dbSnapshot, seedWorld, sessions } from './world.ts';

// The crew's note with a status (issue 29, "Mein Fahrzeug": Sprechwunsch with a note the desk
// sees): PUT /me/unit-status takes an optional `note`, GET /units and the units topic carry it,
// the next status change clears it. GET /me/units lists the units a crew chooses from, and the
// alarm state says which status the own unit is in.
const G = '641000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { crew: 'crew1', leit: 'leit1', viewer: 'view1' });
await api('POST', '/units', { key, body: { callsign: 'RTW-1', label: 'Rettungswagen 1', orgUnit: 'Wache Mitte' } });
await api('POST', '/units', { key, body: { callsign: 'HLF-1', label: 'Löschfahrzeug', orgUnit: 'Feuerwache 1' } });
await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });

const noteOf = async (callsign: string) => ((await api('GET', '/units', { key })).body.units as { callsign: string; note: string | null }[])
  .find((u) => u.callsign === callsign)?.note;

t.test('a note with Sprechwunsch reaches GET /units, the units topic and the audit; the next status clears it', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const unit = () => board.state.topics.units?.['RTW-1'] as { status: string; note: string | null } | undefined;
  t.equal(unit()?.note, null, 'the snapshot carries note: null');

  const res = await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note: '  Patient verweigert Transport  ' } });
  t.equal(res.status, 200);
  t.match(res.body, { callsign: 'RTW-1', status: '5', note: 'Patient verweigert Transport' });
  t.equal(await noteOf('RTW-1'), 'Patient verweigert Transport', 'GET /units shows it (trimmed)');
  await board.until(() => unit()?.note === 'Patient verweigert Transport');
  t.equal(unit()?.status, '5');
  t.match((await auditRows(server.sql, G, 'unit.self_status')).at(-1), { data: { status: '5', note: 'Patient verweigert Transport' } });
  t.match((await dbSnapshot(server.deps.db, G)).units['RTW-1'], { note: 'Patient verweigert Transport' }, 'a fresh snapshot has it too');

  t.equal((await api('PUT', '/units/RTW-1/status', { key, body: { status: '3' } })).status, 200, 'the desk answers by setting a status');
  t.equal(await noteOf('RTW-1'), null, 'the next status change clears the note');
  await board.until(() => unit()?.status === '3' && unit()?.note === null);

  await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note: 'Rückruf bitte' } });
  await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5' } });
  t.equal(await noteOf('RTW-1'), null, 'a status without a note clears it, even the same status');
  await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note: '   ' } });
  t.equal(await noteOf('RTW-1'), null, 'a blank note is no note');
});

t.test('a note is bounded and only the crew sends one', async (t) => {
  const long = 'x'.repeat(201);
  assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note: long } }), 400, '201 characters', /note has at most 200 characters/);
  t.equal((await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note: 'x'.repeat(200) } })).status, 200, '200 characters are fine');
  for (const note of [5, null, ['a'], { text: 'a' }, 'a\u0000b']) {
    assertError(t, await api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: '5', note } }), 400, `note ${JSON.stringify(note)}`);
  }
  assertError(t, await api('PUT', '/units/RTW-1/status', { key, body: { status: '5', note: 'hallo' } }), 400, 'the dispatcher\'s route takes no note');
  t.equal((await api('GET', '/units', { key })).body.units.find((u: { callsign: string }) => u.callsign === 'RTW-1').note, 'x'.repeat(200), 'refusals change nothing');
});

t.test('GET /me/units: every unit to choose from, by station, without names; session and timeclock.own.use only', async (t) => {
  const res = await api('GET', '/me/units', { session: s.crew });
  t.equal(res.status, 200);
  t.same(res.body.units.map((u: { callsign: string }) => u.callsign), ['HLF-1', 'RTW-1'], 'by station, then callsign');
  t.match(res.body.units[1], { callsign: 'RTW-1', label: 'Rettungswagen 1', orgUnit: 'Wache Mitte', status: '5', statusLabel: 'Sprechwunsch', crew: 1 });
  t.notOk(JSON.stringify(res.body).includes('Cora'), 'no names of the people in a unit');
  assertError(t, await api('GET', '/me/units', { key }), 403, 'an API key');
  assertError(t, await api('GET', '/me/units', { session: s.viewer }), 403, 'a rank without timeclock.own.use');
});

t.test('the alarm state says which status the own unit is in, live', async (t) => {
  t.equal((await api('GET', '/me/alarm', { session: s.crew })).body.unitStatus, '5');
  t.notOk('unitStatus' in (await api('GET', '/me/alarm', { session: s.leit })).body, 'no unit: absent');
  const states: AlarmState[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(s.crew.cookie), onState: (x) => states.push(x) });
  t.teardown(() => w.close());
  await until(() => states.at(-1)?.unitStatus === '5', 'first state');
  await api('PUT', '/units/RTW-1/status', { key, body: { status: '2' } });
  await until(() => states.at(-1)?.unitStatus === '2', 'a dispatcher\'s change reaches the crew');
});
