/**
 * The compose stack's topology on this machine (no Docker engine here): Debian's nginx, running the
 * very files compose.yaml mounts (deploy/nginx/dispatch-terminal-*.conf, included unchanged by a
 * wrapper with loopback ports), terminates TLS in front of two real nodes on one PostgreSQL and a
 * real Redis. Node A is a `serve` process (so it can be killed) and the proxy's primary; node B runs
 * in this process and is the backup, so whatever connects through the proxy is on A until A dies.
 * Clients trust only the test's own certificate: the SDK and `ws` by `ca`, Chromium by its key.
 */
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freshDatabase } from '../helpers/db.ts';
import { ensureDebianPackages } from '../helpers/debian.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until } from '../helpers/live.ts';
import { httpsCall, selfSignedCertificate, startNginx, webSocketTrusting, type HttpsAnswer } from '../helpers/nginx.ts';
import { startRedis } from '../helpers/redis.ts';
import { serveProcess } from '../helpers/serve-process.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { freePort } from '../../server/store/embedded.ts';

ensureDebianPackages([['nginx', 'nginx'], ['openssl', 'openssl']]);
const G = '562000000000000001';
const TOPICS = ['onDuty', 'overview', 'dispatchers', 'units', 'alarm'] as const;
const METRICS_TOKEN = 'metrics-token-of-the-proxy-test';
const people = Array.from({ length: 12 }, (_, i) => ({ userId: `u${i + 1}`, nickname: `Person ${i + 1}`, badge: String(i + 1), rank: 'crew', admin: i === 0 }));

const cert = selfSignedCertificate(mkdtempSync(join(tmpdir(), 'dt-cert-')));
const [redis, db, proxyPort, portA] = await Promise.all([startRedis(t), freshDatabase(), freePort(), freePort()]);
t.teardown(db.drop);
const proxyUrl = `https://127.0.0.1:${proxyPort}`;
await seedGuild(db.sql, G, people);
const key = await unscopedKey(db.sql, G);
// What compose.yaml gives each node: the shared database and Redis, the public URL, the proxy as trusted.
const nodeEnv = {
  REDIS_URL: redis.url, PUBLIC_URL: proxyUrl, TRUSTED_PROXIES: '127.0.0.1', METRICS_TOKEN, WS_PENDING_PER_ADDRESS: '2',
};
const [nodeA, nodeB] = await Promise.all([
  serveProcess(t, { ...nodeEnv, DATABASE_URL: db.url, PORT: String(portA) }),
  startTestServer(t, nodeEnv, { databaseUrl: db.url, hub: { positionCheckMs: 300, gapGraceMs: 20 } }),
]);
const urlA = `http://127.0.0.1:${portA}`;
const proxy = await startNginx(t, {
  port: proxyPort,
  certificate: cert,
  // This environment's own upstream: B as backup pins everything to A while A lives (deploy/nginx/nginx.conf balances over both).
  upstream: `server 127.0.0.1:${portA} max_fails=1 fail_timeout=10s;\nserver 127.0.0.1:${nodeB.port} backup;\nkeepalive 8;`,
});
const viaProxy = (path: string, o: Omit<Parameters<typeof httpsCall>[1], 'ca'> = {}) => httpsCall(proxyUrl + path, { ca: cert.pem, ...o });
const TrustingWebSocket = webSocketTrusting(cert.pem);

t.test('health, readiness and the board page through the proxy, over TLS trusted by its CA', async (t) => {
  for (const path of ['/api/v1/health', '/api/v1/ready']) {
    const res = await viaProxy(path);
    t.equal(res.status, 200, `${path}: 200`);
    t.match(res.body, path.endsWith('health') ? { ok: true } : { ready: true }, `${path}: the node's answer`);
  }
  const page = await viaProxy('/dispatch');
  t.equal(page.status, 200);
  t.match(page.headers['content-type'], /text\/html/, 'the board page');
  t.notMatch(page.headers.server ?? '', /\d/, 'nginx names no version');
});

t.test('/metrics: refused through the public site, scraped on each node directly', async (t) => {
  for (const path of ['/metrics', '/%6Detrics', '/metrics?x=1', '//metrics']) {
    const res = await viaProxy(path, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    t.equal(res.status, 403, `${path}: 403 at the proxy, even with the token`);
    t.match(res.body, { error: /not served through the public proxy/ }, `${path}: {error}`);
  }
  for (const [name, url] of [['A', urlA], ['B', nodeB.url]]) {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    t.equal(res.status, 200, `node ${name}: scraped on its own address`);
    t.match(await res.text(), /^# (HELP|TYPE) /m, `node ${name}: Prometheus text`);
  }
});

type Upgrade = { opened: true; ws: WebSocket } | { opened: false; status: number; body: any };

/** An unauthenticated WebSocket through the proxy from the loopback address `from` (it stays pending on the node). */
function pendingSocket(from: string, headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${proxyUrl.replace('https', 'wss')}/trpc?connectionParams=1`, { ca: cert.pem, localAddress: from, headers });
    ws.on('open', () => resolve({ opened: true, ws }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ opened: false, status: res.statusCode!, body: JSON.parse(text) }));
    });
    ws.on('error', (err) => { if (!/Unexpected server response/.test(err.message)) reject(err); });
  });
}

t.test('X-Forwarded-For reaches the node as the client: the per-address limit counts clients, not the proxy', async (t) => {
  const mine = [await pendingSocket('127.0.0.2'), await pendingSocket('127.0.0.2')];
  t.teardown(() => mine.forEach((u) => u.opened && u.ws.terminate()));
  t.ok(mine.every((u) => u.opened), 'two pending sockets from 127.0.0.2 (the limit is 2)');
  const third = await pendingSocket('127.0.0.2');
  t.match(third, { opened: false, status: 429, body: { error: /at most 2 unauthenticated WebSockets from this address/ } }, 'a third from 127.0.0.2 is refused');
  const spoofed = await pendingSocket('127.0.0.2', { 'x-forwarded-for': '127.0.0.77' });
  t.match(spoofed, { opened: false, status: 429 }, 'an X-Forwarded-For the client wrote itself changes nothing');
  const other = await pendingSocket('127.0.0.3');
  t.teardown(() => other.opened && other.ws.terminate());
  t.ok(other.opened, 'another client behind the same proxy still gets in');
});

t.test('a board through the proxy on node A sees writes made on node B; killing A moves it to B with nothing lost', async (t) => {
  // Other dispatchers of the guild are on B (compose.yaml balances boards over both nodes), so B holds the guild's recent events.
  const boardOnB = openBoard(nodeB.url, { apiKey: key, topics: [...TOPICS] });
  t.teardown(boardOnB.close);
  await boardOnB.until(() => boardOnB.state.stats.snapshots === 1);
  const board = openBoard(proxyUrl, { apiKey: key, topics: [...TOPICS], WebSocket: TrustingWebSocket });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal(nodeB.ws.stats.sockets, 1, 'the board through the proxy is on node A');
  // The real board in Chromium, through the same proxy with a session cookie, trusting only this certificate.
  const browser = await launchBrowser(t, [`--ignore-certificate-errors-spki-list=${cert.spkiSha256}`]);
  const page = await browser.newPage();
  await page.goto(await createLoginLink(db.sql, proxyUrl, G, 'u1'));
  await page.locator('#connection.conn-live').waitFor();
  await page.locator('#tab-clock').click();
  const onDutyRow = (userId: string) => page.locator(`#on-duty tr[data-user="${userId}"]`);

  t.equal((await call(nodeB.url, 'POST', '/admin/clock-in', { key, body: { badge: 2 } })).status, 200, 'clock-in on node B');
  await board.until(() => 'u2' in board.state.topics.onDuty!, 3000);
  await onDutyRow('u2').waitFor({ timeout: 3000 });
  t.pass('the SDK board and the browser board on A both show it');

  // Writers through the proxy (on A, then B) and on B directly, on people of their own; A dies meanwhile.
  const acknowledged = { proxy: 0, nodeB: 0, proxyAfterKill: 0 };
  const proxyAnswers: HttpsAnswer[] = [];
  let killed = false;
  let running = true;
  const writer = async (badges: number[], write: (path: string, badge: number) => Promise<{ status: number }>, count: 'proxy' | 'nodeB') => {
    for (let i = 0; running; i++) {
      const badge = badges[i % badges.length];
      for (const path of ['/admin/clock-in', '/admin/clock-out']) {
        const res = await write(path, badge);
        if (res.status === 200) {
          acknowledged[count]++;
          if (count === 'proxy' && killed) acknowledged.proxyAfterKill++;
        }
      }
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  const writers = Promise.all([
    writer([3, 4, 5, 6], async (path, badge) => {
      const res = await viaProxy(`/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: { badge } });
      proxyAnswers.push(res);
      return res;
    }, 'proxy'),
    writer([7, 8, 9, 10], (path, badge) => call(nodeB.url, 'POST', path, { key, body: { badge } }), 'nodeB'),
  ]);
  await until(() => acknowledged.proxy >= 4 && acknowledged.nodeB >= 4, 'writes through the proxy (on A) and on B', 10_000);
  nodeA.child.kill('SIGKILL');
  await nodeA.exited;
  killed = true;
  await until(() => nodeB.ws.stats.sockets >= 3, 'the SDK board and the browser reconnected to node B', 10_000);
  await until(() => acknowledged.proxyAfterKill >= 6, 'writes through the proxy go on, on node B', 10_000);
  running = false;
  await writers;
  t.equal((await call(nodeB.url, 'POST', '/admin/clock-in', { key, body: { badge: 11 } })).status, 200, 'one more write on B after the switch');
  t.pass(`acknowledged writes: ${JSON.stringify(acknowledged)}`);
  const odd = proxyAnswers.filter((r) => r.status !== 200 && r.status !== 409);
  t.ok(odd.every((r) => r.status === 503 && typeof r.body?.error === 'string'), `what A's death cost a writer through the proxy is a 503 {error} (${odd.map((r) => `${r.status} ${r.text.slice(0, 60)}`).join('; ') || 'none'})`);

  const [head] = await db.sql`select seq::int from event_streams where guild_id = ${G}`;
  await board.until(() => board.state.seq === head.seq, 5000);
  const fresh = openBoard(proxyUrl, { apiKey: key, topics: [...TOPICS], WebSocket: TrustingWebSocket });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.stats.snapshots === 1 && fresh.state.seq === head.seq);
  await boardOnB.until(() => boardOnB.state.seq === head.seq, 5000);
  t.same(board.state.topics, fresh.state.topics, 'the moved board equals a fresh snapshot');
  t.same(boardOnB.state.topics, fresh.state.topics, 'and so does the board that was on B all along');
  t.equal(board.state.stats.gaps, 0, 'no sequence gap');
  t.equal(board.state.stats.snapshots, 1, 'it resumed on B from its last event: no second snapshot');

  await page.locator('#connection.conn-live').waitFor({ timeout: 10_000 });
  await onDutyRow('u11').waitFor({ timeout: 3000 });
  const shown = (await page.locator('#on-duty tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')))).sort();
  const expected = Object.keys(fresh.state.topics.onDuty!).sort();
  t.same(shown, expected, 'the browser board on B shows who is on duty, as a fresh snapshot says');
  await screenshot(page, 'deploy-board-after-failover');
});
