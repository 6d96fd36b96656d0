/**
 * postgres.js reads the array types on every new connection in a query whose promise nobody holds
 * (upstream #1192, #1223): PostgreSQL going away just then is an unhandled rejection, which ends a
 * Node process by default. The serving process logs it and serves on (store/faults.ts). Here a
 * relay in front of PostgreSQL cuts every connection that sends that query, while a client keeps
 * asking for things the database must answer (an unknown API key is looked up), then lets them through.
 */
import t from 'tap';
import { createConnection, createServer, type Socket } from 'node:net';
import { freshDatabase } from '../helpers/db.ts';
import { serveProcess } from '../helpers/serve-process.ts';
import { generateApiKey } from '../../server/auth/api-keys.ts';

const db = await freshDatabase();
t.teardown(db.drop);
const target = new URL(db.url);

/** An ErrorResponse message of the PostgreSQL protocol: FATAL 57P01 (admin shutdown). */
const terminated = (() => {
  const fields = Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
})();
let cutTypeQueries = false;
let cuts = 0;
const sockets = new Set<Socket>();
const relay = createServer((client) => {
  const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
  sockets.add(client).add(upstream);
  const end = () => {
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
  client.on('data', (chunk: Buffer) => {
    if (cutTypeQueries && chunk.includes('typarray')) {
      cuts++;
      // What pg_terminate_backend (or a shutdown) answers just then: FATAL 57P01, and the connection closes.
      client.end(terminated, end);
      return;
    }
    upstream.write(chunk);
  });
  upstream.pipe(client);
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  for (const s of sockets) s.destroy();
  relay.close();
});
const relayed = new URL(db.url);
relayed.port = String((relay.address() as { port: number }).port);

t.test('a connection lost while postgres.js reads its types: logged, and the server serves on', async (t) => {
  t.setTimeout(120_000);
  const { url, child, exited } = await serveProcess(t, { DATABASE_URL: relayed.href, LOG_LEVEL: 'warn' });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let gone: unknown = null;
  void exited.then((code) => (gone = code ?? 'signal'));
  const unknownKey = generateApiKey(false); // well formed, so it is looked up in the database
  const ask = () => fetch(`${url}/api/v1/admin/clock-in`, { method: 'POST', headers: { authorization: `Bearer ${unknownKey}`, 'content-type': 'application/json' }, body: '{"badge":1}', signal: AbortSignal.timeout(3000) }).then((r) => r.status, () => 0);

  cutTypeQueries = true;
  for (const s of sockets) s.destroy(); // every connection the server holds is gone: it opens new ones
  for (let i = 0; i < 20 && cuts < 3 && gone === null; i++) {
    await ask();
    await new Promise((r) => setTimeout(r, 100));
  }
  t.ok(cuts >= 1, `the relay cut ${cuts} connections while they read their types`);
  cutTypeQueries = false;

  let status = 0;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && gone === null; await new Promise((r) => setTimeout(r, 200))) {
    status = await ask();
    if (status === 401) break;
  }
  t.equal(gone, null, `the server is still running${gone === null ? '' : ` (it exited: ${gone}):\n${stderr.slice(-2000)}`}`);
  t.equal(status, 401, 'the database answers again: the unknown key is refused 401');
  t.match(stderr, /upstream #1192/, 'the lost type query was logged');
  child.kill('SIGTERM');
  await exited;
});
