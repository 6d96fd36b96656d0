import t from 'tap';
import { createPositionBatch, MAX_BACKOFF_MS, positionOf } from '../../fivem/server/position-batch.ts';
import { positionsOfExport } from '../../fivem/server/positions.ts';

// Issue 31: the resource's position batch on its own clock, with `send` recording what would go to
// PUT /integrations/ingame/positions (the end-to-end run against the real server is
// positions-node16.test.ts). One entry per unit, the latest wins; 500 per request; after a failure
// nothing is resent and the next try waits longer; a position too old to be fresh is never sent.
function setup(fail: (n: number) => unknown = () => null) {
  let clock = 1_000_000;
  const sent: { callsign: string; x: number }[][] = [];
  const logs: string[] = [];
  const batch = createPositionBatch({
    intervalMs: 1000, now: () => clock, log: (m) => logs.push(m),
    send: async (p) => {
      sent.push(p.map(({ callsign, x }) => ({ callsign, x })));
      const err = fail(sent.length);
      if (err) throw err;
      return { accepted: p.length, unknown: p.filter((q) => q.callsign.startsWith('X')).map((q) => q.callsign) };
    },
  });
  return { batch, sent, logs, advance: (ms: number) => { clock += ms; } };
}

t.test('the latest position per unit wins; one batch per tick; 500 per request', async (t) => {
  const { batch, sent, advance } = setup();
  for (let i = 0; i < 10_000; i++) batch.put({ callsign: `RTW ${i % 3}`, x: i, y: 0 });
  t.equal(batch.pending, 3, '10,000 updates of 3 units wait as 3');
  await batch.tick();
  t.same(sent, [[{ callsign: 'RTW 0', x: 9999 }, { callsign: 'RTW 1', x: 9997 }, { callsign: 'RTW 2', x: 9998 }]]);
  await batch.tick();
  t.equal(sent.length, 1, 'nothing new: no request');
  for (let i = 0; i < 1200; i++) batch.put({ callsign: `U${i}`, x: i, y: 0 });
  advance(1000);
  await batch.tick();
  t.same(sent.slice(1).map((s) => s.length), [500, 500, 200], '1,200 units: three requests');
});

t.test('a failure: nothing resent, the next try waits 2, 4, 8 … s up to 60 s, or the Retry-After', async (t) => {
  let failing = true;
  const { batch, sent, logs, advance } = setup(() => (failing ? Object.assign(new Error('Service Unavailable'), { status: 503 }) : null));
  let clock = 0;
  const at: number[] = [];
  while (at.length < 9) {
    batch.put({ callsign: 'RTW 1', x: clock, y: 0 });
    const before = sent.length;
    await batch.tick();
    if (sent.length > before) at.push(clock);
    advance(500);
    clock += 500;
  }
  t.same(at.slice(1).map((a, i) => a - at[i]), [2000, 4000, 8000, 16_000, 32_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS],
    'one try each, then the doubled wait (a unit sending every 500 ms meanwhile)');
  t.ok(batch.pending <= 1, 'at most one entry per unit waits');
  t.same(logs, ['positions not sent: 503 Service Unavailable (next try in 2 s)'], 'the same failure is said once');
  failing = false;
  advance(MAX_BACKOFF_MS);
  batch.put({ callsign: 'RTW 1', x: 99, y: 0 });
  await batch.tick();
  t.same(sent.at(-1), [{ callsign: 'RTW 1', x: 99 }]);
  t.equal(batch.failures, 0);
  t.equal(logs.at(-1), 'positions are sent again');

  const r = setup((n) => (n === 1 ? Object.assign(new Error('Too Many Requests'), { status: 429, retryAfterS: 7 }) : null));
  r.batch.put({ callsign: 'RTW 1', x: 1, y: 0 });
  await r.batch.tick();
  r.batch.put({ callsign: 'RTW 1', x: 2, y: 0 });
  r.advance(6900);
  await r.batch.tick();
  t.equal(r.sent.length, 1, 'the Retry-After (7 s) is kept');
  r.advance(100);
  await r.batch.tick();
  t.same(r.sent[1], [{ callsign: 'RTW 1', x: 2 }], 'then the latest, not the failed one');
});

t.test('a position older than 15 s is dropped, not sent as fresh; unknown callsigns are said once', async (t) => {
  const { batch, sent, logs, advance } = setup();
  batch.put({ callsign: 'RTW 1', x: 1, y: 0 });
  advance(15_001);
  batch.put({ callsign: 'RTW 2', x: 2, y: 0 });
  await batch.tick();
  t.same(sent, [[{ callsign: 'RTW 2', x: 2 }]]);
  batch.put({ callsign: 'X 1', x: 1, y: 0 });
  await batch.tick();
  batch.put({ callsign: 'X 1', x: 2, y: 0 });
  await batch.tick();
  t.same(logs, ['positions: the board has no unit "X 1"']);
});

t.test('positions are checked against the contract\'s bounds', async (t) => {
  t.same(positionOf('RTW 1', { x: 1.234, y: -2, z: 30.126, heading: -90, speed: 13.9 }), { callsign: 'RTW 1', x: 1.23, y: -2, z: 30.13, heading: 270, speed: 13.9 });
  t.same(positionOf('RTW 1', { x: 1, y: 2, heading: 359.999, speed: 5000 }), { callsign: 'RTW 1', x: 1, y: 2, heading: 0, speed: 1000 });
  for (const bad of [null, 'x', {}, { x: 1 }, { x: '1', y: 2 }, { x: Infinity, y: 2 }, { x: 100_001, y: 0 }]) t.equal(positionOf('RTW 1', bad), null, JSON.stringify(bad));
  t.same(positionOf('RTW 1', { x: 1, y: 2, z: 20_000 }), { callsign: 'RTW 1', x: 1, y: 2 }, 'a z out of bounds is left out');
  t.same(positionsOfExport([{ callsign: 'RTW 1', x: 1, y: 1 }, { callsign: 'NEF 2', x: 2, y: 2 }, { callsign: 'rtw 1', x: 3, y: 3 }]),
    [{ callsign: 'NEF 2', x: 2, y: 2 }, { callsign: 'rtw 1', x: 3, y: 3 }], 'a unit named twice (in any case): its last entry');
  t.throws(() => positionsOfExport([]), { message: /must be a list/ });
  t.throws(() => positionsOfExport([{ callsign: 'RTW 1', x: 1, y: 1 }, { callsign: '', x: 1, y: 1 }]), { message: /positions\[2\]/ });
  t.throws(() => positionsOfExport(Array.from({ length: 5001 }, () => ({ callsign: 'a', x: 0, y: 0 }))), { message: /at most 5000/ });
});
