import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { until } from '../helpers/live.ts';
import { subscribePositions } from '../helpers/positions.ts';
import { seedWorld, sessions } from '../units/world.ts';

const G = '631000000000000001';
const METRICS_TOKEN = 'metrics-token-of-the-positions-test';
const server = await startTestServer(t, { METRICS_TOKEN }, { positions: { persistEveryMs: 200 } });
const metric = async (name: string) => {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(new RegExp(`^dispatch_terminal_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
};
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'boss', nickname: 'Boss', badge: 1, admin: true },
  { userId: 'crew1', nickname: 'Cora', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
]);
const key = await unscopedKey(server.sql, G);
const game = await scopedKey(server.sql, G, ['units:unit.ingame_position'], 'game');
const s = await sessions(server, G, { crew: 'crew1', leit: 'leit1' });
for (const callsign of ['RTW-1', 'NEF-1', 'HLF-1']) {
  const res = await api('POST', '/units', { key, body: { callsign } });
  if (res.status !== 200) throw new Error(`creating ${callsign}: ${JSON.stringify(res.body)}`);
}

const put = (positions: unknown[], cred: { key?: string; session?: { cookie: string; guildId: string } } = { key: game }) =>
  api('PUT', '/integrations/ingame/positions', { ...cred, body: { positions } });

const subscribe = (cred: Parameters<typeof subscribePositions>[2], input: { intervalMs?: number } = {}) => subscribePositions(t, server.url, cred, input);

t.test('the game sends positions; GET /units shows each with its age', async (t) => {
  const res = await put([{ callsign: 'rtw-1', x: 120.5, y: -800.25, z: 30, heading: 90, speed: 12.5 }, { callsign: 'NEF-1', x: 1, y: 2 }, { callsign: 'GHOST-9', x: 0, y: 0 }]);
  t.equal(res.status, 200);
  t.same(res.body, { accepted: 2, unknown: ['GHOST-9'] }, 'callsigns match in any case; unknown ones are named');
  const units = (await api('GET', '/units', { session: s.leit })).body.units as any[];
  const by = Object.fromEntries(units.map((u) => [u.callsign, u.position]));
  t.match(by['RTW-1'], { x: 120.5, y: -800.25, z: 30, heading: 90, speed: 12.5, stale: false });
  t.ok(by['RTW-1'].ageSeconds >= 0 && by['RTW-1'].ageSeconds < 5, 'age in seconds');
  t.ok(Math.abs(Date.parse(by['RTW-1'].at) - Date.now()) < 5000, 'at is when the server received it');
  t.match(by['NEF-1'], { x: 1, y: 2, z: 0, heading: 0, speed: 0 }, 'z, heading and speed default to 0');
  t.equal(by['HLF-1'], null, 'a unit that never sent has no position');
  t.same((await put([])).body, { accepted: 0, unknown: [] }, 'an empty batch is fine');
});

t.test('bad batches are refused whole with 400, and nothing of them is taken', async (t) => {
  const before = (await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'RTW-1').position;
  const many = Array.from({ length: 501 }, (_, i) => ({ callsign: `U${i}`, x: 0, y: 0 }));
  assertError(t, await put(many), 400, '501 positions', /at most 500/);
  t.equal((await put(many.slice(0, 500))).status, 200, '500 positions pass');
  const cases: [unknown, string][] = [
    [[{ callsign: 'RTW-1', x: 1, y: 1 }, { callsign: 'rtw-1', x: 2, y: 2 }], 'the same unit twice'],
    [[{ callsign: 'RTW-1', x: 100_001, y: 0 }], 'x out of range'],
    [[{ callsign: 'RTW-1', x: 0, y: -100_001 }], 'y out of range'],
    [[{ callsign: 'RTW-1', x: 0, y: 0, heading: 361 }], 'heading out of range'],
    [[{ callsign: 'RTW-1', x: 0, y: 0, speed: -1 }], 'negative speed'],
    [[{ callsign: 'RTW-1', x: '5', y: 0 }], 'x as a string'],
    [[{ callsign: 'RTW-1', y: 0 }], 'x missing'],
    [[{ callsign: 'RTW 1 ', x: 0, y: 0 }], 'a callsign with a trailing space'],
    [[{ callsign: 'RTW-1', x: 0, y: 0, vehicle: 'ambulance' }], 'an unknown field'],
    [[null], 'null entry'],
  ];
  for (const [positions, label] of cases) assertError(t, await put(positions as unknown[]), 400, label);
  assertError(t, await api('PUT', '/integrations/ingame/positions', { key: game, body: { positions: {} } }), 400, 'positions not a list');
  assertError(t, await api('PUT', '/integrations/ingame/positions', { key: game, body: [] }), 400, 'body a list');
  const after = (await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'RTW-1').position;
  t.same({ x: after.x, y: after.y, at: after.at }, { x: before.x, y: before.y, at: before.at }, 'the stored position is unchanged');
});

t.test('more than 20 PUTs at once by one key get 429 with Retry-After; other keys and the held positions are untouched', async (t) => {
  const flood = await scopedKey(server.sql, G, ['units:unit.ingame_position'], 'flood');
  // 60 in a row: the burst of 20 passes, and however slow the box, the bucket (10 a second) cannot refill the other 40.
  const answers = [];
  for (let i = 0; i < 60; i++) answers.push(await put([{ callsign: 'HLF-1', x: 1000 + i, y: 7 }], { key: flood }));
  const passed = answers.filter((r) => r.status === 200).length;
  t.ok(passed >= 20 && passed < 60, `the burst of 20 passes, the rest is refused (${passed} of 60 passed)`);
  const refused = answers.find((r) => r.status === 429)!;
  assertError(t, refused, 429, 'past the burst', /at most 600 position updates a minute/);
  t.ok(Number(refused.headers.get('retry-after')) >= 1, `Retry-After: ${refused.headers.get('retry-after')}`);
  const lastAccepted = answers.map((r) => r.status).lastIndexOf(200);
  const held = (await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'HLF-1').position;
  t.equal(held.x, 1000 + lastAccepted, 'the last accepted position is held; refused ones took nothing');
  t.equal((await put([{ callsign: 'HLF-1', x: 5, y: 5 }])).status, 200, 'another key of the guild still sends');
  await new Promise((r) => setTimeout(r, 300));
  t.equal((await put([{ callsign: 'HLF-1', x: 6, y: 6 }], { key: flood })).status, 200, 'the bucket refills at 10 a second');
});

t.test('who may send positions: the scope, or a person who manages dispatch', async (t) => {
  const body = [{ callsign: 'HLF-1', x: 5, y: 5 }];
  assertError(t, await put(body, { key: await scopedKey(server.sql, G, ['units:unit.ingame_status']) }), 403, 'a key with another scope', /units:unit\.ingame_position/);
  assertError(t, await put(body, { session: s.crew }), 403, 'crew without dispatch.manage');
  t.equal((await put(body, { session: s.leit })).status, 200, 'a dispatcher');
  t.equal((await put(body, { key })).status, 200, 'an unscoped key');
  assertError(t, await put(body, {}), 401, 'no credential');
});

t.test('live.positions: a full frame, then at most one frame per interval with only what moved', async (t) => {
  const board = subscribe({ key }, { intervalMs: 300 });
  await until(() => board.frames.length >= 1, 'the full frame');
  const first = board.frames[0].frame;
  t.match(first, { kind: 'positions', full: true, removed: [], staleAfterMs: 60_000 });
  t.same(first.positions.map((p) => p.callsign).sort(), ['HLF-1', 'NEF-1', 'RTW-1'], 'every known position');

  // Ten updates of one unit within an interval: the board gets the last one, in one frame.
  const start = board.frames.length;
  for (let i = 1; i <= 10; i++) t.equal((await put([{ callsign: 'RTW-1', x: 1000 + i, y: 0 }])).status, 200);
  await until(() => board.frames.some((f) => f.frame.positions.some((p) => p.x === 1010)), 'the last position', 5000);
  await new Promise((r) => setTimeout(r, 700));
  const later = board.frames.slice(start);
  t.ok(later.length <= 4, `ten updates arrived in ${later.length} frames (one per 300 ms interval at most)`);
  for (const { frame } of later) {
    t.equal(frame.full, false);
    t.same(frame.positions.map((p) => p.callsign), ['RTW-1'], 'only the unit that moved');
  }
  for (let i = 1; i < later.length; i++) t.ok(later[i].receivedAt - later[i - 1].receivedAt >= 200, 'frames are an interval apart');
  const count = board.frames.length;
  await new Promise((r) => setTimeout(r, 800));
  t.equal(board.frames.length, count, 'no frame while nothing moves');
  t.equal(await metric('position_subscriptions'), 1, 'the metrics count the subscription');
  t.equal(await metric('position_frames_total'), board.frames.length, 'and every frame it got');
  t.ok(await metric('positions_received_total') >= 12, 'and the positions taken in');
});

t.test('a deleted unit leaves the map: its callsign comes in removed', async (t) => {
  t.equal((await api('POST', '/units', { key, body: { callsign: 'TMP-1' } })).status, 200);
  await put([{ callsign: 'TMP-1', x: 9, y: 9 }]);
  const board = subscribe({ key }, { intervalMs: 250 });
  await until(() => board.frames[0]?.frame.positions.some((p) => p.callsign === 'TMP-1'), 'TMP-1 in the full frame');
  t.equal((await api('DELETE', '/units/TMP-1', { key })).status, 200);
  await until(() => board.frames.some((f) => f.frame.removed.includes('TMP-1')), 'removed TMP-1', 5000);
});

t.test('who may watch positions: what GET /units needs', async (t) => {
  const crew = subscribe({ session: s.crew }, {});
  await until(() => crew.errors.length > 0, 'a refusal');
  t.match(crew.errors[0].data, { code: 'FORBIDDEN', httpStatus: 403 }, 'crew without dispatch.view');
  const scoped = subscribe({ key: game }, {});
  await until(() => scoped.errors.length > 0, 'a refusal');
  t.match(scoped.errors[0].data, { code: 'FORBIDDEN' }, 'a key with only the position scope');
  const bad = subscribe({ key }, { intervalMs: 50 });
  await until(() => bad.errors.length > 0, 'a refusal');
  t.match(bad.errors[0].data, { code: 'BAD_REQUEST' }, 'an interval below 250 ms');
});

t.test('positions are written at most every persist interval and come back after a restart', async (t) => {
  await put([{ callsign: 'NEF-1', x: -321, y: 654, heading: 180 }]);
  let row: any;
  for (let i = 0; i < 50 && !row; i++) {
    [row] = await server.sql`select p.x, p.y, p.heading from unit_positions p join units u on u.guild_id = p.guild_id and u.id = p.unit_id where p.guild_id = ${G} and u.callsign = 'NEF-1' and p.x = -321`;
    if (!row) await new Promise((r) => setTimeout(r, 100));
  }
  t.match(row, { x: -321, y: 654, heading: 180 }, 'written by the periodic write');
  const other = await startTestServer(t, {}, { databaseUrl: server.databaseUrl });
  const units = (await client(other)('GET', '/units', { key })).body.units as any[];
  t.match(units.find((u) => u.callsign === 'NEF-1').position, { x: -321, y: 654, heading: 180 }, 'a node that never received it shows the last persisted position');
});

t.test('AAO proposals take the nearest units first', async (t) => {
  await api('PUT', '/admin/unit-types/RTW', { key, body: { label: 'Rettungswagen' } });
  await api('POST', '/admin/keywords', { key, body: { keyword: 'RD 1', requirements: [{ type: 'RTW', count: 1 }] } });
  for (const callsign of ['RTW-A', 'RTW-B']) t.equal((await api('POST', '/units', { key, body: { callsign, type: 'RTW', orgUnit: callsign === 'RTW-A' ? 'Wache 1' : 'Wache 2' } })).status, 200);
  const sheet = await api('POST', '/incidents', { key, body: { keyword: 'RD 1', location: { text: 'Legion Square', x: 200, y: -900 } } });
  t.equal(sheet.status, 200, JSON.stringify(sheet.body));
  const proposal = async () => (await api('GET', `/incidents/${sheet.body.number}/proposal`, { key })).body;
  t.same((await proposal()).requirements[0].proposed, ['RTW-A'], 'without positions: station order');
  await put([{ callsign: 'RTW-A', x: 3000, y: 3000 }, { callsign: 'RTW-B', x: 210, y: -880 }]);
  const p = await proposal();
  t.same(p.requirements[0].proposed, ['RTW-B'], 'with positions: the nearest');
  t.ok(p.units[0].distance > 0 && p.units[0].distance < 50, `its distance ${p.units[0].distance}`);
});

t.test('the guild\'s stale time (map settings) marks old positions and reaches live frames', async (t) => {
  const board = subscribe({ key }, { intervalMs: 250 });
  await until(() => board.frames.length >= 1, 'the full frame');
  t.equal((await api('PUT', '/admin/map', { key, body: { staleAfterSeconds: 10 } })).status, 200);
  t.equal((await api('POST', '/units', { key, body: { callsign: 'OLD-1' } })).status, 200);
  // A position received 20 s ago (as if the game stopped sending then), put into the node's memory.
  (await server.deps.positions.guild(G)).apply([{ callsign: 'OLD-1', x: 1, y: 1, z: 0, heading: 0, speed: 0, at: Date.now() - 20_000 }], false);
  await put([{ callsign: 'HLF-1', x: 7, y: 7 }]);
  const by = Object.fromEntries(((await api('GET', '/units', { key })).body.units as any[]).map((u) => [u.callsign, u.position]));
  t.match(by['OLD-1'], { stale: true }, '20 s old with a stale time of 10 s');
  t.ok(by['OLD-1'].ageSeconds >= 20);
  t.match(by['HLF-1'], { stale: false });
  await until(() => board.frames.some((f) => f.frame.staleAfterMs === 10_000), 'a frame with the new stale time', 5000);
  t.equal((await api('PUT', '/admin/map', { key, body: { staleAfterSeconds: 60 } })).status, 200);
});
