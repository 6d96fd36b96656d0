/**
 * The access log: one JSON line per HTTP request (request id, door, method, route template,
 * status, duration, the credential's guild), never a key, a cookie, a login link's token or a
 * query string; never held back as a repeat. Calls over a WebSocket are logged at debug. A server
 * fault's log line carries its stack, on every door.
 */
import t from 'tap';
import WebSocket from 'ws';
import superjson from 'superjson';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { until } from '../helpers/live.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';

/** The server's log lines (JSON on stderr, this process), as written. */
const lines: string[] = [];
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const text = chunk.toString();
  if (text.startsWith('{"t":')) {
    lines.push(...text.trim().split('\n'));
    return true;
  }
  return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;
t.teardown(() => void (process.stderr.write = write));

const G = '564000000000000001';
const server = await startTestServer(t, { LOG_LEVEL: 'debug' });
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'One', badge: '1', admin: true }]);
const key = await unscopedKey(server.sql, G);
const session = await signIn(server, G, 'u1');
const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const accessLines = () => entries().filter((e) => e.msg === 'request');
/** The access line of the answer `res` (by the id it answered). */
const lineOf = (res: Response) => accessLines().find((e) => e.requestId === res.headers.get('x-request-id'));

t.test('a REST request: one info line with the fields, and nothing secret of what it carried', async (t) => {
  const res = await fetch(`${server.url}/api/v1/admin/clock-status/1?note=query-secret-4711`, {
    headers: { authorization: `Bearer ${key}`, cookie: `${session.cookie}; other=cookie-secret-4711`, 'x-request-id': 'trace-abc.1' },
  });
  t.equal(res.status, 400, 'an unknown query parameter is refused: the line is written for errors too');
  await until(() => lineOf(res) !== undefined, 'the access line');
  t.match(lineOf(res), {
    lvl: 'info', msg: 'request', requestId: 'trace-abc.1', door: 'rest', method: 'GET', route: '/api/v1/admin/clock-status/{badge}', status: 400, ms: Number,
  });
  const ok = await fetch(`${server.url}/api/v1/admin/clock-status/1`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(ok.status, 200);
  await until(() => lineOf(ok) !== undefined, 'the access line');
  t.match(lineOf(ok), { status: 200, guildId: G }, 'the key\'s guild');
  const bySession = await fetch(`${server.url}/api/v1/me/stats`, { headers: { cookie: session.cookie, 'x-guild-id': G } });
  await until(() => lineOf(bySession) !== undefined, 'the access line');
  t.match(lineOf(bySession), { route: '/api/v1/me/stats', status: bySession.status, guildId: G }, 'the session\'s guild');
  const all = lines.join('\n');
  for (const secret of [key, session.cookie.split('=')[1], 'cookie-secret-4711', 'query-secret-4711']) {
    t.notOk(all.includes(secret), `${secret.slice(0, 12)}… is in no log line`);
  }
});

t.test('a login link: logged by its route template, never its token', async (t) => {
  const link = await createLoginLink(server.sql, server.url, G, 'u1');
  const token = new URL(link).pathname.split('/').pop()!;
  const res = await fetch(link, { redirect: 'manual' });
  t.equal(res.status, 302);
  await until(() => lineOf(res) !== undefined, 'the access line');
  t.match(lineOf(res), { door: 'http', route: '/auth/login/{token}', status: 302 });
  t.notOk(lines.join('\n').includes(token), 'the token is in no log line');
  const cookie = res.headers.get('set-cookie')!.split(';')[0].split('=')[1];
  t.notOk(lines.join('\n').includes(cookie), 'nor the session it made');
});

t.test('the tRPC door, and a WebSocket: the upgrade at info, each call at debug', async (t) => {
  const res = await fetch(`${server.url}/trpc/timeclock.clockStatus?input=${encodeURIComponent(JSON.stringify({ json: { badge: 1 } }))}`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(res.status, 200);
  await until(() => lineOf(res) !== undefined, 'the access line');
  t.match(lineOf(res), { door: 'trpc_http', method: 'GET', route: 'timeclock.clockStatus', status: 200, guildId: G });
  const wsClient = createWSClient({ url: `${server.url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  t.teardown(() => wsClient.close());
  await c.timeclock.clockStatus.query({ badge: 1 });
  await until(() => entries().some((e) => e.msg === 'ws call'), 'the call\'s line');
  t.match(accessLines().find((e) => e.door === 'ws'), { lvl: 'info', method: 'GET', route: '/trpc', status: 101 }, 'the upgrade');
  t.match(entries().find((e) => e.msg === 'ws call'), { lvl: 'debug', door: 'ws', method: 'query', route: 'timeclock.clockStatus', status: 200, guildId: G }, 'the call');
  t.notOk(lines.join('\n').includes(key), 'the key sent in connectionParams is in no log line');
});

t.test('access lines are never held back as repeats (the log holds back other messages after 20 in 10 s)', async (t) => {
  const before = accessLines().length;
  for (let i = 0; i < 30; i++) await fetch(`${server.url}/api/v1/health`);
  await until(() => accessLines().length >= before + 30, '30 lines', 5000);
  t.equal(accessLines().length - before, 30);
});

t.test('a server fault: 500 on each door, and its error line carries the stack', async (t) => {
  await server.sql`drop table letterheads cascade`;
  const rest = await fetch(`${server.url}/api/v1/letterheads`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(rest.status, 500, 'REST');
  const trpc = await fetch(`${server.url}/trpc/letterheads.list`, { headers: { authorization: `Bearer ${key}` } });
  t.equal(trpc.status, 500, 'tRPC over HTTP');
  const wsClient = createWSClient({ url: `${server.url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  t.teardown(() => wsClient.close());
  await t.rejects(c.letterheads.list.query(), 'WebSocket');
  for (const msg of ['request failed', 'trpc call failed', 'ws call failed']) {
    await until(() => entries().some((e) => e.msg === msg), `the line "${msg}"`);
    const line = entries().find((e) => e.msg === msg)!;
    t.match(line, { lvl: 'error', error: /letterheads/ }, `${msg}: the error`);
    t.match(line.stack, /relation "letterheads" does not exist[\s\S]*\n\s+at /, `${msg}: its stack`);
  }
  t.match(lineOf(rest), { status: 500 }, 'the access line says 500');
});
