import t from 'tap';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { createDispatchClient, httpStatusOf } from '../../client-sdk/index.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

const G = '556000000000000001';
const H = '556000000000000002';
const server = await startTestServer(t);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Ida', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Jan', badge: '2', rank: 'crew' },
]);
await seedGuild(server.sql, H, [{ userId: 'u1', nickname: 'Ida in H', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const keyH = await unscopedKey(server.sql, H);

const stock = (apiKey?: string, extra: Record<string, string> = {}) => createTRPCClient<AppRouter>({
  links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, headers: () => ({ ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...extra }) })],
});

t.test('the stock @trpc/client calls the same procedures as REST', async (t) => {
  const c = stock(key);
  t.same(await c.health.check.query(), { ok: true });
  const shift = await c.timeclock.clockIn.mutate({ badge: '01' });
  t.equal(shift.badgeNumber, '01');
  t.ok(shift.clockInAt instanceof Date, 'superjson brings Dates back as Date');
  const status = await c.timeclock.clockStatus.query({ badge: 1 });
  t.match(status, { badgeNumber: '01', clockedIn: true, status: 'OPEN' });
  const rest = await call(server.url, 'GET', '/api/v1/admin/clock-status/1', { key });
  t.equal(rest.body.since, status.since!.toISOString(), 'REST and tRPC answer the same data');
  const out = await c.timeclock.clockOut.mutate({ badge: 1 });
  t.equal(out.status, 'CLOSED');
});

t.test('errors keep their status and message through tRPC', async (t) => {
  const c = stock(key);
  const cases: [() => Promise<unknown>, number, RegExp][] = [
    [() => c.timeclock.clockIn.mutate({ badge: 99 }), 404, /badge 99/],
    [() => c.timeclock.clockIn.mutate({ badge: -1 } as never), 400, /badge/],
    [() => c.timeclock.clockIn.mutate({ badge: 1, extra: 1 } as never), 400, /unknown field extra/],
    [() => c.timeclock.clockOut.mutate({ badge: 2 }), 409, /not clocked in/],
    [() => stock().timeclock.onDuty.query(), 401, /missing credential/],
    [() => stock('stmp_nope').timeclock.onDuty.query(), 401, /invalid API key/],
    [() => c.preferences.get.query(), 403, /session/],
  ];
  for (const [run, status, message] of cases) {
    const err = await run().then(() => null, (e) => e);
    t.ok(err instanceof TRPCClientError, 'a TRPCClientError');
    t.equal(httpStatusOf(err), status);
    t.match(err?.message, message);
    t.notOk(JSON.stringify(err?.data ?? {}).includes('stack'), 'no stack trace leaks');
  }
});

t.test('the SDK batches calls and types them', async (t) => {
  const dt = createDispatchClient({ baseUrl: server.url, apiKey: key });
  const [a, b, health] = await Promise.all([
    dt.timeclock.clockIn.mutate({ badge: 1 }),
    dt.timeclock.clockIn.mutate({ badge: 2 }),
    dt.health.check.query(),
  ]);
  t.equal(a.userId, 'u1');
  t.equal(b.userId, 'u2');
  t.equal(health.ok, true);
  const duty = await dt.timeclock.onDuty.query();
  t.equal(duty.count, 2);
  await Promise.all([dt.timeclock.clockOut.mutate({ badge: 1 }), dt.timeclock.clockOut.mutate({ badge: 2 })]);
});

t.test('a key of guild H acts only in H over tRPC', async (t) => {
  const c = stock(keyH);
  const shift = await c.timeclock.clockIn.mutate({ badge: 1 });
  t.equal(shift.nickname, 'Ida in H');
  const inG = await stock(key).timeclock.clockStatus.query({ badge: 1 });
  t.equal(inG.clockedIn, false, 'guild G untouched');
  await c.timeclock.clockOut.mutate({ badge: 1 });
});

t.test('sessions work over tRPC with x-guild-id', async (t) => {
  const session = await signIn(server, G, 'u1');
  const c = stock(undefined, { cookie: session.cookie, 'x-guild-id': G });
  const prefs = await c.preferences.get.query();
  t.equal(prefs.prefs.theme, 'system');
  const shift = await c.timeclock.selfClockIn.mutate();
  t.equal(shift.userId, 'u1');
  await c.timeclock.selfClockOut.mutate({});
});

t.test('HTTP batches are capped at 10 calls', async (t) => {
  const ten = Array.from({ length: 10 }, () => 'health.check').join(',');
  const ok = await call(server.url, 'GET', `/trpc/${ten}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);
  t.equal(ok.status, 200);
  t.equal(ok.body.length, 10);
  const eleven = Array.from({ length: 11 }, () => 'health.check').join(',');
  const tooMany = await call(server.url, 'GET', `/trpc/${eleven}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);
  t.equal(tooMany.status, 400);

  const c = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${server.url}/trpc`, transformer: superjson, maxItems: 10 })] });
  const many = await Promise.all(Array.from({ length: 25 }, () => c.health.check.query()));
  t.equal(many.length, 25, 'a client with maxItems 10 splits larger batches');
});

t.test('bad tRPC requests are 4xx, never 500', async (t) => {
  const cases: [string, string, string | undefined, number][] = [
    ['GET', '/trpc/nope.nothing', undefined, 404],
    ['POST', '/trpc/health.check', '{}', 405],
    ['GET', '/trpc/timeclock.clockIn', undefined, 405],
    ['POST', '/trpc/timeclock.clockIn', '{bad json', 400],
    ['GET', `/trpc/timeclock.clockStatus?input=${encodeURIComponent('{"json":{"badge":"x"}}')}`, undefined, 400],
    ['GET', `/trpc/timeclock.clockStatus?input=%7Bnot-json`, undefined, 400],
  ];
  for (const [method, path, raw, status] of cases) {
    const res = await call(server.url, method, path, { key, raw });
    t.ok(res.status >= 400 && res.status < 500, `${method} ${path} is a client error (${res.status})`);
    t.equal(res.status, status, `${method} ${path}`);
  }
  const big = await call(server.url, 'POST', '/trpc/timeclock.clockIn', { key, raw: JSON.stringify({ json: { badge: 1, pad: 'x'.repeat(1_100_000) } }) });
  t.equal(big.status, 413);
});
