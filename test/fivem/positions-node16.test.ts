import t from 'tap';
import { join } from 'node:path';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { buildResource, eventually, node16Harness } from './helpers.ts';

// Issue 31, unit positions: the built server.js in the registry's Node 16 (test/fivem/harness.cjs)
// against the real server. Players' games send positions as net events (what client.lua sends, see
// positions-lua.test.ts); the resource takes each for the unit the server says the player occupies
// (never a callsign from the game), batches them per interval into PUT /integrations/ingame/positions,
// and they show in GET /units. The export sendPositions takes callsigns from trusted server code.
const G = '731000000000000031';
const IDA = '320000000000000311';
const JAN = '320000000000000312';
const KAI = '320000000000000313';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: IDA, nickname: 'Ida', badge: '7', rank: 'crew' },
  { userId: JAN, nickname: 'Jan', badge: '8', rank: 'crew' },
  { userId: KAI, nickname: 'Kai', badge: '9', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const must = async (p: ReturnType<typeof api>) => {
  const res = await p;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
for (const callsign of ['RTW 1', 'NEF 2', 'HLF 3']) await must(api('POST', '/units', { key, body: { callsign } }));
for (const badge of [7, 8, 9]) await must(api('POST', '/admin/clock-in', { key, body: { badge } }));
await must(api('PUT', `/units/RTW%201/members/${IDA}`, { key }));
await must(api('PUT', `/units/NEF%202/members/${JAN}`, { key }));

const resource = join(buildResource(t), 'dispatch-terminal');
// Player 4 is Ida (RTW 1), player 3 Jan (NEF 2), player 5 Kai (in no unit).
const fivem = await node16Harness(t, resource, {
  convars: { dispatch_terminal_url: server.url, dispatch_terminal_key: key },
  players: { 3: [`discord:${JAN}`], 4: [`discord:${IDA}`], 5: [`discord:${KAI}`] },
});
await fivem.send({ op: 'config', config: { Alarms: { enabled: false }, Positions: { intervalMs: 1000 } } });
const net = (source: number, event: string, ...args: unknown[]) => fivem.send({ op: 'net', event: `dispatch-terminal:${event}`, source, args });
const positionOf = async (callsign: string) => (await must(api('GET', '/units', { key }))).units.find((u: any) => u.callsign === callsign).position;
const told = async () => (await fivem.send({ op: 'sent' })).sent.filter((s: any) => s.name === 'dispatch-terminal:unit').map((s: any) => [s.target, s.args[0]]);

t.test('each game is told its unit (nil for none) from the server\'s knowledge', async (t) => {
  t.match((await fivem.send({ op: 'output' })).output, [/positions every 1000 ms/]);
  for (const p of [3, 4, 5]) await net(p, 'positionsReady');
  await eventually(async () => (await told()).length === 3, 'three players told', 5000);
  t.same((await told()).sort(), [['3', 'NEF 2'], ['4', 'RTW 1'], ['5', null]]);
});

t.test('players\' positions reach GET /units, batched per interval; a game cannot post for a unit it does not occupy', async (t) => {
  await net(4, 'position', { x: 100.5, y: -200.25, z: 30, heading: 90, speed: 12.5, callsign: 'NEF 2' });
  await net(3, 'position', { x: 300, y: 400, z: 20, heading: 180, speed: 0 });
  await net(5, 'position', { x: 1, y: 1, callsign: 'HLF 3' });
  await net(5, 'position', { x: 2, y: 2, callsign: 'NEF 2' });
  await eventually(async () => (await positionOf('RTW 1')) !== null && (await positionOf('NEF 2')) !== null, 'both positions on the board', 8000);
  t.match(await positionOf('RTW 1'), { x: 100.5, y: -200.25, z: 30, heading: 90, speed: 12.5, stale: false }, 'Ida\'s position is RTW 1\'s, whatever callsign her game named');
  t.match(await positionOf('NEF 2'), { x: 300, y: 400, heading: 180 }, 'Jan\'s is NEF 2\'s; Kai (in no unit) naming NEF 2 changed nothing');
  // One request for both units: the server stamps a request's positions with one time. (A tick may
  // fall between the two events; of three tries at least one pair shares a batch.)
  let together = (await positionOf('RTW 1')).at === (await positionOf('NEF 2')).at;
  for (let i = 0; i < 2 && !together; i++) {
    await new Promise((r) => setTimeout(r, 1100));
    const before = (await positionOf('NEF 2')).at;
    await net(4, 'position', { x: 100.5, y: -200.25, z: 30, heading: 90, speed: 12.5 });
    await net(3, 'position', { x: 300, y: 400, z: 20, heading: 180, speed: 0 });
    await eventually(async () => (await positionOf('NEF 2')).at !== before, 'sent again', 8000);
    await new Promise((r) => setTimeout(r, 1100));
    together = (await positionOf('RTW 1')).at === (await positionOf('NEF 2')).at;
  }
  t.ok(together, 'RTW 1 and NEF 2 arrived in one PUT');
  await new Promise((r) => setTimeout(r, 1500)); // one more interval: nothing of Kai's was waiting either
  t.match(await positionOf('NEF 2'), { x: 300, y: 400 });
  t.equal(await positionOf('HLF 3'), null, 'HLF 3 (no crew) has no position');
});

t.test('several crew in one unit: the latest wins; a game is limited to one position per half interval', async (t) => {
  await must(api('PUT', `/units/RTW%201/members/${KAI}`, { key }));
  await net(5, 'positionsReady');
  await eventually(async () => (await told()).some(([p, c]: [string, string]) => p === '5' && c === 'RTW 1'), 'Kai told RTW 1', 5000);
  await new Promise((r) => setTimeout(r, 600));
  await net(4, 'position', { x: 111, y: 111 });
  await net(5, 'position', { x: 222, y: 222 });
  await net(5, 'position', { x: 333, y: 333 }); // too soon after Kai's previous one: dropped
  await eventually(async () => (await positionOf('RTW 1'))?.x !== 100.5, 'RTW 1 moved', 8000);
  t.match(await positionOf('RTW 1'), { x: 222, y: 222 });
});

t.test('a player who left the unit sends nothing for it any more', async (t) => {
  await must(api('DELETE', `/units/NEF%202/members/${JAN}`, { key }));
  await net(3, 'positionsReady');
  await eventually(async () => (await told()).some(([p, c]: [string, string | null]) => p === '3' && c === null), 'Jan told no unit', 5000);
  await net(3, 'position', { x: 999, y: 999 });
  await new Promise((r) => setTimeout(r, 2500));
  t.match(await positionOf('NEF 2'), { x: 300, y: 400 });
});

t.test('the export sendPositions: callsigns from server code, 500 per request, a plain result', async (t) => {
  const list = [{ callsign: 'HLF 3', x: 555, y: 666, heading: 45 }, ...Array.from({ length: 1199 }, (_, i) => ({ callsign: `X ${i}`, x: i, y: 0 }))];
  const r = (await fivem.send({ op: 'export', name: 'sendPositions', args: [list, { $function: true }] })).result;
  t.match(r, { ok: true, data: { accepted: 1 } }, '1,200 positions in three requests');
  t.equal(r.data.unknown.length, 1199, 'the callsigns of no unit are named');
  t.match(await positionOf('HLF 3'), { x: 555, y: 666, heading: 45 });
  const bad = (await fivem.send({ op: 'export', name: 'sendPositions', args: [[{ callsign: 'HLF 3', x: 'a', y: 1 }], { $function: true }] })).result;
  t.match(bad, { ok: false, status: 400, reason: 'validation', error: /positions\[1\]/ });
});

t.test('a key with only units:unit.ingame_position serves the export and the players\' stream', async (t) => {
  const scoped = await node16Harness(t, resource, {
    convars: { dispatch_terminal_url: server.url, dispatch_terminal_key: await scopedKey(server.sql, G, ['units:unit.ingame_position']) },
    players: { 4: [`discord:${IDA}`] },
  });
  await scoped.send({ op: 'config', config: { Alarms: { enabled: false } } });
  const r = (await scoped.send({ op: 'export', name: 'sendPositions', args: [[{ callsign: 'HLF 3', x: 7, y: 8 }], { $function: true }] })).result;
  t.match(r, { ok: true, data: { accepted: 1, unknown: [] } });
  t.match(await positionOf('HLF 3'), { x: 7, y: 8 });
  await scoped.send({ op: 'net', event: 'dispatch-terminal:positionsReady', source: 4, args: [] });
  await eventually(async () => (await scoped.send({ op: 'sent' })).sent.some((s: any) => s.name === 'dispatch-terminal:unit' && s.args[0] === 'RTW 1'), 'Ida is told her unit', 5000);
  await scoped.send({ op: 'net', event: 'dispatch-terminal:position', source: 4, args: [{ x: 4321, y: 1234, z: 0, heading: 10, speed: 0 }] });
  await eventually(async () => (await positionOf('RTW 1'))?.x === 4321, 'Ida\'s position through the scoped key', 8000);
  t.notOk((await scoped.send({ op: 'output' })).output.some((l: string) => /may not read GET \/units/.test(l)), 'the crews are read with the scope');
});
