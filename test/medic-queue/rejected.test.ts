/**
 * Issue 20, queue: an event the server rejects (a bad field, an unknown type) is removed with a log
 * line naming it and the field; it never blocks the events around it, and it is not retried.
 */
import t from 'tap';
import { request, type RequestOptions } from '../../client-sdk/game/http.ts';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { assertFlushed, medicServer, queueDir, sleep, storedEvents } from './helpers.ts';

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
  await assertFlushed(t, sync, 10_000, 'the queue empties');
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

for (const sender of ['fetch', 'node:http (FiveM)'] as const) t.test(`events too big are removed with a log line, the rest goes on (${sender})`, { timeout: 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const logs: string[] = [];
  const viaNode = (url: string, o: RequestOptions) => request(url, { ...o, fetch: null });
  const sync = createMedicSync({ baseUrl: server.url, apiKey: key, dir: queueDir(t), log: (_l, m) => logs.push(m), request: sender === 'fetch' ? undefined : viaNode });
  t.teardown(() => sync.stop());
  const p = `y${Date.now().toString(36)}`;
  const at = Date.now() - 60_000;
  const xray = (n: number, bytes: number) => ({ id: `${p}-${n}`, type: 'imaging', citizenId: `${p}-c`, at: at + n, modality: 'xray', bodyPart: 'chest', image: `data:image/png;base64,${'A'.repeat(bytes)}` });
  sync.enqueue({ id: `${p}-1`, type: 'vitals', citizenId: `${p}-c`, at, heartRate: 80 });
  sync.enqueue(xray(2, 17 * 1024 * 1024)); // over the route's 16 MiB body limit: never sendable
  sync.enqueue(xray(3, 7 * 1024 * 1024)); // fits a request, but decodes to over 5 MiB: the server rejects it (413)
  sync.enqueue({ id: `${p}-4`, type: 'vitals', citizenId: `${p}-c`, at: at + 4, heartRate: 81 });
  await assertFlushed(t, sync, 30_000, 'the queue empties');
  t.same((await storedEvents(server.sql, p)).map((s) => s.id).sort(), [`${p}-1`, `${p}-4`], 'the events around them are stored');
  t.equal(sync.stats().rejected, 2, 'both images are rejected');
  t.ok(logs.some((l) => l.includes(`event ${p}-2 (imaging) rejected by the queue (413: the event is larger than the 16 MiB request limit`)), 'the unsendable one is named, before any request');
  t.ok(logs.some((l) => l.includes(`event ${p}-3 (imaging) rejected by the server (413:`)), 'the one over 5 MiB by the server');
});
