/**
 * Issue 20, queue: an event the server rejects (a bad field, an unknown type) is removed with a log
 * line naming it and the field; it never blocks the events around it, and it is not retried.
 */
import t from 'tap';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { medicServer, queueDir, sleep, storedEvents } from './helpers.ts';

t.test('a rejected event does not block the rest and is not retried', { timeout: 30_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const logs: string[] = [];
  const sync = createMedicSync({ baseUrl: server.url, apiKey: key, dir: queueDir(t), batchSize: 4, log: (_l, m) => logs.push(m) });
  t.teardown(() => sync.stop());
  const p = `x${Date.now().toString(36)}`;
  const at = Date.now() - 60_000;
  const good = (n: number) => ({ id: `${p}-${n}`, type: 'vitals', citizenId: `${p}-c`, at: at + n, heartRate: 70 + n });
  sync.enqueue(good(1));
  sync.enqueue(good(2));
  sync.enqueue({ ...good(3), heartRate: 999 }); // over 300
  sync.enqueue(good(4));
  sync.enqueue({ id: `${p}-5`, type: 'x_ray_party', citizenId: `${p}-c`, at }); // unknown type
  for (let n = 6; n <= 10; n++) sync.enqueue(good(n));
  t.ok(await sync.flush(10_000), 'the queue empties');
  const stats = sync.stats();
  t.equal(stats.rejected, 2, 'two rejected');
  t.equal(stats.applied, 8, 'the other eight applied');
  const stored = (await storedEvents(server.sql, p)).map((s) => s.id).sort();
  t.same(stored, [1, 2, 4, 6, 7, 8, 9, 10].map((n) => `${p}-${n}`).sort(), 'the events around them are stored');
  t.ok(logs.some((l) => l.includes(`event ${p}-3 (vitals) rejected by the server (400`) && /heartRate/.test(l)), 'the log names the event and the field');
  t.ok(logs.some((l) => l.includes(`event ${p}-5 (x_ray_party) rejected`)), 'and the unknown type');
  const requests = stats.requests;
  await sleep(500);
  t.equal(sync.stats().requests, requests, 'nothing is retried afterwards');
});
