import t from 'tap';
import { GuildPositions } from '../../server/domains/positions/memory.ts';
import { createPositionDelivery } from '../../server/domains/positions/delivery.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import type { PositionsFrame } from '../../contract/positions.ts';

const at = (n: number) => Date.now() + n;

t.test('latest wins and older positions (late from another node) are ignored', async (t) => {
  const g = new GuildPositions();
  t.equal(g.apply([{ callsign: 'A', x: 1, y: 1, z: 0, heading: 0, speed: 0, at: at(0) }], true), 1);
  const v = g.version;
  t.equal(g.apply([{ callsign: 'A', x: 0, y: 0, z: 0, heading: 0, speed: 0, at: at(-1000) }], false), 0, 'an older position changes nothing');
  t.equal(g.version, v);
  t.same(g.since(v), { positions: [], removed: [] });
  g.apply([{ callsign: 'B', x: 2, y: 2, z: 0, heading: 0, speed: 0, at: at(1) }], false);
  t.same(g.since(v).positions.map((p) => p.callsign), ['B'], 'only what changed after the version');
  g.remove('A');
  t.same(g.since(v).removed, ['A']);
  t.same(g.takeDirty().map((p) => p.callsign), [], 'A was received here but is gone; B came from another node: nothing to write');
});

t.test('a slow pulling subscriber gets one frame covering everything it missed, never a backlog', async (t) => {
  const delivery = createPositionDelivery(createMemoryBus());
  t.teardown(() => delivery.close());
  const g = new GuildPositions();
  g.apply([{ callsign: 'A', x: 0, y: 0, z: 0, heading: 0, speed: 0, at: at(0) }], true);
  const stop = new AbortController();
  const frames = delivery.pull('G', g, 250, 60_000, stop.signal);
  const first = (await frames.next()).value as PositionsFrame;
  t.match(first, { full: true, positions: [{ callsign: 'A' }] });
  // The subscriber does not read for 1.2 s (about five intervals) while A moves 40 times and B appears.
  for (let i = 1; i <= 40; i++) {
    g.apply([{ callsign: 'A', x: i, y: 0, z: 0, heading: 0, speed: 0, at: at(i) }], true);
    await new Promise((r) => setTimeout(r, 30));
  }
  g.apply([{ callsign: 'B', x: 5, y: 5, z: 0, heading: 0, speed: 0, at: at(50) }], true);
  const next = (await frames.next()).value as PositionsFrame;
  t.equal(next.full, false);
  t.same(next.positions.map((p) => [p.callsign, p.x]).sort(), [['A', 40], ['B', 5]], 'one frame with the latest of each unit');
  t.equal(delivery.stats.subscriptions, 1);
  stop.abort();
  await frames.return(undefined);
  t.same(delivery.stats, { groups: 0, subscriptions: 0, frames: 0, skipped: 0 }, 'the group is gone with its last subscriber');
  t.equal(g.watchers, 0);
});
