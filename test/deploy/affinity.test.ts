/**
 * Guild-affine routing: Debian's nginx on the deployment's own files (dispatch-terminal-*.conf
 * unchanged, and the upstream block of deploy/nginx/nginx.conf with loopback addresses for its
 * nodes) in front of two real `serve` processes on one PostgreSQL and Redis. A request names its
 * guild by `?guild=` (WebSocket URLs, the board page) or `X-Guild-Id` (every session request);
 * which node served it is read off each node's own /metrics, never from anything the proxy adds.
 * Fails without `hash $dispatch_terminal_route consistent;` in the upstream (round robin splits a
 * guild's requests and sockets) and without the SDK's `?guild=` (its boards land anywhere).
 */
import t from 'tap';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freshDatabase } from '../helpers/db.ts';
import { ensureDebianPackages } from '../helpers/debian.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { deployNginxDir, httpsCall, selfSignedCertificate, startNginx, webSocketTrusting } from '../helpers/nginx.ts';
import { startRedis } from '../helpers/redis.ts';
import { serveProcess } from '../helpers/serve-process.ts';
import { call } from '../helpers/server.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { freePort } from '../../server/store/embedded.ts';

ensureDebianPackages([['nginx', 'nginx'], ['openssl', 'openssl']]);
const A = '563000000000000001';
const TOPICS = ['onDuty', 'overview', 'units'] as const;
const METRICS_TOKEN = 'metrics-token-of-the-affinity-test';
const people = Array.from({ length: 6 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `Person ${i + 1}`, badge: String(i + 1), rank: 'crew', admin: i === 0 }));

const cert = selfSignedCertificate(mkdtempSync(join(tmpdir(), 'dt-cert-')));
const [redis, db, proxyPort, ...ports] = await Promise.all([startRedis(t), freshDatabase(), freePort(), freePort(), freePort()]);
t.teardown(db.drop);
const proxyUrl = `https://127.0.0.1:${proxyPort}`;
await seedGuild(db.sql, A, people);
const key = await unscopedKey(db.sql, A);
const nodeEnv = { REDIS_URL: redis.url, DATABASE_URL: db.url, PUBLIC_URL: proxyUrl, TRUSTED_PROXIES: '127.0.0.1', METRICS_TOKEN };
const nodes = await Promise.all(ports.map(async (port, i) => ({
  ...(await serveProcess(t, { ...nodeEnv, PORT: String(port) })), name: 'AB'[i], url: `http://127.0.0.1:${port}`, // (it names PUBLIC_URL)
})));
type Node = (typeof nodes)[number];

// The stack's own upstream (balancing method, failure rules, keep-alive) with this machine's nodes in place of compose's addresses.
const deployed = /upstream dispatch_terminal \{([^}]*)\}/.exec(readFileSync(join(deployNginxDir, 'nginx.conf'), 'utf8'))![1];
let n = 0;
const upstream = deployed.replace(/^(\s*server\s+)\S+?:3000\b/gm, (_m, head: string) => `${head}127.0.0.1:${ports[n++]}`);
if (n !== 2) throw new Error(`deploy/nginx/nginx.conf's upstream names ${n} nodes, not two:${deployed}`);
await startNginx(t, { port: proxyPort, certificate: cert, upstream });
const viaProxy = (path: string, headers: Record<string, string> = {}) => httpsCall(proxyUrl + path, { ca: cert.pem, headers });
const TrustingWebSocket = webSocketTrusting(cert.pem);

/** One metric of a node's own /metrics (0 when it has no such line yet). */
async function metric(node: Node, line: RegExp): Promise<number> {
  const res = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = line.exec(await res.text());
  return m ? Number(m[1]) : 0;
}
const healthCount = (node: Node) => metric(node, /^dispatch_terminal_requests_total\{door="rest",method="GET",route="\/api\/v1\/health",status="200"\} (\d+)$/m);
const openSockets = (node: Node) => metric(node, /^dispatch_terminal_websockets_open (\d+)$/m);

/** How many of the health requests `send` makes each node answered. */
async function servedBy(send: () => Promise<unknown>): Promise<number[]> {
  const before = await Promise.all(nodes.map(healthCount));
  await send();
  const after = await Promise.all(nodes.map(healthCount));
  return after.map((x, i) => x - before[i]);
}

/** A WebSocket through the proxy to `/trpc?<query>` (it stays unauthenticated: pending on its node). */
function socketThroughProxy(query: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${proxyUrl.replace('https', 'wss')}/trpc?${query}`, { ca: cert.pem });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/trpc?${query}: ${res.statusCode}`)));
  });
}

/** The node whose open WebSockets went up by one while the socket `open` makes was open (returns once it closed again). */
async function nodeOfSocket(open: () => Promise<WebSocket>): Promise<string> {
  const before = await Promise.all(nodes.map(openSockets));
  const ws = await open();
  const during = await Promise.all(nodes.map(openSockets));
  ws.close();
  const deadline = Date.now() + 5000;
  while ((await Promise.all(nodes.map(openSockets))).some((c, i) => c !== before[i]) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const up = during.map((c, i) => c - before[i]);
  return up.filter((d) => d !== 0).length === 1 && up.includes(1) ? nodes[up.indexOf(1)].name : `? (${up.join(' + ')})`;
}

t.test('a guild\'s requests (X-Guild-Id) and sockets (?guild=) all go to one node; guilds spread over both; the rest is balanced', async (t) => {
  const homes: string[] = [];
  for (let i = 0; i < 16; i++) {
    const guild = `56400000000000${String(i).padStart(4, '0')}`;
    const counts = await servedBy(async () => {
      for (let j = 0; j < 4; j++) t.equal((await viaProxy('/api/v1/health', { 'x-guild-id': guild })).status, 200);
    });
    const home = counts.findIndex((c) => c === 4);
    t.ok(home >= 0 && counts.every((c, k) => k === home || c === 0), `guild ${guild}: its 4 requests on one node (${counts.join(' + ')})`);
    homes.push(nodes[home]?.name ?? '?');
    t.equal(await nodeOfSocket(() => socketThroughProxy(`guild=${guild}&connectionParams=1`)), homes[i], `guild ${guild}: a socket with ?guild= on the same node`);
  }
  t.same(new Set(homes), new Set(['A', 'B']), `the guilds are spread over both nodes (${homes.join('')})`);
  const spread = await servedBy(async () => {
    for (let j = 0; j < 24; j++) t.equal((await viaProxy('/api/v1/health')).status, 200);
  });
  t.ok(spread.every((c) => c > 0), `requests without a guild are balanced over both nodes (${spread.join(' + ')})`);
});

t.test('a node takes ?guild= on the tRPC WebSocket path and ignores it (a routing hint, never read)', async (t) => {
  for (const query of [`guild=${A}&connectionParams=1`, 'guild=not%20a%20guild&connectionParams=1', 'connectionParams=1&guild=']) {
    const ws = new WebSocket(`${nodes[0].url.replace('http', 'ws')}/trpc?${query}`);
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('unexpected-response', () => reject(new Error(query))); });
    t.pass(`/trpc?${query}: upgraded`);
    ws.close();
  }
});

let home: Node;
let other: Node;
const boards: ReturnType<typeof openBoard>[] = [];
t.teardown(() => boards.forEach((b) => b.close()));

t.test('a guild\'s boards (the SDK with guildId: ?guild= on its socket) and sockets all go to the guild\'s node', async (t) => {
  for (let i = 0; i < 4; i++) {
    const board = openBoard(proxyUrl, { apiKey: key, guildId: A, topics: [...TOPICS], WebSocket: TrustingWebSocket });
    boards.push(board);
    await board.until(() => board.state.stats.snapshots === 1);
  }
  const raw = await Promise.all([0, 1].map(() => socketThroughProxy(`guild=${A}&connectionParams=1`)));
  const open = await Promise.all(nodes.map(openSockets));
  const i = open.findIndex((c) => c === 6);
  t.ok(i >= 0 && open.every((c, k) => k === i || c === 0), `the 4 boards and 2 sockets of guild ${A} are on one node (${open.join(' + ')})`);
  raw.forEach((ws) => ws.close());
  home = nodes[i] ?? nodes[0];
  other = nodes.find((x) => x !== home)!;

  // The real board in Chromium, signed in through the proxy with a session: its sockets are the SDK's, with ?guild=.
  const deadline = Date.now() + 5000;
  while ((await openSockets(home)) !== 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const [onHome, onOther] = [await openSockets(home), await openSockets(other)];
  const browser = await launchBrowser(t, [`--ignore-certificate-errors-spki-list=${cert.spkiSha256}`]);
  const page = await browser.newPage();
  await page.goto(await createLoginLink(db.sql, proxyUrl, A, 'u1'));
  await page.locator('#connection.conn-live').waitFor();
  t.ok((await openSockets(home)) > onHome, 'the browser board\'s socket is on the guild\'s node');
  t.equal(await openSockets(other), onOther, 'and none on the other');
});

t.test('the guild\'s node dies: its boards reconnect through the proxy to the other node and keep working', async (t) => {
  t.ok(boards.length === 4, 'the boards of the test before');
  t.equal((await call(other.url, 'POST', '/admin/clock-in', { key, body: { badge: 2 } })).status, 200, 'a write on the other node');
  await Promise.all(boards.map((b) => b.until(() => 'u2' in b.state.topics.onDuty!, 5000)));
  t.pass('the boards on the guild\'s node show it (through Redis)');
  home.child.kill('SIGKILL');
  await home.exited;
  const deadline = Date.now() + 15_000;
  while ((await openSockets(other)) < 4) {
    if (Date.now() > deadline) throw new Error('the boards did not reconnect to the other node');
    await new Promise((r) => setTimeout(r, 100));
  }
  t.pass('all four boards are on the other node');
  const write = await httpsCall(`${proxyUrl}/api/v1/admin/clock-in`, { ca: cert.pem, method: 'POST', headers: { authorization: `Bearer ${key}` }, body: { badge: 3 } });
  t.equal(write.status, 200, 'a write through the proxy, now on the other node');
  const [head] = await db.sql`select seq::int from event_streams where guild_id = ${A}`;
  const fresh = openBoard(other.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.stats.snapshots === 1 && fresh.state.seq === head.seq);
  for (const board of boards) {
    await board.until(() => board.state.seq === head.seq, 5000);
    t.same(board.state.topics, fresh.state.topics, 'the moved board equals a fresh snapshot');
    t.equal(board.state.stats.gaps, 0, 'no sequence gap');
    t.equal(board.state.stats.snapshots, 1, 'resumed from its last event: no second snapshot');
  }
  t.ok('u3' in boards[0].state.topics.onDuty!, 'the write after the switch is on the board');
  // New sockets of the guild go to the living node too while the dead one is left out.
  const before = await openSockets(other);
  const late = openBoard(proxyUrl, { apiKey: key, guildId: A, topics: [...TOPICS], WebSocket: TrustingWebSocket });
  t.teardown(late.close);
  await late.until(() => late.state.stats.snapshots === 1);
  t.equal(await openSockets(other), before + 1, 'a new board of the guild opens on the living node');
});
