/**
 * Issue 27, item 3, as the attacker did it: a real `serve` process with a low file limit
 * (`ulimit -n 256`), flooded with 600 WebSockets that never authenticate (half ask for
 * connectionParams and never send them, half carry no credential) and answer every ping. Health
 * must answer on fresh connections throughout; pending sockets over the caps are refused at the
 * upgrade; those let in are closed 4408 after 10 s; an authenticated socket works all along.
 */
import t from 'tap';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { freshDatabase } from '../helpers/db.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { rawSocket } from '../helpers/raw-ws.ts';
import { serveProcess } from '../helpers/serve-process.ts';

const FD_LIMIT = 256;
const FLOOD = 600;
const PENDING_MAX = 120;
const PER_ADDRESS = 50;
const ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
const G = '529000000000000001';

const db = await freshDatabase();
t.teardown(db.drop);
await seedGuild(db.sql, G);
const key = await unscopedKey(db.sql, G);

const { url } = await serveProcess(t, {
  DATABASE_URL: db.url, LOG_LEVEL: 'warn', WS_PENDING_MAX: String(PENDING_MAX), WS_PENDING_PER_ADDRESS: String(PER_ADDRESS),
}, { fdLimit: FD_LIMIT });
const { port } = new URL(url);

/** GET /api/v1/health on a fresh connection: its status, or 0 when no answer came within 3 s. */
function probeHealth(): Promise<number> {
  return new Promise((resolve) => {
    const sock = connect(Number(port), '127.0.0.1');
    let data = '';
    const done = (status: number) => { clearTimeout(timer); sock.destroy(); resolve(status); };
    const timer = setTimeout(() => done(0), 3000);
    sock.on('connect', () => sock.write('GET /api/v1/health HTTP/1.1\r\nHost: flood\r\nConnection: close\r\n\r\n'));
    sock.on('data', (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m && data.includes('{"ok":true}')) done(Number(m[1]));
    });
    sock.on('error', () => done(0));
    sock.on('close', () => done(0));
  });
}

/** `p`, or a failure naming `what` after `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms))]);
}

interface Attempt { from: string; opened?: number; closed?: { at: number; code: number }; refused?: { status: number; body: string }; error?: string }

/** One attacking socket: it never authenticates, and `ws` answers every ping by itself. */
function attack(from: string, wantsParams: boolean, sockets: WebSocket[]): Promise<Attempt> {
  const a: Attempt = { from };
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/trpc${wantsParams ? '?connectionParams=1' : ''}`, { localAddress: from, handshakeTimeout: 3000 });
    sockets.push(ws);
    ws.on('open', () => { a.opened = Date.now(); resolve(a); });
    ws.on('close', (code) => (a.closed = { at: Date.now(), code }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => { a.refused = { status: res.statusCode!, body }; resolve(a); });
    });
    ws.on('error', (err) => { if (!a.refused) { a.error = err.message; resolve(a); } });
  });
}

t.test(`${FLOOD} unauthenticated sockets against a server with ulimit -n ${FD_LIMIT}`, async (t) => {
  const board = await rawSocket(url, { params: { authorization: `Bearer ${key}` } });
  t.teardown(() => board.ws.close());
  board.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  await board.next((m) => m.id === 1);

  const probes: number[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      probes.push(await probeHealth());
      await new Promise((r) => setTimeout(r, 150));
    }
  })();

  const sockets: WebSocket[] = [];
  t.teardown(() => sockets.forEach((s) => s.terminate()));
  const attempts: Attempt[] = [];
  const started = Date.now();
  for (let i = 0; i < FLOOD; i += 50) {
    attempts.push(...await Promise.all(Array.from({ length: 50 }, (_, j) => attack(ADDRESSES[(i + j) % ADDRESSES.length], (i + j) % 2 === 0, sockets))));
  }
  const floodMs = Date.now() - started;
  const admitted = attempts.filter((a) => a.opened);
  const refused = attempts.filter((a) => a.refused);
  t.comment(`${admitted.length} admitted, ${refused.length} refused, ${attempts.filter((a) => a.error).length} failed, in ${floodMs} ms`);
  t.equal(admitted.length, PENDING_MAX, `at most ${PENDING_MAX} pending sockets are let in`);
  t.equal(refused.length, FLOOD - PENDING_MAX, 'every other upgrade is refused with an answer');
  t.ok(refused.every((a) => (a.refused!.status === 429 || a.refused!.status === 503) && typeof JSON.parse(a.refused!.body).error === 'string'), 'refusals are 429/503 {error}');
  for (const from of ADDRESSES) t.ok(admitted.filter((a) => a.from === from).length <= PER_ADDRESS, `at most ${PER_ADDRESS} from ${from}`);

  board.send({ id: 2, method: 'query', params: { path: 'health.check' } });
  t.match(await board.next((m) => m.id === 2), { result: { type: 'data' } }, 'the authenticated socket works during the flood');

  const deadline = Date.now() + 16_000;
  while (admitted.some((a) => !a.closed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const lifetimes = admitted.map((a) => (a.closed ? a.closed.at - a.opened! : Infinity));
  t.ok(admitted.every((a) => a.closed?.code === 4408), `every admitted socket is closed 4408 (codes: ${[...new Set(admitted.map((a) => a.closed?.code))].join(', ')})`);
  t.ok(Math.min(...lifetimes) >= 9_000 && Math.max(...lifetimes) <= 14_000, `after about 10 s (${Math.min(...lifetimes)}–${Math.max(...lifetimes)} ms)`);

  probing = false;
  await prober;
  const failed = probes.filter((s) => s !== 200).length;
  t.comment(`health probes: ${probes.length - failed} of ${probes.length} answered 200`);
  t.ok(probes.length >= 20, `health was probed throughout (${probes.length} probes)`);
  t.equal(failed, 0, 'every health probe on a fresh connection answered 200');

  const later = await within(rawSocket(url, { params: { authorization: `Bearer ${key}` } }), 3000, 'a new authenticated socket opens');
  later.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  t.match(await later.next((m) => m.id === 1), { result: { type: 'data' } }, 'a new authenticated socket opens and works afterwards');
  later.ws.close();
  const again = await attack(ADDRESSES[0], true, sockets);
  t.ok(again.opened, 'and a pending slot is free again');
  board.send({ id: 3, method: 'query', params: { path: 'health.check' } });
  t.match(await board.next((m) => m.id === 3), { result: { type: 'data' } }, 'the first authenticated socket is still open and works');
});
