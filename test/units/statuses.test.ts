import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { auditRows, dbSnapshot, FMS, seedWorld, sessions } from './world.ts';

const G = '610000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'boss', nickname: 'Boss', badge: 1, admin: true },
  { userId: 'crew1', nickname: 'Cora', badge: 2, rank: 'crew' },
  { userId: 'setup1', nickname: 'Sven', badge: 3, rank: 'setup' },
  { userId: 'guest', nickname: 'Gast', badge: 4, rank: 'none' },
  { userId: 'leit1', nickname: 'Lena', badge: 5, rank: 'leit' },
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { boss: 'boss', crew: 'crew1', setup: 'setup1', guest: 'guest', leit: 'leit1' });

t.test('every guild starts with the German FMS catalogue; 0 and A (Alarmiert) carry alarm: true, 3 acknowledges', async (t) => {
  const res = await api('GET', '/admin/statuses', { key });
  t.equal(res.status, 200);
  t.same(res.body.statuses.map((x: any) => ({ code: x.code, label: x.label, alarm: x.alarm })), FMS, 'codes 1–8, 0, then A, labels and flags of the German FMS catalogue');
  t.same(res.body.statuses.filter((x: any) => x.acknowledges).map((x: any) => x.code), ['3'], 'FMS 3 alone acknowledges');
  for (const x of res.body.statuses) {
    t.match(x.color, /^#[0-9a-f]{6}$/, `${x.code} has a #rrggbb colour`);
    t.same(Object.keys(x).sort(), ['acknowledges', 'alarm', 'available', 'code', 'color', 'label', 'position']);
  }
  const positions = res.body.statuses.map((x: any) => x.position);
  t.same(positions, [...positions].sort((a: number, b: number) => a - b), 'in display order');
});

t.test('who may read the catalogue: keys, the game scope, crews; not a rank without capabilities', async (t) => {
  const game = await scopedKey(server.sql, G, ['units:unit.ingame_status']);
  t.equal((await api('GET', '/admin/statuses', { key: game })).status, 200, 'scope units:unit.ingame_status');
  for (const scope of specScopes.filter((x) => x !== 'units:unit.ingame_status')) {
    assertError(t, await api('GET', '/admin/statuses', { key: await scopedKey(server.sql, G, [scope]) }), 403, `scope ${scope}`);
  }
  t.equal((await api('GET', '/admin/statuses', { session: s.crew })).status, 200, 'crew (timeclock.own.use) reads the codes it may set');
  assertError(t, await api('GET', '/admin/statuses', { session: s.guest }), 403, 'rank without capabilities');
  assertError(t, await api('GET', '/admin/statuses'), 401, 'no credential');
  assertError(t, await api('GET', '/admin/statuses?x=1', { key }), 400, 'unknown query parameter');
});

t.test('PUT /admin/statuses/{code}: create and replace, with every field rule', async (t) => {
  const created = await api('PUT', '/admin/statuses/C', { session: s.setup, body: { label: 'Sprechwunsch Leitstelle', color: '#ABCDEF', alarm: false } });
  t.equal(created.status, 200);
  t.same(created.body, { code: 'C', label: 'Sprechwunsch Leitstelle', color: '#abcdef', alarm: false, acknowledges: false, available: false, position: 11 }, 'new codes go last; colour stored lower-case');
  const replaced = await api('PUT', '/admin/statuses/C', { key, body: { label: '  Rückruf  ', color: '#000000', alarm: false } });
  t.same(replaced.body, { code: 'C', label: 'Rückruf', color: '#000000', alarm: false, acknowledges: false, available: false, position: 11 }, 'replace keeps the position, trims the label');
  const moved = await api('PUT', '/admin/statuses/C', { key, body: { label: 'Rückruf', color: '#000000', alarm: false, position: 0 } });
  t.equal(moved.body.position, 0);
  const list = await api('GET', '/admin/statuses', { key });
  t.equal(list.body.statuses[0].code, 'C', 'position 0 sorts first');
  t.equal(list.body.statuses.length, 11);

  const base = { label: 'x', color: '#112233', alarm: true };
  const ok = async (body: object, label: string) => t.equal((await api('PUT', '/admin/statuses/D', { key, body })).status, 200, label);
  const bad = async (path: string, body: unknown, label: string) => assertError(t, await api('PUT', path, { key, body }), 400, label);
  await ok({ ...base, label: 'x'.repeat(39) }, 'label of 39');
  await ok({ ...base, label: 'x'.repeat(40) }, 'label of 40');
  await bad('/admin/statuses/D', { ...base, label: 'x'.repeat(41) }, 'label of 41');
  await bad('/admin/statuses/D', { ...base, label: '' }, 'empty label');
  await bad('/admin/statuses/D', { ...base, label: '   ' }, 'blank label');
  await bad('/admin/statuses/D', { ...base, label: 5 }, 'label not a string');
  for (const label of ['a\u0000b', 'lone \ud800']) await bad('/admin/statuses/D', { ...base, label }, `label ${JSON.stringify(label)}`);
  await ok({ ...base, label: 'Alarm 🚨' }, 'emoji label');
  for (const color of ['#abc', '#abcdefg', 'abcdef', 'red', '#gggggg', '', 123]) await bad('/admin/statuses/D', { ...base, color }, `colour ${JSON.stringify(color)}`);
  for (const alarm of ['true', 1, null]) await bad('/admin/statuses/D', { ...base, alarm }, `alarm ${JSON.stringify(alarm)}`);
  await ok({ ...base, position: 998 }, 'position 998');
  await ok({ ...base, position: 999 }, 'position 999');
  await ok({ ...base, position: 0 }, 'position 0');
  for (const position of [-1, 1000, 1.5, '3']) await bad('/admin/statuses/D', { ...base, position }, `position ${JSON.stringify(position)}`);
  await bad('/admin/statuses/D', { label: 'x', color: '#112233' }, 'alarm missing');
  await bad('/admin/statuses/D', { ...base, guildId: G }, 'server-owned guildId');
  await bad('/admin/statuses/D', { ...base, code: 'D' }, 'code repeated in the body');
  await ok({ ...base, label: 'four' }, 'code D');
  t.equal((await api('PUT', '/admin/statuses/ABCD', { key, body: base })).status, 200, 'code of 4 characters');
  await bad('/admin/statuses/ABCDE', base, 'code of 5 characters');
  await bad('/admin/statuses/a-b', base, 'code with a dash');
  await bad('/admin/statuses/%20', base, 'blank code');
  await api('DELETE', '/admin/statuses/D', { key });
  await api('DELETE', '/admin/statuses/ABCD', { key });
});

t.test('editing the catalogue needs settings.manage; scoped keys never', async (t) => {
  const body = { label: 'x', color: '#112233', alarm: false };
  assertError(t, await api('PUT', '/admin/statuses/E', { session: s.crew, body }), 403, 'crew');
  assertError(t, await api('PUT', '/admin/statuses/E', { session: s.leit, body }), 403, 'dispatcher without settings.manage');
  assertError(t, await api('DELETE', '/admin/statuses/C', { session: s.crew }), 403, 'crew delete');
  for (const scope of specScopes) {
    const k = await scopedKey(server.sql, G, [scope]);
    assertError(t, await api('PUT', '/admin/statuses/E', { key: k, body }), 403, `scope ${scope}`);
    assertError(t, await api('DELETE', '/admin/statuses/C', { key: k }), 403, `scope ${scope} delete`);
  }
  t.equal((await api('PUT', '/admin/statuses/E', { session: s.boss, body })).status, 200, 'admin session');
  t.equal((await api('DELETE', '/admin/statuses/E', { session: s.setup })).status, 200, 'settings.manage');
  const audits = await auditRows(server.sql, G, 'statuses.set');
  t.ok(audits.length >= 3, 'statuses.set is audited');
  t.match(audits.at(-1), { actor_kind: 'session', actor_id: 'boss', data: { code: 'E' } });
  t.match((await auditRows(server.sql, G, 'statuses.delete')).at(-1), { actor_id: 'setup1', data: { code: 'E' } });
});

t.test('DELETE: 404 unknown, 409 while a unit is in it; a deleted code is an unknown status', async (t) => {
  assertError(t, await api('DELETE', '/admin/statuses/Z', { key }), 404, 'unknown code');
  await api('POST', '/units', { key, body: { callsign: 'RTW-1' } });
  await api('PUT', '/units/RTW-1/status', { key, body: { status: 'C' } });
  assertError(t, await api('DELETE', '/admin/statuses/C', { key }), 409, 'in use by RTW-1', /RTW-1/);
  await api('PUT', '/units/RTW-1/status', { key, body: { status: '2' } });
  t.same((await api('DELETE', '/admin/statuses/C', { key })).body, { deleted: true, code: 'C' });
  assertError(t, await api('PUT', '/units/RTW-1/status', { key, body: { status: 'C' } }), 400, 'deleted code', /unknown status C/);
  assertError(t, await api('DELETE', '/admin/statuses/C', { key }), 404, 'gone');
});

t.test('a guild holds at most 50 statuses', async (t) => {
  const have = (await api('GET', '/admin/statuses', { key })).body.statuses.length;
  for (let i = have; i < 50; i++) {
    t.equal((await api('PUT', `/admin/statuses/X${i}`, { key, body: { label: `x${i}`, color: '#101010', alarm: false } })).status, 200);
  }
  assertError(t, await api('PUT', '/admin/statuses/Y', { key, body: { label: 'y', color: '#101010', alarm: false } }), 409, '51st status');
  t.equal((await api('PUT', '/admin/statuses/X49', { key, body: { label: 'edit', color: '#101010', alarm: false } })).status, 200, 'replacing one is fine at the cap');
  for (let i = have; i < 50; i++) await api('DELETE', `/admin/statuses/X${i}`, { key });
  t.equal((await api('GET', '/admin/statuses', { key })).body.statuses.length, have);
});

t.test('the last status cannot be deleted', async (t) => {
  const G2 = '610000000000000002';
  await seedWorld(server.sql, G2, []);
  const k2 = await unscopedKey(server.sql, G2);
  for (const code of ['1', '3', '4', '5', '6', '7', '8', '0', 'A']) t.equal((await api('DELETE', `/admin/statuses/${code}`, { key: k2 })).status, 200, `delete ${code}`);
  assertError(t, await api('DELETE', '/admin/statuses/2', { key: k2 }), 409, 'last one');
  const unit = await api('POST', '/units', { key: k2, body: { callsign: 'A' } });
  t.equal(unit.body.status, '2');
});

t.test('flipping the alarm flag moves every unit in that status into or out of the alarm list, live', async (t) => {
  await api('POST', '/units', { key, body: { callsign: 'NEF-1' } });
  await api('POST', '/units', { key, body: { callsign: 'HLF-1' } });
  await api('PUT', '/units/NEF-1/status', { key, body: { status: '5' } });
  await api('PUT', '/units/HLF-1/status', { key, body: { status: '5' } });
  t.equal((await api('POST', '/admin/clock-in', { key, body: { badge: 2 } })).status, 200);
  const board = openBoard(server.url, { apiKey: key, topics: ['alarm', 'overview', 'units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same(board.state.topics.alarm, {}, 'no alarm yet');

  const flip = await api('PUT', '/admin/statuses/5', { key, body: { label: 'Sprechwunsch', color: '#1565c0', alarm: true } });
  t.equal(flip.status, 200);
  await board.until(() => Object.keys(board.state.topics.alarm!).length === 2);
  t.match(board.state.topics.alarm, { 'NEF-1': { callsign: 'NEF-1', status: '5', since: Number }, 'HLF-1': { callsign: 'HLF-1', status: '5' } });
  t.equal(board.state.topics.overview!.alarms, 2);
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body, { onDuty: true, alarms: ['HLF-1', 'NEF-1'], unit: null, incident: null }, 'GET /me/alarm follows the catalogue');
  const units = await api('GET', '/units', { key });
  t.ok(units.body.units.filter((u: any) => u.status === '5').every((u: any) => u.alarm === true), 'GET /units shows the flag');

  await api('PUT', '/admin/statuses/5', { key, body: { label: 'Sprechwunsch', color: '#1565c0', alarm: false } });
  await board.until(() => Object.keys(board.state.topics.alarm!).length === 0);
  t.equal(board.state.topics.overview!.alarms, 0);
  t.same((await api('GET', '/me/alarm', { session: s.crew })).body.alarms, []);
  const snap = await dbSnapshot(server.deps.db, G);
  t.same(board.state.topics.alarm, snap.alarm, 'board alarm equals a fresh load');
  t.same(board.state.topics.overview, snap.overview, 'board overview equals a fresh load');
  t.same(board.state.topics.units, snap.units, 'board units equal a fresh load');
});

t.test('a guild\'s catalogue is its own', async (t) => {
  const G3 = '610000000000000003';
  await seedWorld(server.sql, G3, []);
  const k3 = await unscopedKey(server.sql, G3);
  await api('PUT', '/admin/statuses/5', { key: k3, body: { label: 'Anders', color: '#123456', alarm: true } });
  const mine = (await api('GET', '/admin/statuses', { key })).body.statuses.find((x: any) => x.code === '5');
  t.match(mine, { label: 'Sprechwunsch', alarm: false }, 'guild A unchanged by guild B');
  assertError(t, await api('DELETE', '/admin/statuses/X1', { key: k3 }), 404, 'B cannot see A\'s codes');
});
