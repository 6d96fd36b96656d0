/**
 * Issue 20, queue: the server is up but its database is not (connections refused and cut): the server
 * answers 5xx, the queue keeps everything, waits at least the server's Retry-After between attempts,
 * and delivers all once the database is back.
 */
import t from 'tap';
import { createMedicSync, type SyncStatus } from '../../client-sdk/medic/index.ts';
import { request, type HttpResponse, type RequestOptions } from '../../client-sdk/game/http.ts';
import { databaseOutage } from '../helpers/db.ts';
import { assertFlushed, compareStored, eventStream, medicServer, queueDir, sleep, storedEvents, waitFor } from './helpers.ts';

t.test('the database down for a few seconds: 5xx answers are retried (Retry-After honoured), nothing is lost', { timeout: 90_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const outage = databaseOutage(t, server);
  // The real sender, with a record of when each answer came and what it said.
  const answers: { at: number; status: number; retryAfter?: string }[] = [];
  const recording = async (url: string, o: RequestOptions): Promise<HttpResponse> => {
    const res = await request(url, o).catch((err) => {
      answers.push({ at: Date.now(), status: 0 });
      throw err;
    });
    answers.push({ at: Date.now(), status: res.status, retryAfter: res.headers['retry-after'] });
    return res;
  };
  const statuses: SyncStatus[] = [];
  const sync = createMedicSync({
    baseUrl: server.url, apiKey: key, dir: queueDir(t), backoff: { baseMs: 100, maxMs: 400 }, request: recording,
    onStatus: (s) => statuses.push(s), log: () => {},
  });
  t.teardown(() => sync.stop());
  const { prefix, events } = eventStream('d', 300);
  for (const e of events.slice(0, 100)) sync.enqueue(e);
  await assertFlushed(t, sync, 10_000, 'the first 100 are delivered');

  await outage.down();
  const downAt = Date.now();
  for (const e of events.slice(100)) sync.enqueue(e);
  t.ok(await waitFor(() => sync.status().state === 'retrying', 20_000), 'the sync is retrying');
  await sleep(4000);
  const failed = answers.filter((a) => a.at >= downAt && a.status !== 200);
  t.ok(failed.length >= 2, `${failed.length} refused attempts while the database was down`);
  t.ok(failed.every((a) => a.status >= 500), `all 5xx (${[...new Set(failed.map((a) => a.status))].join(', ')})`);
  t.match(statuses.find((s) => s.state === 'retrying')?.message, /^5\d\d /, 'the status names the answer');
  t.equal(sync.stats().queued, 200, 'all 200 are kept');
  // Retry-After: no attempt sooner than the previous answer asked (back-off alone would be 50–400 ms).
  const early = answers.slice(1).filter((a, i) => {
    const prev = answers[i];
    return prev.retryAfter !== undefined && prev.status >= 500 && a.at - prev.at < Number(prev.retryAfter) * 1000 - 50;
  });
  const asked = failed.filter((a) => a.retryAfter !== undefined);
  t.ok(asked.length > 0, `the server sent Retry-After (${asked[0]?.retryAfter} s)`);
  t.same(early, [], 'and no attempt came sooner than it asked');

  await outage.up();
  await assertFlushed(t, sync, 30_000, 'delivered once the database is back');
  const diff = compareStored(await storedEvents(server.sql, prefix), events);
  t.same(diff, { missing: [], twice: [], unexpected: [], outOfOrder: [] }, 'all 300 stored once, in order per citizen');
});
