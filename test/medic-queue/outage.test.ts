/**
 * Issue 20, queue: the server unreachable for 30 s (MEDIC_OUTAGE_MS) behind a TCP relay whose target
 * is a dead port. Events enqueued meanwhile are kept, the status says the sync is retrying, and once
 * the server is back they all arrive, none twice, in order per citizen.
 */
import t from 'tap';
import { createMedicSync, type SyncStatus } from '../../client-sdk/medic/index.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';
import { assertFlushed, compareStored, deadPort, envInt, eventStream, medicServer, queueDir, sleep, storedEvents, waitFor } from './helpers.ts';

const OUTAGE_MS = envInt('MEDIC_OUTAGE_MS', 30_000);

t.test(`the server down for ${OUTAGE_MS / 1000} s: everything enqueued meanwhile arrives after, none twice`, { timeout: OUTAGE_MS + 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const proxy = await tcpProxy(server.port);
  t.teardown(() => proxy.close());
  const statuses: SyncStatus[] = [];
  const sync = createMedicSync({
    baseUrl: proxy.url, apiKey: key, dir: queueDir(t), backoff: { baseMs: 200, maxMs: 3000 },
    onStatus: (s) => statuses.push(s), log: () => {},
  });
  t.teardown(() => sync.stop());
  const { prefix, events } = eventStream('o', 800);

  for (const e of events.slice(0, 200)) sync.enqueue(e);
  await assertFlushed(t, sync, 20_000, 'the first 200 are delivered while the server is up');

  proxy.target = await deadPort(); // new connections are refused ...
  proxy.cut(); // ... and open ones are gone: the network is down
  const downAt = Date.now();
  let i = 200;
  while (Date.now() - downAt < OUTAGE_MS) { // the game keeps going during the outage
    for (const e of events.slice(i, i + 20)) sync.enqueue(e);
    i = Math.min(events.length, i + 20);
    await sleep(OUTAGE_MS / 30);
  }
  for (const e of events.slice(i)) sync.enqueue(e);
  t.equal(sync.stats().queued, 600, 'all 600 events of the outage are kept');
  t.equal(sync.status().state, 'retrying', 'the status says the sync is retrying');
  t.match(statuses.find((s) => s.state === 'retrying')?.message, /server unreachable/, 'and why');
  t.ok(sync.stats().requests > 3, `it kept trying with back-off (${sync.stats().requests} requests)`);

  proxy.target = server.port; // the network is back
  const backAt = Date.now();
  t.ok(await waitFor(() => sync.stats().queued === 0, 20_000), `delivered ${((Date.now() - backAt) / 1000).toFixed(1)} s after the server came back (back-off at most 3 s)`);
  t.equal(sync.status().state, 'ok', 'the status is ok again');
  const stats = sync.stats();
  t.equal(stats.applied, 800, 'the server applied all 800');
  t.equal(stats.duplicates, 0, 'none was sent twice (no batch was in flight when the network went)');
  const diff = compareStored(await storedEvents(server.sql, prefix), events);
  t.same(diff, { missing: [], twice: [], unexpected: [], outOfOrder: [] }, 'the server holds each event once, in order per citizen');
});
