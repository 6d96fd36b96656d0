import t from 'tap';
import { inflateSync } from 'node:zlib';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { RawConnection, rawRequest } from '../helpers/raw-http.ts';
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer } from '../../server/main.ts';
import { freePort } from '../../server/store/embedded.ts';

const G = '558000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Kai', badge: '1' }]);
const key = await unscopedKey(server.sql, G);

t.test('health without auth', async (t) => {
  const res = await api('GET', '/health');
  t.equal(res.status, 200);
  t.same(res.body, { ok: true });
  t.match(res.headers.get('content-type'), /application\/json/);
});

t.test('health (rest.constant) answers the same status, header and bytes every time; a query string is still refused', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  await conn.write(rawRequest('GET', '/api/v1/health'));
  const first = await conn.read();
  for (let i = 0; i < 3; i++) {
    await conn.write(rawRequest('GET', '/api/v1/health'));
    const again = await conn.read();
    t.equal(`${again.status} ${again.reason}`, '200 OK');
    t.equal(again.headers['content-type'], 'application/json; charset=utf-8');
    t.equal(again.text, first.text, 'same body');
  }
  const query = await api('GET', '/health?verbose=1');
  t.equal(query.status, 400, 'an unknown query parameter is a 400 on the constant route too');
  t.same(query.body, { error: 'unknown query parameter verbose', reason: 'bad_request' });
  t.same((await api('POST', '/health')).status, 404, 'other methods are not answered by it');
});

t.test('unknown routes and methods: 404 with {error, reason}', async (t) => {
  const cases: [string, string][] = [
    ['GET', '/api/v1/nope'], ['POST', '/api/v1/health'], ['PUT', '/api/v1/admin/clock-in'], ['DELETE', '/api/v1/admin/on-duty'],
    ['GET', '/api/v2/health'], ['PATCH', '/api/v1/branding/x'], ['GET', '/api/v1/admin/clock-status'], ['GET', '/whatever'],
    ['OPTIONS', '/api/v1/health'],
  ];
  for (const [method, path] of cases) {
    const res = await api(method, path, { key });
    t.equal(res.status, 404, `${method} ${path}`);
    t.same(Object.keys(res.body), ['error', 'reason'], `${method} ${path} body`);
  }
});

t.test('branding of a guild, public', async (t) => {
  const res = await api('GET', `/branding/${G}`);
  t.equal(res.status, 200);
  t.match(res.body, { guildId: G, name: `Guild ${G}`, modules: { timeclock: true, stats: true }, tabOrder: Array, color: /^#[0-9a-f]{6}$/i });
  for (const path of ['/branding/999', '/branding/999/icon.png']) {
    const unknown = await api('GET', path);
    t.equal(unknown.status, 404, path);
    t.same(Object.keys(unknown.body), ['error', 'reason']);
  }
  const bad = await api('GET', '/branding/a%20b');
  t.equal(bad.status, 400);
});

t.test('icon.png is a real PNG (generated default)', async (t) => {
  const res = await fetch(`${server.url}/api/v1/branding/${G}/icon.png`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  const png = Buffer.from(await res.arrayBuffer());
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  t.equal(png.toString('ascii', 12, 16), 'IHDR');
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
  t.same([width, height], [128, 128]);
  // decode IDAT and look at pixels: transparent corner, opaque coloured centre ring, white cross in the middle
  let off = 8; const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off); const type = png.toString('ascii', off + 4, off + 8);
    if (type === 'IDAT') idat.push(png.subarray(off + 8, off + 8 + len));
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const px = (x: number, y: number) => [...raw.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 1 + x * 4 + 4)];
  t.equal(px(0, 0)[3], 0, 'corner is transparent');
  t.same(px(64, 64), [255, 255, 255, 255], 'centre is white');
  t.same(px(10, 64), [0xc0, 0x39, 0x2b, 255], 'edge is the guild colour');
});

t.test('the board page is served without auth', async (t) => {
  const res = await api('GET', '/dispatch');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/html/);
  t.match(res.text, /<html/i);
  const root = await api('GET', '/');
  t.equal(root.status, 302);
  t.equal(root.headers.get('location'), '/dispatch');
});

t.test('a chunked body over 1 MiB without Content-Length is cut off with 413', async (t) => {
  const chunk = 'x'.repeat(64 * 1024);
  let body = '';
  for (let i = 0; i < 20; i++) body += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
  body += '0\r\n\r\n';
  const head = `POST /api/v1/admin/clock-in HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const conn = await RawConnection.open(server.port, t);
  conn.write(head + body).catch(() => {}); // the server may hang up before the rest is written
  const res = await conn.read();
  t.equal(res.status, 413, 'status 413');
  t.equal(res.text, '{"error":"body larger than 1048576 bytes","reason":"too_large"}');
  t.same((await api('GET', '/health')).body, { ok: true }, 'server still up');
});

t.test('a declared Content-Length over the limit is refused before reading', async (t) => {
  const head = `POST /api/v1/admin/clock-in HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{"badge":`;
  const conn = await RawConnection.open(server.port, t);
  await conn.write(head);
  t.equal((await conn.read()).status, 413);
});

t.test('clients that vanish mid-request do not hurt the server', async (t) => {
  const head = `POST /api/v1/admin/clock-in HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"bad`;
  /** Writes `bytes`, then hangs up after `ms` without reading. */
  const sendAndVanish = async (bytes: string, ms: number) => {
    const conn = await RawConnection.open(server.port, t);
    await conn.write(bytes);
    await new Promise((r) => setTimeout(r, ms));
    conn.close();
  };
  await Promise.all(Array.from({ length: 20 }, () => sendAndVanish(head, 50))); // gone with the body half sent
  await sendAndVanish('GARBAGE \x00\x01\x02 NOT HTTP\r\n\r\n', 200);
  const res = await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  t.equal(res.status, 200, 'server still answers requests');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
});

t.test('path parameters with odd encodings are 400, not 500', async (t) => {
  for (const p of ['/admin/clock-status/%E0%A4%A', '/admin/clock-status/%00', '/admin/clock-status/' + '9'.repeat(300)]) {
    const res = await api('GET', p, { key });
    t.equal(res.status, 400, p);
    t.same(Object.keys(res.body), ['error', 'reason']);
  }
  const query = await api('GET', '/admin/clock-status/1?badge=2', { key });
  t.equal(query.status, 400, 'a query parameter repeating a path parameter');
  const unknownQuery = await api('GET', '/admin/clock-status/1?foo=1', { key });
  t.equal(unknownQuery.status, 400, 'unknown query parameter');
});

t.test('query strings: refused on writes and on routes without input', async (t) => {
  const post = await api('POST', '/admin/clock-in?badge=1', { key, body: {} });
  t.equal(post.status, 400, 'a POST takes its fields from the body only');
  t.match(post.body.error, /query parameters are not accepted/);
  const onDuty = await api('GET', '/admin/on-duty?x=1', { key });
  t.equal(onDuty.status, 400);
  t.match(onDuty.body.error, /unknown query parameter x/);
  t.equal((await api('GET', '/admin/on-duty', { key })).status, 200);
});

t.test('a second server on the same port is refused, not let in beside the first (uWS would set SO_REUSEPORT)', async (t) => {
  // A fixed port, as a server admin gives it (the kernel does not share a port it picked for port 0).
  const config = loadConfig({ PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'silent', DEMO: '0' });
  const first = await startServer({ config: { ...config }, log: createLog('silent'), db: server.deps.db });
  t.teardown(() => first.close());
  await t.rejects(startServer({ config: { ...config }, log: createLog('silent'), db: server.deps.db }), /cannot listen on 127\.0\.0\.1:\d+: is another server running there\?/);
  t.equal((await fetch(`${first.url}/api/v1/health`)).status, 200, 'the first one still answers');
});
