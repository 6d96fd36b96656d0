import t from 'tap';
import WebSocket from 'ws';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, recordedSockets, until, wsWithCookie } from '../helpers/live.ts';
import { createLiveClient, watchAlarm, type LiveStatus, type WatchFrame } from '../../client-sdk/live.ts';
import { databaseOutage } from '../helpers/db.ts';

// While PostgreSQL does not answer (deps.dbHealth down), every open live.watch and me.alarm.watch
// gets a `status` frame saying so, and another when it answers again; the boards then go on
// without a gap. (The real outage, with PostgreSQL stopped, is the database tests' business.)
const G = '567000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Bo', badge: '2', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const health = server.deps.dbHealth;

t.test('boards, raw wsLink subscribers and alarm watchers hear degraded and recovered; the board then goes on', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['onDuty', 'overview'] });
  const c = createLiveClient({ url: server.url, apiKey: key, WebSocket });
  const raw: { id: string; data: WatchFrame }[] = [];
  c.trpc.live.watch.subscribe({ topics: ['units'] }, { onData: (d) => raw.push(d as { id: string; data: WatchFrame }) });
  const session = await signIn(server, G, 'u2');
  const alarm: LiveStatus[] = [];
  const states: unknown[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(session.cookie), onState: (s) => states.push(s), onStatus: (s) => alarm.push(s) });
  t.teardown(() => { board.close(); c.close(); w.close(); health.set(true); });
  await board.until(() => board.state.stats.snapshots === 1);
  await until(() => raw.length === 1 && states.length === 1, 'first frames');
  t.equal(board.state.degraded, false);

  // (The server's database monitor may find PostgreSQL answering and set it up again before we do.)
  health.set(false);
  await board.until(() => board.statuses.length >= 1);
  t.match(board.statuses[0], { degraded: true, reason: /database does not answer/ });
  await until(() => raw.length >= 2 && alarm.length >= 1, 'degraded on every subscription');
  t.match(raw[1], { id: raw[0].id, data: { kind: 'status', degraded: true, seq: raw[0].data.seq } }, 'a data frame tracked with the current id, so the stock client resumes from it');
  t.match(alarm[0], { degraded: true });

  health.set(true);
  await board.until(() => board.statuses.length >= 2);
  t.match(board.statuses[1], { degraded: false, reason: /answers again/ });
  t.equal(board.state.degraded, false);
  await until(() => raw.length >= 3 && alarm.length >= 2, 'recovered on every subscription');
  t.match(raw[2].data, { kind: 'status', degraded: false });
  t.match(alarm[1], { degraded: false });
  t.equal(board.statuses.length, 2, 'one status frame per change');

  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  await board.until(() => 'u1' in board.state.topics.onDuty!);
  t.equal(board.state.topics.overview!.onDuty, 1);
  t.same(board.state.stats, { snapshots: 1, deltas: 1, duplicates: 0, gaps: 0 }, 'the same subscription goes on: no gap, no new snapshot');
  t.same(board.frames.map((f) => f.kind), ['snapshot', 'delta'], 'status frames change no topic state');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
});

// The next two drive the fan-out's database state directly: the server's monitor would set a
// database that answers up again at once, and a subscribe while it is down is refused (503).
const fanout = server.deps.fanout!;

t.test('a subscription that attaches while degraded gets its snapshot, then the degraded status', async (t) => {
  fanout.setDatabaseUp(false);
  t.teardown(() => fanout.setDatabaseUp(true));
  const c = createLiveClient({ url: server.url, apiKey: key, WebSocket });
  t.teardown(c.close);
  const got: { id: string; data: WatchFrame }[] = [];
  c.trpc.live.watch.subscribe({ topics: ['onDuty'] }, { onData: (d) => got.push(d as { id: string; data: WatchFrame }) });
  await until(() => got.length >= 2, 'two frames');
  t.match(got.map((g) => g.data), [{ kind: 'snapshot' }, { kind: 'status', degraded: true }]);
  t.equal(got[1].id, got[0].id, 'tracked at the snapshot\'s seq');
  fanout.setDatabaseUp(true);
  await until(() => got.length >= 3, 'recovered');
  t.match(got[2].data, { kind: 'status', degraded: false });
});

t.test('a board that reconnects while degraded hears it again; after recovery it resumes from where it was', async (t) => {
  const { WebSocket: Cuttable, sockets, cut } = recordedSockets();
  const board = openBoard(server.url, { apiKey: key, topics: ['onDuty'], WebSocket: Cuttable });
  t.teardown(() => { board.close(); fanout.setDatabaseUp(true); });
  await board.until(() => board.state.stats.snapshots === 1);
  fanout.setDatabaseUp(false);
  await board.until(() => board.state.degraded);
  cut();
  await board.until(() => board.statuses.length >= 3);
  t.same(board.statuses.map((s) => s.degraded), [true, false, true], 'reset on the reconnect, then degraded again from the server');
  t.equal(sockets.length, 2);
  fanout.setDatabaseUp(true);
  await board.until(() => !board.state.degraded);
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
  await board.until(() => 'u2' in board.state.topics.onDuty!);
  t.equal(board.state.stats.snapshots, 1, 'resumed, no second snapshot');
  t.equal(board.state.stats.gaps, 0);
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
});

t.test('without the uWS socket (stock adapters) the same status frames are yielded', async (t) => {
  const { createCallerFactory } = await import('../../server/trpc/init.ts');
  const { appRouter } = await import('../../server/trpc/app-router.ts');
  const { createContext } = await import('../../server/trpc/context.ts');
  const ctx = await createContext(server.deps, { authorization: `Bearer ${key}` }, { crossSite: false, jsonBody: true });
  const abort = new AbortController();
  const caller = createCallerFactory(appRouter)(ctx, { signal: abort.signal });
  const it = ((await caller.live.watch({ topics: ['onDuty'] })) as AsyncIterable<any>)[Symbol.asyncIterator]();
  const [id] = (await it.next()).value;
  health.set(false);
  t.match((await it.next()).value, [id, { kind: 'status', degraded: true }]);
  health.set(true);
  t.match((await it.next()).value, [id, { kind: 'status', degraded: false }]);
  abort.abort();
  t.same(await it.next(), { done: true, value: undefined });
});

t.test('a real outage: boards hear it from the database monitor; a board that connects during it is refused 503, retries, and starts once the database answers', async (t) => {
  const s2 = await startTestServer(t);
  await seedGuild(s2.sql, G, [{ userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' }]);
  const key2 = await unscopedKey(s2.sql, G);
  const before = openBoard(s2.url, { apiKey: key2, topics: ['onDuty'] });
  t.teardown(before.close);
  await before.until(() => before.state.stats.snapshots === 1);

  // PostgreSQL stops answering for this server: its database refuses connections, and the open ones end.
  const outage = databaseOutage(t, s2);
  await outage.down();
  await until(() => !s2.deps.dbHealth.up, 'the monitor sees the outage', 5000);
  await before.until(() => before.state.degraded);
  t.match(before.statuses, [{ degraded: true, reason: /database does not answer/ }], 'an open board hears it');

  const during = openBoard(s2.url, { apiKey: key2, topics: ['onDuty'] });
  t.teardown(during.close);
  await during.until(() => during.state.degraded);
  t.match(during.statuses[0], { degraded: true, reason: /database unavailable/ }, 'a new board is refused with 503 and says degraded');
  t.same(during.errors, [], 'no error: the SDK tries again after Retry-After');
  await new Promise((r) => setTimeout(r, 1500)); // it retries, still refused
  t.equal(during.state.stats.snapshots, 0);

  await outage.up();
  await until(() => s2.deps.dbHealth.up, 'the monitor sees PostgreSQL answer', 5000);
  await before.until(() => !before.state.degraded);
  t.match(before.statuses.at(-1), { degraded: false, reason: /answers again/ });
  await during.until(() => during.state.stats.snapshots === 1, 5000);
  t.equal(during.state.degraded, false, 'the socket opened during the outage authenticated again and subscribed');
  await client(s2)('POST', '/admin/clock-in', { key: key2, body: { badge: 1 } });
  await Promise.all([before, during].map((b) => b.until(() => 'u1' in b.state.topics.onDuty!)));
  t.equal(before.state.stats.snapshots, 1, 'the open board went on without a new snapshot');
  t.equal(before.state.stats.gaps + during.state.stats.gaps, 0);
});
