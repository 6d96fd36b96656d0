import t from 'tap';
import { join } from 'node:path';
import { buildResource, runLua } from './helpers.ts';

// Issue 31, unit positions from the game: client.lua run by a real Lua 5.4 against the stand-in of
// the natives on its game clock (test/fivem/lua/positions-run.lua). While the server says the player
// occupies a unit, the vehicle's (else the ped's) coords, heading and speed go to the server as a
// net event: when moved more than 2 m (or turned), else every 10 s, never more often than
// Config.Positions.intervalMs (1000–5000), and never with a callsign (the server decides the unit).
const resource = join(buildResource(t), 'dispatch-terminal');

type Rec = { kind: string; name?: string; label?: string; at: number; args?: any[] };
/** The positions sent between two marks of the run. */
function between(record: Rec[], from: string, to: string): Rec[] {
  const start = record.findIndex((r) => r.label === from);
  const end = record.findIndex((r, i) => i > start && r.kind === 'mark');
  t.equal(record[end]?.label, to, `mark ${to} follows ${from}`);
  return record.slice(start + 1, end).filter((r) => r.name === 'dispatch-terminal:position');
}
const gaps = (rs: Rec[]) => rs.slice(1).map((r, i) => r.at - rs[i].at);

t.test('config.lua switches positions on, every 1500 ms', async (t) => {
  const run = await runLua('exports-run.lua', resource, join(resource, 'server.lua'));
  t.match(run.record.find((r: any) => r.kind === 'event').args[0], { Positions: { enabled: true, intervalMs: 1500 } });
});

t.test('a player in a unit: the right payload, when moved, at most once per interval, kept alive every 10 s', async (t) => {
  const run = await runLua('positions-run.lua', resource);
  const record: Rec[] = run.record;
  t.same(record.filter((r) => r.kind === 'serverEvent')[0], { kind: 'serverEvent', name: 'dispatch-terminal:positionsReady', args: {}, at: 0 },
    'at start the game asks the server for its unit');
  t.same(between(record, 'no unit', 'in RTW 1'), [], 'outside a unit nothing is sent');
  const first = between(record, 'in RTW 1', 'standing');
  t.same(first.map((r) => r.args), [[{ x: 215.5, y: -810.25, z: 30.75, heading: 90, speed: 0 }]], 'told a unit: the ped\'s position at the next interval');
  t.same(between(record, 'standing', 'walked 5 m'), [], 'standing still for 6 s: nothing');
  t.same(between(record, 'walked 5 m', 'walked 1 m').map((r) => r.args![0].x), [220.5], 'moved 5 m: sent');
  t.same(between(record, 'walked 1 m', 'moving every 250 ms'), [], 'moved 1 m: below the threshold');
  const moving = between(record, 'moving every 250 ms', 'in a vehicle');
  t.ok(moving.length >= 2 && moving.length <= 3, `moving for 4 s (16 moves): ${moving.length} positions, one per 1.5 s interval`);
  t.ok(gaps(moving).every((g) => g >= 1500), `never more often than the interval: ${gaps(moving)}`);
  t.same(between(record, 'in a vehicle', 'parked').map((r) => r.args), [[{ x: 400.25, y: -900.5, z: 29.25, heading: 181.5, speed: 13.9 }]],
    'in a vehicle: the vehicle\'s coords, heading and speed');
  const parked = between(record, 'parked', 'left the unit');
  t.equal(parked.length, 2, 'parked for 25 s: a keep-alive every 10 s');
  t.ok(gaps(parked).every((g) => g >= 10_000 && g <= 10_000 + 1500), `keep-alives ${gaps(parked)} ms apart`);
  t.same(between(record, 'left the unit', 'end'), [], 'told no unit: nothing more');
  const sent = record.filter((r) => r.name === 'dispatch-terminal:position');
  t.ok(gaps(sent).every((g) => g >= 1500), 'no two positions closer than the interval');
  t.ok(sent.every((r) => r.args!.length === 1 && !('callsign' in r.args![0])), 'no callsign from the game');
});

t.test('Config.Positions.intervalMs is clamped to 1000–5000', async (t) => {
  const fast = between((await runLua('positions-run.lua', resource, '200')).record, 'moving every 250 ms', 'in a vehicle');
  t.ok(fast.length >= 3 && gaps(fast).every((g) => g === 1000), `200 -> 1000 ms: ${gaps(fast)}`);
  const slow = (await runLua('positions-run.lua', resource, '60000')).record.filter((r: Rec) => r.name === 'dispatch-terminal:position');
  t.ok(slow.length >= 2 && gaps(slow).every((g: number) => g >= 5000 && g % 5000 === 0), `60000 -> 5000 ms: ${gaps(slow)}`);
});
