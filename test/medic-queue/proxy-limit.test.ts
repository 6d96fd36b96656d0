/**
 * Issue 20, queue: a reverse proxy in front of the server with a smaller body limit than the route's
 * (nginx's default client_max_body_size is 1 MiB; here 256 KiB), answering 413 in HTML for the whole
 * request. The queue halves the batch until the event at fault goes alone, removes it with a log line,
 * and delivers everything else in order.
 */
import t from 'tap';
import { createServer } from 'node:http';
import { createMedicSync } from '../../client-sdk/medic/index.ts';
import { assertFlushed, compareStored, eventStream, medicServer, queueDir, storedEvents } from './helpers.ts';

const LIMIT = 256 * 1024;

t.test('a proxy\'s 413 for the whole request: the batch is halved until the big event goes alone', { timeout: 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const sizes: number[] = [];
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      sizes.push(body.length);
      if (body.length > LIMIT) {
        res.writeHead(413, { 'content-type': 'text/html' }).end('<html><body><h1>413 Request Entity Too Large</h1></body></html>');
        return;
      }
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type']) if (req.headers[h]) headers[h] = String(req.headers[h]);
      const up = await fetch(server.url + req.url, { method: req.method, headers, body });
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'text/plain' }).end(Buffer.from(await up.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => proxy.close(resolve)));
  const logs: string[] = [];
  const sync = createMedicSync({ baseUrl: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`, apiKey: key, dir: queueDir(t), log: (_l, m) => logs.push(m) });
  t.teardown(() => sync.stop());

  const { prefix, t0, events } = eventStream('q', 100);
  const bigId = `${prefix}-big`;
  for (const [i, e] of events.entries()) {
    sync.enqueue(e);
    if (i === 60) sync.enqueue({ id: bigId, type: 'imaging', citizenId: e.citizenId, at: t0 + 1000, modality: 'xray', bodyPart: 'chest', image: 'A'.repeat(300 * 1024) });
  }
  await assertFlushed(t, sync, 30_000, 'the queue empties');
  t.equal(sync.stats().rejected, 1, 'one event rejected');
  t.ok(logs.some((l) => l.startsWith(`event ${bigId} (imaging) rejected by the server (413: <html>`)), 'the log names it and what the proxy said');
  t.ok(sizes.filter((s) => s > LIMIT).length <= 9, `halving: about log2(100) refused requests, not one per event (${sizes.length} requests: ${sizes.map((s) => Math.round(s / 1024)).join(', ')} KiB)`);
  const diff = compareStored(await storedEvents(server.sql, prefix), events);
  t.same(diff, { missing: [], twice: [], unexpected: [], outOfOrder: [] }, 'the 100 others are stored once, in order per citizen');
});
