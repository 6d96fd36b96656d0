import t from 'tap';
import WebSocket from 'ws';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until } from '../helpers/live.ts';

const G = '560000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Bo', badge: '2', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);

t.test('snapshot first, then deltas of REST writes', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['onDuty', 'overview', 'dispatchers', 'alarm'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.same(board.state.topics.onDuty, {}, 'nobody on duty');
  t.equal(board.frames[0].kind, 'snapshot');

  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  await board.until(() => 'u1' in (board.state.topics.onDuty ?? {}));
  t.match(board.state.topics.onDuty!.u1, { userId: 'u1', nickname: 'Ada', badge: '01', since: Number });
  t.equal(board.state.topics.overview!.onDuty, 1);
  const delta = board.frames.at(-1)!;
  t.equal(delta.kind, 'delta');
  t.same(Object.keys(delta.topics).sort(), ['alarm', 'dispatchers', 'onDuty', 'overview'], 'one frame carries every topic of the write');

  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  await board.until(() => !('u1' in board.state.topics.onDuty!));
  t.equal(board.state.topics.overview!.onDuty, 0);
  t.equal(board.state.stats.gaps, 0);
});

t.test('the stock @trpc/client wsLink works unchanged', async (t) => {
  const wsClient = createWSClient({ url: `${server.url.replace('http', 'ws')}/trpc`, WebSocket: WebSocket as never, connectionParams: () => ({ authorization: `Bearer ${key}` }) });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  t.teardown(() => wsClient.close());
  t.same(await c.health.check.query(), { ok: true }, 'query over the socket');
  const shift = await c.timeclock.clockIn.mutate({ badge: 2 });
  t.ok(shift.clockInAt instanceof Date, 'mutation over the socket, superjson Dates');
  const got: any[] = [];
  const sub = c.live.watch.subscribe({ topics: ['onDuty'] }, { onData: (d) => got.push(d) });
  await until(() => got.length >= 1, 'the snapshot', 5000);
  t.match(got[0], { id: /^[A-Za-z0-9]+\.\d+$/, data: { kind: 'snapshot' } });
  t.ok('u2' in got[0].data.topics.onDuty);
  await c.timeclock.clockOut.mutate({ badge: 2 });
  await until(() => got.length >= 2, 'the delta', 5000);
  t.match(got[1].data, { kind: 'delta', topics: { onDuty: [{ op: 'remove', key: 'u2' }] } });
  sub.unsubscribe();
});

t.test('without the uWS socket (stock adapters) the same procedure yields the same tracked frames', async (t) => {
  const { createCallerFactory } = await import('../../server/trpc/init.ts');
  const { appRouter } = await import('../../server/trpc/app-router.ts');
  const { createContext } = await import('../../server/trpc/context.ts');
  const ctx = await createContext(server.deps, { authorization: `Bearer ${key}` }, { crossSite: false, jsonBody: true });
  const abort = new AbortController();
  const caller = createCallerFactory(appRouter)(ctx, { signal: abort.signal });
  const iterable = await caller.live.watch({ topics: ['onDuty'] });
  const it = (iterable as AsyncIterable<any>)[Symbol.asyncIterator]();
  const first = (await it.next()).value;
  t.match(first, [/^[A-Za-z0-9]+\.\d+$/, { kind: 'snapshot' }], 'a tracked snapshot first');
  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  const second = (await it.next()).value;
  t.match(second[1], { kind: 'delta', prev: first[1].seq, topics: { onDuty: [{ op: 'upsert', key: 'u1' }] } });
  abort.abort();
  t.same(await it.next(), { done: true, value: undefined }, 'ends when aborted');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
});
