import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLog } from '../../server/core/log.ts';
import { createPanelScheduler } from '../../server/chat/panel.ts';

const log = createLog('silent');
const timing = { firstMs: 50, minGapMs: 300, retryMs: [100, 400] as const };

t.test('a burst of refreshes is at most two edits, the last one after the burst', async (t) => {
  const edits: number[] = [];
  const start = Date.now();
  // The product's ratio: a burst shorter than the gap between edits (here 1 s, 100 refreshes in ~0.2 s).
  const burstTiming = { ...timing, minGapMs: 1_000 };
  const s = createPanelScheduler(log, async () => void edits.push(Date.now() - start), burstTiming);
  t.teardown(() => s.stop());
  for (let i = 0; i < 100; i++) {
    s.refresh('g1');
    await sleep(2);
  }
  const burstEnd = Date.now() - start;
  t.ok(burstEnd < burstTiming.minGapMs, `the burst took ${burstEnd} ms`);
  await sleep(burstTiming.minGapMs + 300);
  t.equal(edits.length, 2, `two edits for 100 refreshes (${edits.join(', ')} ms)`);
  t.ok(edits[1] >= burstEnd, 'the second edit comes after the last refresh, so it shows it');
  t.ok(edits[1] - edits[0] >= burstTiming.minGapMs - 5, 'edits are at least minGapMs apart');
});

t.test('guilds are independent, and a quiet guild edits after firstMs', async (t) => {
  const edits: string[] = [];
  const s = createPanelScheduler(log, async (g) => void edits.push(g), timing);
  t.teardown(() => s.stop());
  s.refresh('a');
  s.refresh('b');
  await sleep(120);
  t.same(edits.sort(), ['a', 'b']);
});

t.test('a refresh during a running edit causes one more edit (the running one may have read old state)', async (t) => {
  let running = 0;
  const edits: number[] = [];
  const s = createPanelScheduler(log, async () => {
    running++;
    await sleep(100);
    edits.push(Date.now());
    running--;
  }, timing);
  t.teardown(() => s.stop());
  s.refresh('g');
  await sleep(80); // the edit is running now
  t.equal(running, 1);
  s.refresh('g');
  s.refresh('g');
  await sleep(600);
  t.equal(edits.length, 2);
});

t.test('a failing edit is retried with backoff until it succeeds; nothing waits for it', async (t) => {
  let calls = 0;
  const s = createPanelScheduler(log, async () => {
    calls++;
    if (calls <= 3) throw new Error('Discord is down');
  }, timing);
  t.teardown(() => s.stop());
  const before = Date.now();
  s.refresh('g');
  t.ok(Date.now() - before < 5, 'refresh returns at once');
  await sleep(2_000);
  t.equal(calls, 4, 'three failures, then the edit that catches up');
  await sleep(600);
  t.equal(calls, 4, 'no edits after success without changes');
});

t.test('stop cancels pending edits', async (t) => {
  let calls = 0;
  const s = createPanelScheduler(log, async () => void calls++, timing);
  s.refresh('g');
  s.stop();
  s.refresh('g');
  await sleep(150);
  t.equal(calls, 0);
});
