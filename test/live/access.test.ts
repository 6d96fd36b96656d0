import t from 'tap';
import WebSocket from 'ws';
import { TRPCClientError } from '@trpc/client';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, recordedSockets, until, wsWithCookie } from '../helpers/live.ts';
import { createLiveClient, watchAlarm, type WatchFrame } from '../../client-sdk/live.ts';
import { insertRank } from '../../server/domains/people/store.ts';
import type { Topic } from '../../contract/topics.ts';
import { inGuildTx } from '../../server/store/tx.ts';

// live.watch obeys the rights of the REST reads: a topic is watched by whoever may read it through
// REST, on subscribe and again whenever a rank, its capabilities or an admin flag change.
const G = '564000000000000001';
const server = await startTestServer(t);
const api = client(server);
const ranks = ['viewer', 'viewer2', 'viewer3', 'viewer4', 'viewer5', 'viewer6', 'viewer7', 'mixed', 'grow', 'alarmer'];
await seedGuild(server.sql, G, [
  { userId: 'nobody', nickname: 'Nora Nobody', badge: '1', rank: null },
  { userId: 'crew', nickname: 'Carl Crew', badge: '2', rank: 'crew' },
  { userId: 'viewer', nickname: 'Vera View', badge: '3', rank: null },
  { userId: 'disp', nickname: 'Dora Dispatch', badge: '4', rank: 'dispatch' },
  { userId: 'admin', nickname: 'Anna Admin', badge: '5', rank: null, admin: true },
  { userId: 'admin2', nickname: 'Adam Admin', badge: '6', rank: null, admin: true },
  ...ranks.slice(1).map((rank, i) => ({ userId: rank, nickname: `Person ${rank}`, badge: String(10 + i), rank: null })),
]);
for (const [i, id] of ranks.entries()) {
  await insertRank(server.sql, G, { id, name: `Rank ${id}`, position: 10 + i, capabilities: id === 'alarmer' ? ['timeclock.own.use'] : id === 'mixed' ? ['dispatch.view', 'timeclock.manage'] : ['dispatch.view'] });
  await server.sql`update people set rank_id = ${id} where guild_id = ${G} and user_id = ${id}`;
}
const key = await unscopedKey(server.sql, G);
// A call with the caller's name and phone: what a member without dispatch.view must not see.
const report = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c1', title: 'Notruf', caller: { name: 'Max Muster', phone: '555-0100' } } });
if (report.status !== 200) throw new Error(`report failed: ${report.text}`);

type Who = { session: { cookie: string; guildId: string } } | { key: string };
const sessions: Record<string, { cookie: string; guildId: string }> = {};
for (const u of ['nobody', 'crew', 'viewer', 'disp', 'admin']) sessions[u] = await signIn(server, G, u);

function liveClient(who: Who, WebSocketClass?: unknown) {
  return 'key' in who
    ? createLiveClient({ url: server.url, apiKey: who.key, WebSocket: WebSocketClass ?? WebSocket })
    : createLiveClient({ url: server.url, guildId: who.session.guildId, WebSocket: WebSocketClass ?? wsWithCookie(who.session.cookie) });
}

/** Subscribes through the stock wsLink and returns the first frame, or the error. */
function firstOf(c: ReturnType<typeof createLiveClient>, topics: Topic[]): Promise<{ frame?: WatchFrame; error?: TRPCClientError<any> }> {
  return new Promise((resolve) => {
    const sub = c.trpc.live.watch.subscribe({ topics }, {
      onData: ({ data }) => {
        sub.unsubscribe();
        resolve({ frame: data as WatchFrame });
      },
      onError: (error) => resolve({ error: error as TRPCClientError<any> }),
    });
  });
}

t.test('a member with no rank: 403 on the REST reads, and 403 naming topics and capabilities on live.watch, with no data', async (t) => {
  const nobody = { session: sessions.nobody };
  for (const path of ['/units', '/calls', '/admin/on-duty']) t.equal((await api('GET', path, nobody)).status, 403, `GET ${path}`);
  const c = liveClient(nobody);
  t.teardown(c.close);
  const got: unknown[] = [];
  const error = await new Promise<TRPCClientError<any> | null>((resolve) => {
    c.trpc.live.watch.subscribe({ topics: ['units', 'calls', 'onDuty', 'overview'] }, {
      onData: (d) => {
        got.push(d);
        resolve(null);
      },
      onError: (e) => resolve(e as TRPCClientError<any>),
    });
  });
  if (!error) return t.fail(`watched what GET /units, /calls and /admin/on-duty refuse: ${JSON.stringify(got).slice(0, 300)}`);
  t.equal(error.data?.code, 'FORBIDDEN');
  t.equal(error.data?.httpStatus, 403);
  t.match(error.message, /units \(needs the capability dispatch\.view, like GET \/units\)/);
  t.match(error.message, /calls \(needs the capability dispatch\.view, like GET \/calls or GET \/integrations\/ingame\/calls\)/);
  t.match(error.message, /onDuty \(needs the capability timeclock\.manage, like GET \/admin\/on-duty\)/);
  t.match(error.message, /overview \(needs the capability /, 'overview: none of its counters may be seen');
  await new Promise((r) => setTimeout(r, 100));
  t.same(got, [], 'not one frame: no snapshot of calls with caller name and phone');
  const access = await firstOf(c, ['access']);
  t.equal(access.frame?.kind, 'snapshot', 'a topic every member may read (GET /access) is still watched');
});

t.test('every topic follows its REST reads, for every kind of member and key', async (t) => {
  const reads: Partial<Record<Topic, string[]>> = {
    units: ['/units'], alarm: ['/units'], onDuty: ['/admin/on-duty'], dispatchers: ['/api/v1/dispatchers'],
    standby: ['/standby'], calls: ['/calls', '/integrations/ingame/calls'], einsatzEntries: ['/incidents'],
    settings: ['/admin/call-rate-limit'], access: ['/access'],
  };
  const who: Record<string, Who> = {
    ...Object.fromEntries(Object.entries(sessions).map(([u, session]) => [u, { session }])),
    'unscoped key': { key },
  };
  for (const scope of ['calls:read', 'employees:read', 'timeclock:shift.ingame_clock', 'units:unit.ingame_status', 'calls:call.report']) {
    who[`key ${scope}`] = { key: await scopedKey(server.sql, G, [scope], scope) };
  }
  for (const [name, w] of Object.entries(who)) {
    const c = liveClient(w);
    for (const [topic, paths] of Object.entries(reads) as [Topic, string[]][]) {
      const statuses = [];
      for (const path of paths) statuses.push((await api('GET', path, w)).status);
      const rest = statuses.includes(200);
      const live = await firstOf(c, [topic]);
      t.equal(live.frame?.kind === 'snapshot', rest, `${name} ${topic}: REST ${statuses.join('/')}, live ${live.frame?.kind ?? live.error?.data?.code}`);
      if (!rest) t.match(live.error?.message, new RegExp(`may not watch ${topic} \\(`), `${name} ${topic}: the error names the topic`);
    }
    c.close();
  }
});

t.test('overview carries only the counters of topics the subscriber may watch', async (t) => {
  const expect: [string, Who, string[]][] = [
    ['dispatch.view', { session: sessions.viewer }, ['alarms', 'dispatchers', 'openCalls', 'standby', 'units']],
    ['timeclock.manage + timeclock.own.use', { session: sessions.disp }, ['onDuty']],
    ['key calls:read', { key: await scopedKey(server.sql, G, ['calls:read'], 'reader') }, ['openCalls']],
    ['admin', { session: sessions.admin }, ['alarms', 'dispatchers', 'onDuty', 'openCalls', 'standby', 'units']],
  ];
  for (const [name, w, counters] of expect) {
    const c = liveClient(w);
    const { frame } = await firstOf(c, ['overview']);
    c.close();
    t.same(Object.keys((frame as any).topics.overview).sort(), counters, name);
  }

  const board = openBoard(server.url, { guildId: G, topics: ['overview'], WebSocket: wsWithCookie(sessions.viewer.cookie) });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal(board.state.topics.overview!.openCalls, 1);
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } }); // overview.onDuty + 1: not for this board
  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c2', title: 'Brand' } });
  await board.until(() => board.state.topics.overview!.openCalls === 2);
  t.notOk(board.frames.some((f) => 'onDuty' in (f.kind === 'delta' ? Object.fromEntries((f.topics.overview ?? []).map((op: any) => [op.field, 1])) : f.topics.overview!)), 'never an onDuty counter');
  t.equal(board.frames.filter((f) => f.kind === 'delta').length, 1, 'the clock-in sent this board nothing');
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
});

t.test('a rank that loses a capability: open boards drop its topics with a reason, keep the rest, and stay narrowed after a reconnect', async (t) => {
  const session = await signIn(server, G, 'viewer2');
  const ws = recordedSockets(wsWithCookie(session.cookie));
  const board = openBoard(server.url, { guildId: G, topics: ['units', 'calls', 'overview', 'access'], WebSocket: ws.WebSocket });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.ok('c1' in board.state.topics.calls!, 'sees the calls while the rank has dispatch.view');

  t.equal((await api('PATCH', '/admin/ranks/viewer2', { key, body: { capabilities: [] } })).status, 200);
  await board.until(() => board.drops.length === 1);
  t.same([...board.drops[0].dropped].sort(), ['calls', 'overview', 'units']);
  t.same(board.drops[0].topics, ['access']);
  t.match(board.drops[0].reason, /units \(needs the capability dispatch\.view, like GET \/units\)/);
  t.same(Object.keys(board.state.topics), ['access'], 'the dropped topics left the local state');
  t.same(board.state.watching, ['access']);
  t.equal((await api('GET', '/units', { session })).status, 403, 'as REST says');

  const before = board.frames.length;
  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c3', title: 'Unfall', caller: { phone: '555-0199' } } });
  ws.cut(); // the client reconnects and subscribes again
  await new Promise((r) => setTimeout(r, 300));
  t.equal(ws.sockets.length, 2, 'reconnected');
  await api('PATCH', '/admin/ranks/viewer2', { key, body: { name: 'Rank viewer2 renamed' } }); // an access notice
  await board.until(() => board.frames.some((f, i) => i >= before && f.kind === 'delta' && !!f.topics.access));
  t.notOk(board.frames.slice(before).some((f) => f.topics.calls || f.topics.units), 'nothing of the dropped topics after the drop');
  t.same(board.errors, [], 'no error: the board resubscribed with what it may watch');
  t.equal(board.state.stats.gaps, 0);
});

t.test('overview counters are dropped one by one when only some of their topics are lost', async (t) => {
  const session = await signIn(server, G, 'mixed');
  const board = openBoard(server.url, { guildId: G, topics: ['overview', 'onDuty'], WebSocket: wsWithCookie(session.cookie) });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal(Object.keys(board.state.topics.overview!).length, 6, 'all six counters');
  await api('PATCH', '/admin/ranks/mixed', { key, body: { capabilities: ['timeclock.manage'] } });
  await board.until(() => board.drops.length === 1);
  t.same([...board.drops[0].dropped].sort(), ['overview.alarms', 'overview.dispatchers', 'overview.openCalls', 'overview.standby', 'overview.units']);
  t.same([...board.drops[0].topics].sort(), ['onDuty', 'overview']);
  t.match(board.drops[0].reason, /overview\.dispatchers, overview\.units, overview\.alarms, overview\.standby, overview\.openCalls \(needs the capability dispatch\.view\)/);
  t.same(Object.keys(board.state.topics.overview!), ['onDuty'], 'the local overview keeps the counter it may still see');
  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c9', title: 'Brand' } });
  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  await board.until(() => board.state.topics.overview!.onDuty === 1);
  t.same(Object.keys(board.state.topics.overview!), ['onDuty'], 'no openCalls counter comes back');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
});

t.test('rights that grow while a board watches overview: a resume never miscounts a counter it was not given', async (t) => {
  await api('POST', '/admin/clock-in', { key, body: { badge: 1 } }); // one on duty before the board's snapshot
  const session = await signIn(server, G, 'grow');
  const ws = recordedSockets(wsWithCookie(session.cookie));
  const board = openBoard(server.url, { guildId: G, topics: ['overview'], WebSocket: ws.WebSocket });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.notOk('onDuty' in board.state.topics.overview!, 'dispatch.view only: no onDuty counter');
  await api('PATCH', '/admin/ranks/grow', { key, body: { capabilities: ['dispatch.view', 'timeclock.manage'] } });
  ws.cut(); // the client resumes; the server now grants the onDuty counter too
  await new Promise((r) => setTimeout(r, 300));
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c10', title: 'Brand' } });
  const calls = board.state.topics.overview!.openCalls as number;
  await board.until(() => board.state.topics.overview!.openCalls === calls + 1);
  t.equal(board.state.stats.snapshots, 1, 'resumed, not a new snapshot');
  t.notOk('onDuty' in board.state.topics.overview!, 'the onDuty counter stays out (its +1 alone would say 1, not 2)');
  const fresh = openBoard(server.url, { guildId: G, topics: ['overview'], WebSocket: wsWithCookie(session.cookie) });
  t.teardown(fresh.close);
  await fresh.until(() => fresh.state.stats.snapshots === 1);
  t.equal(fresh.state.topics.overview!.onDuty, 2, 'a new subscribe gets it, right');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
});

t.test('the stock wsLink, which re-sends its first topics after a reconnect, keeps what it may still watch', async (t) => {
  const session = await signIn(server, G, 'viewer3');
  const ws = recordedSockets(wsWithCookie(session.cookie));
  const c = liveClient({ session }, ws.WebSocket);
  t.teardown(c.close);
  const got: WatchFrame[] = [];
  const errors: unknown[] = [];
  c.trpc.live.watch.subscribe({ topics: ['units', 'access'] }, { onData: ({ data }) => got.push(data as WatchFrame), onError: (e) => errors.push(e) });
  await until(() => got.length === 1, 'the snapshot');
  await api('PATCH', '/admin/ranks/viewer3', { key, body: { capabilities: [] } });
  await until(() => got.some((f) => f.kind === 'dropped'), 'the dropped frame');
  t.match(got.find((f) => f.kind === 'dropped'), { kind: 'dropped', dropped: ['units'], topics: ['access'], reason: /dispatch\.view/ });
  ws.cut();
  await until(() => ws.sockets.length === 2 && got.filter((f) => f.kind === 'dropped').length === 2, 'the resumed subscription\'s dropped frame');
  t.match(got.at(-1), { kind: 'dropped', dropped: ['units'], topics: ['access'] }, 'the resumed subscription starts with a dropped frame, not a 403');
  await api('PATCH', '/admin/ranks/viewer3', { key, body: { name: 'Rank viewer3 renamed' } });
  await until(() => got.at(-1)?.kind === 'delta', 'a delta of access');
  t.same(Object.keys((got.at(-1) as any).topics), ['access']);
  t.same(errors, []);
});

t.test('nothing left to watch: the drop is followed by a 403 that ends the subscription', async (t) => {
  const viewer4 = await signIn(server, G, 'viewer4');
  const byRank = openBoard(server.url, { guildId: G, topics: ['units'], WebSocket: wsWithCookie(viewer4.cookie) });
  const admin2 = await signIn(server, G, 'admin2');
  const byAdmin = openBoard(server.url, { guildId: G, topics: ['units', 'onDuty', 'overview'], WebSocket: wsWithCookie(admin2.cookie) });
  const viewer5 = await signIn(server, G, 'viewer5');
  const byMove = openBoard(server.url, { guildId: G, topics: ['calls'], WebSocket: wsWithCookie(viewer5.cookie) });
  t.teardown(() => [byRank, byAdmin, byMove].forEach((b) => b.close()));
  await Promise.all([byRank, byAdmin, byMove].map((b) => b.until(() => b.state.stats.snapshots === 1)));

  await api('PATCH', '/admin/ranks/viewer4', { key, body: { capabilities: ['timeclock.own.use'] } });
  await api('PATCH', '/personnel/admin2', { key, body: { isAdmin: false } });
  await api('PATCH', '/personnel/viewer5', { key, body: { rank: null } });
  for (const [name, board, dropped] of [['rank capability', byRank, ['units']], ['admin flag', byAdmin, ['onDuty', 'overview', 'units']], ['rank of the person', byMove, ['calls']]] as const) {
    await board.until(() => board.errors.length === 1);
    t.same([...board.drops[0].dropped].sort(), dropped, `${name}: dropped`);
    t.same(board.drops[0].topics, [], `${name}: nothing left`);
    const err = board.errors[0] as TRPCClientError<any>;
    t.equal(err.data?.code, 'FORBIDDEN', `${name}: ended with 403`);
    t.match(err.message, /your rights changed: you may no longer watch/);
  }
});

t.test('me.alarm.watch ends with 403 when the rank loses timeclock.own.use', async (t) => {
  const session = await signIn(server, G, 'alarmer'); // rank alarmer: timeclock.own.use
  const states: unknown[] = [];
  const errors: TRPCClientError<any>[] = [];
  const w = watchAlarm({ url: server.url, guildId: G, WebSocket: wsWithCookie(session.cookie), onState: (s) => states.push(s), onError: (e) => errors.push(e as TRPCClientError<any>) });
  t.teardown(w.close);
  await until(() => states.length > 0, 'the first state');
  t.equal(states.length, 1);
  await api('PATCH', '/admin/ranks/alarmer', { key, body: { capabilities: ['dispatch.view'] } });
  await until(() => errors.length > 0, 'the error');
  t.equal(errors[0]?.data?.code, 'FORBIDDEN');
  t.match(errors[0]?.message, /timeclock\.own\.use/);
});

t.test('queries on a socket opened before a rights change run with the rights as they are now', async (t) => {
  const session = await signIn(server, G, 'viewer6');
  const c = liveClient({ session });
  t.teardown(c.close);
  t.equal((await c.trpc.units.list.query()).units.length, 0, 'GET /units over the socket, while the rank has dispatch.view');
  await api('PATCH', '/admin/ranks/viewer6', { key, body: { capabilities: ['timeclock.own.use'] } });
  const err = await c.trpc.units.list.query().then(() => null, (e) => e as TRPCClientError<any>);
  t.equal(err?.data?.code, 'FORBIDDEN', 'refused on the same socket right after the change');
  t.same(await c.trpc.me.alarm.get.query(), { onDuty: false, alarms: [], unit: null, incident: null }, 'and the new capability applies');
});

t.test('without the uWS socket (stock adapters) a session\'s subscriptions narrow and end the same way', async (t) => {
  const { createCallerFactory } = await import('../../server/trpc/init.ts');
  const { appRouter } = await import('../../server/trpc/app-router.ts');
  const { createContext } = await import('../../server/trpc/context.ts');
  const session = await signIn(server, G, 'viewer7');
  const ctx = await createContext(server.deps, { cookie: session.cookie, guildHeader: G }, { crossSite: false, jsonBody: true });
  const abort = new AbortController();
  const caller = createCallerFactory(appRouter)(ctx, { signal: abort.signal });
  const watchOf = async (topics: Topic[]) => ((await caller.live.watch({ topics })) as AsyncIterable<any>)[Symbol.asyncIterator]();
  const narrows = await watchOf(['units', 'access']);
  const ends = await watchOf(['units']);
  t.match((await narrows.next()).value, [String, { kind: 'snapshot' }]);
  t.match((await ends.next()).value, [String, { kind: 'snapshot' }]);

  await api('PATCH', '/admin/ranks/viewer7', { key, body: { capabilities: [] } });
  let frame = (await narrows.next()).value[1];
  if (frame.kind === 'delta') {
    t.same(Object.keys(frame.topics), ['access'], 'the rank change\'s own notice, before the re-check');
    frame = (await narrows.next()).value[1];
  }
  t.match(frame, { kind: 'dropped', dropped: ['units'], topics: ['access'], reason: /dispatch\.view/ });
  t.match((await ends.next()).value, [String, { kind: 'dropped', dropped: ['units'], topics: [] }]);
  await t.rejects(ends.next(), { code: 'FORBIDDEN', message: /your rights changed: you may no longer watch units/ }, 'nothing left: FORBIDDEN ends it');

  await inGuildTx(server.deps.db, server.deps.bus, G, async (tx) => tx.emit('units', { op: 'upsert', key: 'RTW-7', value: { callsign: 'RTW-7' } }));
  await api('PATCH', '/admin/ranks/viewer7', { key, body: { name: 'Rank viewer7 renamed' } }); // an access notice
  const next = (await narrows.next()).value[1];
  t.match(next, { kind: 'delta' });
  t.same(Object.keys(next.topics), ['access'], 'the narrowed subscription goes on with what is left: the units event before it is not sent');
  abort.abort();
  t.same(await narrows.next(), { done: true, value: undefined });
});

t.test('nothing is left behind: rights watchers and fan-out entries are gone once the boards close', async (t) => {
  await new Promise((r) => setTimeout(r, 300)); // the earlier tests' clients close their sockets
  const { sessionRights } = await import('../../server/domains/live/rights.ts');
  t.same(sessionRights(server.deps).stats, { guilds: 0, watchers: 0 });
  t.same(server.deps.fanout!.stats, { guilds: 0, views: 0, subscriptions: 0 });
});

t.test('a topic of a switched-off module is refused like its REST read (404), for keys and admins too; on again, it is watched', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: false } } })).status, 200);
  t.teardown(() => api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: true } } }));
  t.equal((await api('GET', '/units', { key })).status, 404, 'GET /units is 404');
  for (const who of [{ key }, { session: sessions.admin }] as Who[]) {
    const c = liveClient(who);
    const off = await firstOf(c, ['units', 'calls', 'onDuty']);
    t.equal(off.error?.data?.code, 'NOT_FOUND', 'live.watch of units and calls is NOT_FOUND');
    t.match(off.error?.message, /module "dispatch" is switched off for this guild \(topics units, calls\)/);
    t.notOk(off.frame, 'no data');
    const onDuty = await firstOf(c, ['onDuty']);
    t.match(onDuty.frame, { kind: 'snapshot' }, 'a topic of another module still streams');
    c.close();
  }
  t.equal((await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: true } } })).status, 200);
  const c = liveClient({ key });
  t.match((await firstOf(c, ['units', 'calls'])).frame, { kind: 'snapshot' }, 'switched on again: watched');
  c.close();
});
