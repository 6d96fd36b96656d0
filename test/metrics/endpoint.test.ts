/**
 * GET /metrics: off unless METRICS_TOKEN is set (then a 404 like any unknown route); with it, only
 * `Authorization: Bearer <token>` reads the Prometheus text (401 with WWW-Authenticate otherwise),
 * without a guild or a session.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { loadConfig } from '../../server/config.ts';

const TOKEN = 'metrics-token-for-the-endpoint-test';
const [off, on] = await Promise.all([startTestServer(t), startTestServer(t, { METRICS_TOKEN: TOKEN })]);
const scrape = (url: string, headers: Record<string, string> = {}) => fetch(`${url}/metrics`, { headers });

t.test('without METRICS_TOKEN there is no /metrics: 404 {error}, even with a bearer token', async (t) => {
  for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
    const res = await scrape(off.url, headers);
    t.equal(res.status, 404);
    t.match(await res.json(), { error: /no route GET \/metrics/ });
  }
});

t.test('with METRICS_TOKEN: 401 without the token or with another, naming the scheme', async (t) => {
  const cases: [string, Record<string, string>][] = [
    ['no header', {}],
    ['wrong token', { authorization: 'Bearer not-the-metrics-token-at-all' }],
    ['the token without the scheme', { authorization: TOKEN }],
    ['the token as Basic', { authorization: `Basic ${TOKEN}` }],
    ['a prefix of the token', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['the token and more', { authorization: `Bearer ${TOKEN}x` }],
    ['an API-key-looking bearer', { authorization: 'Bearer dt_0000000000000000000000000000' }],
  ];
  for (const [name, headers] of cases) {
    const res = await scrape(on.url, headers);
    t.equal(res.status, 401, `${name}: 401`);
    t.match(res.headers.get('www-authenticate'), /^Bearer\b/, `${name}: WWW-Authenticate: Bearer`);
    t.match(await res.json(), { error: /Authorization: Bearer/ }, `${name}: {error}`);
  }
});

t.test('a guild\'s credentials read no metrics: an API key and a session are 401 too', async (t) => {
  const G = '565000000000000001';
  await seedGuild(on.sql, G, [{ userId: 'u1', nickname: 'One', badge: '1', admin: true }]);
  const key = await unscopedKey(on.sql, G);
  const session = await signIn(on, G, 'u1');
  for (const [name, headers] of [['an unscoped API key', { authorization: `Bearer ${key}` }], ['an admin\'s session', { cookie: session.cookie, 'x-guild-id': G }]] as const) {
    const res = await scrape(on.url, headers);
    t.equal(res.status, 401, name);
  }
});

t.test('HEAD /metrics: the same status and headers, no body', async (t) => {
  const refused = await fetch(`${on.url}/metrics`, { method: 'HEAD' });
  t.equal(refused.status, 401);
  t.equal(await refused.text(), '');
  const ok = await fetch(`${on.url}/metrics`, { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(ok.status, 200);
  t.match(ok.headers.get('content-type'), /^text\/plain/);
  t.equal(await ok.text(), '');
});

t.test('with the token: 200, Prometheus text, every family an operator expects', async (t) => {
  // Something to count first: a request on each HTTP door.
  await fetch(`${on.url}/api/v1/health`);
  await fetch(`${on.url}/trpc/health.check`);
  const res = await scrape(on.url, { authorization: `Bearer ${TOKEN}` });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/, 'prom-client\'s content type');
  const text = await res.text();
  const families = [
    // Node's own (prom-client's default metrics)
    'process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds',
    // the server's
    'dispatch_terminal_requests_total', 'dispatch_terminal_request_duration_seconds', 'dispatch_terminal_websockets_open',
    'dispatch_terminal_websockets_pending', 'dispatch_terminal_subscriptions', 'dispatch_terminal_live_subscriptions',
    'dispatch_terminal_live_deliveries_total', 'dispatch_terminal_slow_consumers_total', 'dispatch_terminal_websocket_closes_total',
    'dispatch_terminal_hub_gaps_total', 'dispatch_terminal_hub_replayed_events_total', 'dispatch_terminal_hub_reloads_total',
    'dispatch_terminal_hub_guilds', 'dispatch_terminal_event_lag_seconds', 'dispatch_terminal_database_up',
    'dispatch_terminal_database_connections', 'dispatch_terminal_discord_gateway',
    'dispatch_terminal_chart_workers', 'dispatch_terminal_chart_renders_running', 'dispatch_terminal_chart_renders_waiting',
    'dispatch_terminal_chart_renders_refused_total',
    'dispatch_terminal_positions_received_total', 'dispatch_terminal_positions_units', 'dispatch_terminal_position_subscriptions',
    'dispatch_terminal_position_frames_total', 'dispatch_terminal_position_frames_skipped_total',
  ];
  const missing = families.filter((f) => !new RegExp(`^# TYPE ${f} `, 'm').test(text));
  t.same(missing, [], 'no family missing');
  t.ok(/^dispatch_terminal_database_up 1$/m.test(text), 'the database answers');
  t.ok(/^dispatch_terminal_discord_gateway\{state="off"\} 1$/m.test(text), 'no Discord token: off');
  t.ok(/^dispatch_terminal_database_connections\{pool="statements",state="max"\} 10$/m.test(text), 'the pool\'s size');
  t.notOk(/^dispatch_terminal_redis_up/m.test(text), 'no Redis configured: no such family');
  t.ok(/^dispatch_terminal_requests_total\{door="rest",method="GET",route="\/api\/v1\/health",status="200"\} 1$/m.test(text), 'the REST door counted');
  t.ok(/^dispatch_terminal_requests_total\{door="trpc_http",method="GET",route="health\.check",status="200"\} 1$/m.test(text), 'the tRPC door counted');
});

t.test('two servers in one process keep their counts apart (each its own registry)', async (t) => {
  const res = await scrape(on.url, { authorization: `Bearer ${TOKEN}` });
  const text = await res.text();
  const other = await fetch(`${off.url}/api/v1/health`);
  t.equal(other.status, 200);
  const again = await (await scrape(on.url, { authorization: `Bearer ${TOKEN}` })).text();
  const health = (s: string) => s.match(/^dispatch_terminal_requests_total\{door="rest",method="GET",route="\/api\/v1\/health",status="200"\} (\d+)$/m)?.[1];
  t.equal(health(again), health(text), 'a request on the other server is not counted here');
});

t.test('a METRICS_TOKEN too short to be a secret stops the start with one line', async (t) => {
  t.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /invalid configuration: METRICS_TOKEN: must be at least 16 characters/);
  t.throws(() => loadConfig({ METRICS_TOKEN: 'has a space in it, long enough' }), /METRICS_TOKEN/);
});
