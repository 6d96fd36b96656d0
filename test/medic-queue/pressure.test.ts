/**
 * Issue 20, queue: pressure. 100,000 vitals samples and 100 injuries are enqueued while the server
 * is unreachable, with a bound of 2,000 waiting events (MEDIC_PRESSURE_VITALS, MEDIC_PRESSURE_BOUND).
 * Every injury arrives; the vitals that arrive are exactly the newest ones (dropped oldest first),
 * the drops are counted and stay dropped across a restart; the log on disk is compacted meanwhile.
 * A queue full of non-vitals grows past the bound and says so.
 */
import t from 'tap';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';
import { assertFlushed, deadPort, envInt, medicServer, queueDir, storedEvents } from './helpers.ts';

const VITALS = envInt('MEDIC_PRESSURE_VITALS', 100_000);
const BOUND = envInt('MEDIC_PRESSURE_BOUND', 2000);
const INJURIES = 100;
const dirBytes = (dir: string) => readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);

t.test(`${VITALS} vitals and ${INJURIES} injuries, bound ${BOUND}, server down: every injury arrives, the oldest vitals are dropped`, { timeout: 120_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const proxy = await tcpProxy(await deadPort()); // down from the start
  t.teardown(() => proxy.close());
  const dir = queueDir(t);
  const logs: string[] = [];
  const opts = { baseUrl: proxy.url, apiKey: key, dir, maxQueued: BOUND, backoff: { baseMs: 200, maxMs: 1000 }, log: (_l: string, m: string) => logs.push(m) };
  const sync = createMedicSync(opts);
  const prefix = `p${Date.now().toString(36)}`;
  const t0 = Date.now() - 3_600_000;
  const every = Math.floor(VITALS / INJURIES);
  const vitalIds: string[] = [], injuryIds: string[] = [];
  let maxDirBytes = 0;
  const started = Date.now();
  for (let v = 0, n = 0; v < VITALS; v++) {
    const citizenId = `${prefix}-c${v % 4}`;
    if (v % every === 0 && injuryIds.length < INJURIES) {
      const id = `${prefix}-i${injuryIds.length}`;
      injuryIds.push(id);
      sync.enqueue({ id, type: 'injury_added', citizenId, at: t0 + n++, injuryId: id, bodyPart: 'chest', kind: 'gunshot', severity: 4 });
    }
    const id = `${prefix}-v${v}`;
    vitalIds.push(id);
    sync.enqueue({ id, type: 'vitals', citizenId, at: t0 + n++, heartRate: 40 + (v % 100), spo2: 80 + (v % 20) });
    if (v % 10_000 === 0) maxDirBytes = Math.max(maxDirBytes, dirBytes(dir));
  }
  const enqueueMs = Date.now() - started;
  maxDirBytes = Math.max(maxDirBytes, dirBytes(dir));
  const kept = BOUND - INJURIES;
  const stats = sync.stats();
  t.equal(stats.queued, BOUND, `the queue holds the bound (${BOUND})`);
  t.equal(stats.dropped, VITALS - kept, `${VITALS - kept} vitals were dropped and counted`);
  t.equal(stats.overBound, false, 'not over the bound: vitals made room');
  t.ok(maxDirBytes < 10 * 1024 * 1024, `the log on disk stayed small: at most ${(maxDirBytes / 1048576).toFixed(1)} MiB (dropped samples are compacted away)`);
  t.comment(`enqueued ${VITALS + INJURIES} events in ${enqueueMs} ms; ${stats.walBytes} bytes written to the log`);
  await sync.stop();

  // The drops survive a restart: the next start finds exactly the kept events.
  const again = createMedicSync(opts);
  t.teardown(() => again.stop());
  t.equal(again.stats().restored, BOUND, 'a restart restores the same events, not the dropped ones');

  proxy.target = server.port;
  await assertFlushed(t, again, 60_000, 'delivered once the server is reachable');
  const stored = new Set((await storedEvents(server.sql, prefix)).map((s) => s.id));
  t.same(injuryIds.filter((id) => !stored.has(id)), [], `all ${INJURIES} injuries arrived`);
  const arrivedVitals = vitalIds.filter((id) => stored.has(id));
  t.equal(arrivedVitals.length, kept, `${kept} vitals arrived`);
  t.same(arrivedVitals, vitalIds.slice(-kept), 'exactly the newest ones: the oldest were dropped first');
});

t.test('a queue full of non-vitals grows past the bound and says so', { timeout: 30_000 }, async (t) => {
  const proxy = await tcpProxy(await deadPort());
  t.teardown(() => proxy.close());
  const logs: string[] = [];
  const sync = createMedicSync({ baseUrl: proxy.url, apiKey: 'stmp_x', dir: queueDir(t), maxQueued: 10, backoff: { baseMs: 5000, maxMs: 5000 }, log: (_l, m) => logs.push(m) });
  t.teardown(() => sync.stop());
  for (let i = 0; i < 5; i++) sync.enqueue({ type: 'vitals', citizenId: 'c1', heartRate: 80 });
  for (let i = 0; i < 30; i++) sync.enqueue({ type: 'treatment_applied', citizenId: 'c1', treatment: 'CPR', by: { name: 'A' }, tier: 2, result: 'success' });
  const s = sync.stats();
  t.equal(s.dropped, 5, 'the 5 vitals went first');
  t.equal(s.queued, 30, 'all 30 treatments are kept, past the bound of 10');
  t.equal(s.overBound, true, 'stats say the queue is over its bound');
  t.ok(logs.some((l) => /more than maxQueued \(10\).*all are kept/.test(l)), 'and the log says so');
});
