/**
 * What /metrics counts: requests on each door (REST, tRPC over HTTP, calls over the WebSocket)
 * under their route template or procedure path, never the URL asked for; X-Request-Id; open
 * sockets, subscriptions and live deliveries; the outbox lag of applied events.
 */
import t from 'tap';
import WebSocket from 'ws';
import superjson from 'superjson';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { until } from '../helpers/live.ts';

const TOKEN = 'metrics-token-for-the-requests-test';
const G = '563000000000000001';
const server = await startTestServer(t, { METRICS_TOKEN: TOKEN });
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'One', badge: '1' }, { userId: 'u2', nickname: 'Two', badge: '2' }]);
const key = await unscopedKey(server.sql, G);

/** The samples of one scrape: `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.status !== 200) throw new Error(`scrape: ${res.status}`);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^(\S+) (\S+)$/.exec(line);
    if (m && !line.startsWith('#')) samples.set(m[1], Number(m[2]));
  }
  return samples;
}
const requests = (s: Map<string, number>, door: string, method: string, route: string, status: number) =>
  s.get(`dispatch_terminal_requests_total{door="${door}",method="${method}",route="${route}",status="${status}"}`) ?? 0;

t.test('a REST call is counted under its route template, with its status and duration', async (t) => {
  const before = await scrape();
  const ok = await api('GET', '/admin/clock-status/1', { key });
  t.equal(ok.status, 200);
  const missing = await api('GET', '/admin/clock-status/999', { key, skipContract: true });
  t.equal(missing.status, 404);
  const anonymous = await api('GET', '/admin/clock-status/1', { skipContract: true });
  t.equal(anonymous.status, 401);
  const after = await scrape();
  const route = '/api/v1/admin/clock-status/{badge}';
  t.equal(requests(after, 'rest', 'GET', route, 200) - requests(before, 'rest', 'GET', route, 200), 1, '200 counted once');
  t.equal(requests(after, 'rest', 'GET', route, 404) - requests(before, 'rest', 'GET', route, 404), 1, '404 counted once');
  t.equal(requests(after, 'rest', 'GET', route, 401) - requests(before, 'rest', 'GET', route, 401), 1, '401 counted once');
  const count = (s: Map<string, number>) => s.get(`dispatch_terminal_request_duration_seconds_count{door="rest",method="GET",route="${route}",status_class="2xx"}`) ?? 0;
  t.equal(count(after) - count(before), 1, 'one duration observed for the 2xx');
  const labels = [...after.keys()].join('\n');
  t.notMatch(labels, /clock-status\/(1|999)\b/, 'no raw path is a label');
});

t.test('unknown URLs and procedures never become labels', async (t) => {
  const before = await scrape();
  await fetch(`${server.url}/no/such/path/4711`);
  await fetch(`${server.url}/trpc/no.such.procedure4711`);
  await fetch(`${server.url}/trpc/health.check,health.check?batch=1&input=${encodeURIComponent('{}')}`);
  const after = await scrape();
  t.equal(requests(after, 'http', 'GET', '(unmatched)', 404) - requests(before, 'http', 'GET', '(unmatched)', 404), 1, 'the catch-all: (unmatched)');
  t.equal(requests(after, 'trpc_http', 'GET', '(unknown)', 404) - requests(before, 'trpc_http', 'GET', '(unknown)', 404), 1, 'an unknown procedure: (unknown)');
  t.equal(requests(after, 'trpc_http', 'GET', '(batch)', 200) - requests(before, 'trpc_http', 'GET', '(batch)', 200), 1, 'a batch: (batch)');
  t.notMatch([...after.keys()].join('\n'), /4711/, 'nothing of the URLs asked for');
});

t.test('a tRPC HTTP call is counted under its procedure path', async (t) => {
  const before = await scrape();
  const res = await fetch(`${server.url}/trpc/timeclock.clockStatus?input=${encodeURIComponent(JSON.stringify({ json: { badge: 1 } }))}`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(res.status, 200, await res.text());
  const after = await scrape();
  t.equal(requests(after, 'trpc_http', 'GET', 'timeclock.clockStatus', 200) - requests(before, 'trpc_http', 'GET', 'timeclock.clockStatus', 200), 1);
});

t.test('X-Request-Id: answered on every request; a sane incoming one is kept, anything else replaced', async (t) => {
  const own = await fetch(`${server.url}/api/v1/health`);
  t.match(own.headers.get('x-request-id'), /^[0-9a-f]{8}-[0-9a-z]+$/, 'the server\'s own id');
  const other = await fetch(`${server.url}/api/v1/health`);
  t.not(other.headers.get('x-request-id'), own.headers.get('x-request-id'), 'a new one per request');
  const kept = await fetch(`${server.url}/api/v1/ready`, { headers: { 'x-request-id': 'proxy-1.abc_DEF' } });
  t.equal(kept.headers.get('x-request-id'), 'proxy-1.abc_DEF', 'kept');
  for (const bad of ['has space', 'x'.repeat(65), 'semi;colon', '<script>']) {
    const res = await fetch(`${server.url}/api/v1/health`, { headers: { 'x-request-id': bad } });
    t.match(res.headers.get('x-request-id'), /^[0-9a-f]{8}-[0-9a-z]+$/, `${JSON.stringify(bad.slice(0, 10))}: replaced`);
  }
  for (const [what, res] of [
    ['a 404', await fetch(`${server.url}/nope`)],
    ['a tRPC answer', await fetch(`${server.url}/trpc/health.check`)],
    ['a HEAD', await fetch(`${server.url}/api/v1/health`, { method: 'HEAD' })],
    ['a redirect', await fetch(`${server.url}/`, { redirect: 'manual' })],
  ] as const) t.ok(res.headers.get('x-request-id'), `${what} has one`);
});

t.test('WebSocket: the upgrade, calls and subscriptions, open sockets, live deliveries, outbox lag', async (t) => {
  const before = await scrape();
  const wsClient = createWSClient({ url: `${server.url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  t.teardown(() => wsClient.close());
  await c.health.check.query();
  const got: unknown[] = [];
  const sub = c.live.watch.subscribe({ topics: ['onDuty'] }, { onData: (d) => got.push(d) });
  await until(() => got.length >= 1, 'the snapshot', 5000);
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
  await until(() => got.length >= 2, 'the delta', 5000);
  const during = await scrape();
  t.equal(requests(during, 'ws', 'GET', '/trpc', 101) - requests(before, 'ws', 'GET', '/trpc', 101), 1, 'the upgrade: 101');
  t.equal(requests(during, 'ws', 'query', 'health.check', 200) - requests(before, 'ws', 'query', 'health.check', 200), 1, 'a query over the socket');
  t.equal(requests(during, 'ws', 'subscription', 'live.watch', 200) - requests(before, 'ws', 'subscription', 'live.watch', 200), 1, 'a subscription, counted when it started');
  t.equal(during.get('dispatch_terminal_websockets_open'), 1, 'one socket open');
  t.equal(during.get('dispatch_terminal_subscriptions'), 1, 'one subscription');
  t.equal(during.get('dispatch_terminal_live_subscriptions'), 1, 'one live subscription');
  t.ok(during.get('dispatch_terminal_live_deliveries_total')! - (before.get('dispatch_terminal_live_deliveries_total') ?? 0) >= 2, 'the snapshot and the delta delivered');
  t.equal(during.get('dispatch_terminal_hub_guilds'), 1, 'the guild is loaded');
  t.ok(during.get('dispatch_terminal_event_lag_seconds_count')! >= 1, 'the clock-in\'s lag observed');
  sub.unsubscribe();
  wsClient.close();
  await until(() => server.ws.connections === 0, 'the socket closed', 5000);
  const after = await scrape();
  t.equal(after.get('dispatch_terminal_websockets_open'), 0, 'no socket open');
  t.equal(after.get('dispatch_terminal_live_subscriptions'), 0, 'no live subscription');
  const closes = (s: Map<string, number>) => [...s].filter(([k]) => k.startsWith('dispatch_terminal_websocket_closes_total{code="')).reduce((n, [, v]) => n + v, 0);
  t.equal(closes(after) - closes(before), 1, 'the close counted under its code');
});

t.test('a gap in the event sequence (a lost bus message) is counted and repaired from the log', async (t) => {
  const hub = await server.deps.hub.guild(G);
  const before = await scrape();
  // Two events in the log; this node's bus carries only the second (the first one's message was lost).
  await server.sql`update event_streams set seq = seq + 2 where guild_id = ${G}`;
  const [{ epoch, seq }] = await server.sql<{ epoch: string; seq: number }[]>`select epoch, seq::float8 as seq from event_streams where guild_id = ${G}`;
  for (const s of [seq - 1, seq]) {
    await server.sql`insert into events (guild_id, seq, topics, deltas) values (${G}, ${s}, ${['onDuty']}::text[], ${server.sql.json({ onDuty: [] })})`;
  }
  hub.receive({ guildId: G, epoch, seq, at: Date.now(), deltas: {} });
  await until(() => hub.head === seq, 'the missing event read from the log', 5000);
  const after = await scrape();
  t.equal(after.get('dispatch_terminal_hub_gaps_total')! - before.get('dispatch_terminal_hub_gaps_total')!, 1, 'one gap');
  t.ok(after.get('dispatch_terminal_hub_replayed_events_total')! - before.get('dispatch_terminal_hub_replayed_events_total')! >= 1, 'replayed from the log');
});
