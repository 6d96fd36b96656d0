/**
 * Issue 27, item 3 (the rules; test/faults/ws-flood.test.ts is the attack under a low file limit): a
 * socket that proves no principal within WS_AUTH_TIMEOUT_MS is closed 4408, whatever it does
 * meanwhile; pending sockets are capped per client address (429) and in total (503) at the
 * upgrade, the refused connection closed; behind a trusted proxy the forwarded address counts.
 * Frames are strict UTF-8 (item 7's rule at the WebSocket door).
 */
import t from 'tap';
import WebSocket from 'ws';
import { startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { databaseOutage } from '../helpers/db.ts';
import { rawSocket } from '../helpers/raw-ws.ts';
import { until } from '../helpers/live.ts';
import { loadConfig } from '../../server/config.ts';
import { clientAddress } from '../../server/transport/ws-pending.ts';

const G = '528000000000000001';
const server = await startTestServer(t, {
  WS_AUTH_TIMEOUT_MS: '1000', WS_PENDING_MAX: '8', WS_PENDING_PER_ADDRESS: '3', TRUSTED_PROXIES: '127.0.0.9',
});
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const wsUrl = `${server.url.replace('http', 'ws')}/trpc`;

type Outcome =
  | { opened: true; ws: WebSocket; closed: Promise<{ code: number; reason: string }> }
  | { opened: false; status: number; contentType: string; body: any; connectionClosed: Promise<void> };

/** A socket upgrade from `from` (a loopback address), with optional connectionParams flag and headers. */
function upgrade(from: string, o: { params?: boolean; headers?: Record<string, string> } = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(o.params ? `${wsUrl}?connectionParams=1` : wsUrl, { localAddress: from, headers: o.headers });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('open', () => resolve({ opened: true, ws, closed }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      const connectionClosed = new Promise<void>((r) => res.socket.on('close', () => r()));
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ opened: false, status: res.statusCode!, contentType: String(res.headers['content-type']), body: JSON.parse(text), connectionClosed }));
    });
    ws.on('error', (err) => { if (!/Unexpected server response/.test(err.message)) reject(err); });
  });
}

async function opened(from: string, o?: { params?: boolean; headers?: Record<string, string> }) {
  const r = await upgrade(from, o);
  if (!r.opened) throw new Error(`refused ${r.status}: ${JSON.stringify(r.body)}`);
  t.teardown(() => r.ws.terminate());
  return r;
}

/** `p`, or a failure naming `what` after `ms` (so a socket that is never closed fails the test quickly). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms))]);
}

const noPending = () => until(() => server.ws.stats.pending === 0, 'no pending socket left on the server', 3000);

t.test('a socket that proves no principal in time is closed 4408; authenticated ones stay', async (t) => {
  const silent = await opened('127.0.0.2', { params: true }); // asks for connectionParams, never sends them
  const anonymous = await rawSocket(server.url); // no credential at all: public procedures only
  anonymous.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  t.match(await anonymous.next((m) => m.id === 1), { result: { data: { json: { ok: true } } } }, 'public queries work meanwhile');
  const wrongKey = await rawSocket(server.url, { params: { authorization: 'Bearer stmp_bogus' } });
  wrongKey.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  await wrongKey.next((m) => m.id === 1);
  const withKey = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  const session = await signIn(server, G, 'u1');
  const withSession = await rawSocket(server.url, { headers: { cookie: session.cookie }, params: { guildId: G } });
  t.teardown(() => { withKey.ws.close(); withSession.ws.close(); });

  for (const [name, closed] of [['never sent connectionParams', silent.closed], ['no credential', anonymous.closedP], ['a wrong key', wrongKey.closedP]] as const) {
    const close = await within(closed, 3000, `${name}: closed`);
    t.equal(close.code, 4408, `${name}: closed 4408`);
    t.match(close.reason, /not authenticated within 1 s/, `${name}: with a reason`);
  }
  await new Promise((r) => setTimeout(r, 300));
  for (const [name, s] of [['key', withKey], ['session', withSession]] as const) {
    t.equal(s.closed, null, `${name}: an authenticated socket stays open past the deadline`);
    s.send({ id: 9, method: 'query', params: { path: 'health.check' } });
    t.match(await s.next((m) => m.id === 9), { result: { type: 'data' } }, `${name}: and works`);
  }
  await noPending();
});

t.test('pending sockets are capped per address (429) and in total (503) at the upgrade; the refused connection is closed', async (t) => {
  const fromTwo = await Promise.all([1, 2, 3].map(() => opened('127.0.0.2', { params: true })));
  const overAddress = await upgrade('127.0.0.2', { params: true });
  t.match(overAddress, { opened: false, status: 429, contentType: /application\/json/, body: { error: /at most 3 .*this address/ } }, 'the 4th from one address: 429 {error}');
  if (!overAddress.opened) await overAddress.connectionClosed;
  t.pass('and the connection is closed');

  await Promise.all([1, 2, 3].map(() => opened('127.0.0.3')));
  await Promise.all([1, 2].map(() => opened('127.0.0.4')));
  t.equal(server.ws.stats.pending, 8);
  const overTotal = await upgrade('127.0.0.4');
  t.match(overTotal, { opened: false, status: 503, contentType: /application\/json/, body: { error: /at most 8 / } }, 'the 9th in total: 503 {error}');
  if (!overTotal.opened) await overTotal.connectionClosed;

  // A pending socket that authenticates frees its slot.
  fromTwo[0].ws.send(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${key}` } }));
  await until(() => server.ws.stats.pending === 7, 'one pending socket authenticated');
  const again = await upgrade('127.0.0.2', { params: true });
  t.equal(again.opened, true, 'its address may open another');
  if (again.opened) t.teardown(() => again.ws.terminate());
  const firstClose = await within(fromTwo[1].closed, 3000, 'a pending socket closed');
  t.equal(firstClose.code, 4408);
  await until(() => server.ws.stats.pending === 0, 'the rest closed at their deadline', 3000);
  await new Promise((r) => setTimeout(r, 300));
  t.equal(fromTwo[0].ws.readyState, WebSocket.OPEN, 'the authenticated one is still open');
  fromTwo[0].ws.close();
});

t.test('behind a trusted proxy the forwarded client address counts; from anyone else X-Forwarded-For is ignored', async (t) => {
  await noPending();
  const viaProxy = (client: string) => upgrade('127.0.0.9', { headers: { 'x-forwarded-for': `203.0.113.50, ${client}` } });
  for (let i = 0; i < 3; i++) t.equal((await viaProxy('198.51.100.1')).opened, true);
  t.match(await viaProxy('198.51.100.1'), { opened: false, status: 429 }, 'the 4th of one client behind the proxy');
  t.equal((await viaProxy('198.51.100.2')).opened, true, 'another client behind the same proxy is not blocked');
  for (let i = 0; i < 3; i++) t.equal((await upgrade('127.0.0.5', { headers: { 'x-forwarded-for': `198.51.100.${10 + i}` } })).opened, true);
  t.match(await upgrade('127.0.0.5', { headers: { 'x-forwarded-for': '198.51.100.99' } }), { opened: false, status: 429 }, 'an untrusted peer cannot spread itself over made-up addresses');
  await until(() => server.ws.stats.pending === 0, 'all closed at their deadline', 3000);
});

t.test('addresses compare in one spelling; TRUSTED_PROXIES takes IP addresses only', async (t) => {
  const trusted = new Set(['127.0.0.9', '::1']);
  t.equal(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0009', '198.51.100.7', trusted), '198.51.100.7', 'an IPv4-mapped peer is its IPv4 address');
  t.equal(clientAddress('0000:0000:0000:0000:0000:0000:0000:0001', '2001:DB8:0:0:0:0:0:1, ::1', trusted), '2001:db8::1', 'IPv6 written in full or compressed is one address');
  t.equal(clientAddress('127.0.0.9', '', trusted), '127.0.0.9', 'a trusted proxy that forwards nothing counts as itself');
  t.equal(clientAddress('127.0.0.5', '198.51.100.7', trusted), '127.0.0.5', 'anyone else: the header is ignored');
  t.throws(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.1, proxy.local' }), /TRUSTED_PROXIES: must be IP addresses/);
  t.same(loadConfig({ TRUSTED_PROXIES: '10.0.0.1, ::1' }).trustedProxies, ['10.0.0.1', '::1']);
});

t.test('during a database outage a socket cannot authenticate: its calls are answered 503 and it is closed 4408 like any pending socket', async (t) => {
  const outage = databaseOutage(t, server);
  await outage.down();
  await until(() => !server.deps.dbHealth.up, 'the monitor sees the outage', 5000);
  const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  s.send({ id: 1, method: 'query', params: { path: 'preferences.get' } });
  t.match(await s.next((m) => m.id === 1), { error: { json: { data: { code: 'SERVICE_UNAVAILABLE' } } } });
  const close = await within(s.closedP, 3000, 'the socket closed');
  t.equal(close.code, 4408);
  t.match(close.reason, /database unavailable/);
  await outage.up();
  await until(() => server.deps.dbHealth.up, 'the monitor sees PostgreSQL answer', 5000);
  const after = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => after.ws.close());
  after.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  await after.next((m) => m.id === 1);
  await new Promise((r) => setTimeout(r, 1300));
  t.equal(after.closed, null, 'once it answers, the reconnected socket authenticates and stays');
});

t.test('frames must be UTF-8: invalid bytes close the socket (1007 for binary frames, uWS drops text frames), never a repaired call', async (t) => {
  const query = (junk: Buffer) => Buffer.concat([Buffer.from('{"id":1,"method":"query","params":{"path":"health.check"},"note":"a'), junk, Buffer.from('b"}')]);
  const good = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => good.ws.close());
  good.ws.send(query(Buffer.from('ü')), { binary: true });
  t.match(await good.next((m) => m.id === 1), { result: { type: 'data' } }, 'a binary frame of valid UTF-8 is answered');

  for (const binary of [true, false]) {
    const s = await rawSocket(server.url, { params: { authorization: `Bearer ${key}` } });
    s.ws.send(query(Buffer.from([0xff])), { binary });
    const close = await within(s.closedP, 3000, 'the socket closed');
    t.same(s.messages.filter((m) => m.id === 1), [], `${binary ? 'binary' : 'text'}: the call is not run`);
    t.equal(close.code, binary ? 1007 : 1006, `${binary ? 'binary' : 'text'}: closed ${binary ? 1007 : 1006}`);
  }
});
