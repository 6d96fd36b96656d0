import t from 'tap';
import WebSocket from 'ws';
import { rawSocket } from '../helpers/raw-ws.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey, scopedKey } from '../helpers/fixtures.ts';
import { openBoard, until, wsWithCookie } from '../helpers/live.ts';
import { watchAlarm } from '../../client-sdk/live.ts';
import { inGuildTx } from '../../server/store/tx.ts';

const A = '563000000000000001';
const B = '563000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [
  { userId: 'u1', nickname: 'Ana', badge: '1', rank: 'crew' }, { userId: 'u2', nickname: 'Ben', badge: '2', rank: 'crew' },
  { userId: 'u3', nickname: 'Dora', badge: '3', rank: 'dispatch' },
]);
await seedGuild(server.sql, B, [{ userId: 'u9', nickname: 'Bea', badge: '1', rank: 'crew' }]);
const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);

/** A raw socket that records every text frame and its close. */
const raw = (opts: { params?: Record<string, string>; headers?: Record<string, string> } = {}) => rawSocket(server.url, opts);

t.test("guild B's socket never receives guild A's events", async (t) => {
  const boardA = openBoard(server.url, { apiKey: keyA, topics: ['onDuty', 'overview'] });
  const boardB = openBoard(server.url, { apiKey: keyB, topics: ['onDuty', 'overview'] });
  t.teardown(() => { boardA.close(); boardB.close(); });
  await Promise.all([boardA.until(() => boardA.state.stats.snapshots === 1), boardB.until(() => boardB.state.stats.snapshots === 1)]);
  await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 1 } });
  await boardA.until(() => 'u1' in boardA.state.topics.onDuty!);
  await new Promise((r) => setTimeout(r, 200));
  t.equal(boardB.frames.length, 1, 'B got its snapshot and nothing else');
  t.same(boardB.state.topics.onDuty, {});
  await api('POST', '/admin/clock-out', { key: keyA, body: { badge: 1 } });
});

t.test('a session selects only guilds it belongs to; cookies need our own Origin', async (t) => {
  const session = await signIn(server, A, 'u3'); // rank dispatch: timeclock.manage, as GET /admin/on-duty needs
  const board = openBoard(server.url, { guildId: A, topics: ['onDuty'], WebSocket: wsWithCookie(session.cookie, server.url) });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.pass('session + connectionParams.guildId watches its guild');

  const other = await raw({ headers: { cookie: session.cookie }, params: { guildId: B } });
  other.send({ id: 1, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: ['onDuty'] } } } });
  const err = await other.next((m) => m.error);
  t.equal(err.error.json.data.code, 'FORBIDDEN', 'not a member of B');
  other.ws.close();

  await t.rejects(raw({ headers: { cookie: session.cookie, origin: 'https://evil.example' } }), 'cross-site upgrade with a cookie is refused');
  const noCookie = await raw({ headers: { origin: 'https://evil.example' }, params: { authorization: `Bearer ${keyA}` } });
  noCookie.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  t.match(await noCookie.next((m) => m.id === 1), { result: { data: { json: { ok: true } } } }, 'keys do not depend on Origin');
  noCookie.ws.close();
});

t.test('scoped keys and missing credentials cannot watch', async (t) => {
  const scoped = await scopedKey(server.sql, A, ['calls:call.report']);
  for (const params of [{ authorization: `Bearer ${scoped}` }, {}, { authorization: 'Bearer stmp_bogus' }] as Record<string, string>[]) {
    const s = await raw({ params });
    s.send({ id: 7, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: ['units'] } } } });
    const err = await s.next((m) => m.id === 7 && m.error);
    t.ok(['FORBIDDEN', 'UNAUTHORIZED'].includes(err.error.json.data.code), JSON.stringify(params));
    s.ws.close();
  }
});

t.test('bad frames get errors; the socket and the server live on', async (t) => {
  const s = await raw({ params: { authorization: `Bearer ${keyA}` } });
  s.send('{not json');
  t.match(await s.next((m) => m.error), { id: null, error: { json: { data: { code: 'PARSE_ERROR' } } } });
  s.send({ id: 2, method: 'query', params: { path: 'no.such.path' } });
  t.match(await s.next((m) => m.id === 2), { error: { json: { data: { code: 'NOT_FOUND' } } } });
  s.send({ id: 3, method: 'explode', params: { path: 'health.check' } });
  t.ok(await s.next((m) => m.error && m !== s.messages[0]), 'unknown method is an error');
  s.send({ id: 4, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: ['nope'] } } } });
  t.match(await s.next((m) => m.id === 4), { error: { json: { data: { code: 'BAD_REQUEST' } } } });
  s.send(Array.from({ length: 11 }, (_, i) => ({ id: 100 + i, method: 'query', params: { path: 'health.check' } })));
  await s.next((m) => m.id === 110 && m.error);
  t.equal(s.messages.filter((m) => m.id >= 100 && m.id <= 110 && /at most 10/.test(m.error?.json?.message)).length, 11, 'batches over 10 are refused, each call by its id (a client must not wait forever)');
  s.send([{ id: 20, method: 'query', params: { path: 'health.check' } }, { id: 21, method: 'query', params: { path: 'health.check' } }]);
  await s.next((m) => m.id === 21);
  t.ok(s.messages.some((m) => m.id === 20), 'a batch of two is answered');
  s.send({ id: 30, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: ['units'] } } } });
  await s.next((m) => m.id === 30 && m.result?.type === 'data');
  s.send({ id: 30, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: ['units'] } } } });
  t.match(await s.next((m) => m.id === 30 && m.error), { error: { json: { message: /Duplicate id/ } } });
  s.send({ id: 30, method: 'subscription.stop' });
  t.match(await s.next((m) => m.id === 30 && m.result?.type === 'stopped'), {});
  s.send('PING');
  t.equal(await s.next((m) => m === 'PONG'), 'PONG');

  s.send('x'.repeat(70 * 1024));
  const close = await s.closedP;
  t.equal(close.code, 1009, 'a frame over 64 KiB closes the socket with 1009 (message too big)');
  t.match(close.reason, /frame too big/);
  t.same((await api('GET', '/health')).body, { ok: true }, 'server still up');
});

t.test('limits: message rate and sockets per credential close with a reason', async (t) => {
  const s = await raw({ params: { authorization: `Bearer ${keyB}` } });
  for (let i = 0; i < 250; i++) s.send('PING');
  const close = await s.closedP;
  t.equal(close.code, 1008);
  t.match(close.reason, /rate limit/);

  const many = await Promise.all(Array.from({ length: 21 }, () => raw({ params: { authorization: `Bearer ${keyB}` } })));
  await new Promise((r) => setTimeout(r, 300));
  const closed = many.filter((m) => m.closed);
  t.equal(closed.length, 1, 'the 21st socket of one key is closed');
  t.match(closed[0].closed!.reason, /too many sockets/);
  many.forEach((m) => m.ws.close());
});

t.test('deleting a key closes its live sockets at once', async (t) => {
  const res = await api('POST', '/admin/apikeys', { key: keyB, body: { name: 'tmp', scopes: ['calls:read'] } });
  const unscopedTmp = await unscopedKey(server.sql, B, 'tmp2');
  const s = await raw({ params: { authorization: `Bearer ${unscopedTmp}` } });
  s.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  await s.next((m) => m.id === 1);
  const list = await api('GET', '/admin/apikeys', { key: keyB });
  const id = list.body.keys.find((k: any) => k.name === 'tmp2').id;
  await api('DELETE', `/admin/apikeys/${id}`, { key: keyB });
  const close = await s.closedP;
  t.equal(close.code, 4401);
  t.ok(res.status === 200);
});

t.test('me.alarm.watch: the caller’s {onDuty, alarms} now and on change', async (t) => {
  // Units arrive through a committed event, as every write does (the unit routes come with the dispatch centre).
  await inGuildTx(server.deps.db, server.deps.bus, A, async (tx) => {
    await tx.sql`insert into units (guild_id, callsign, status) values (${A}, 'RTW-1', '0'), (${A}, 'RTW-2', '2')`;
    tx.emit('alarm', { op: 'upsert', key: 'RTW-1', value: { callsign: 'RTW-1', status: '0', since: Date.now() } });
  });
  const session = await signIn(server, A, 'u2');
  const states: { onDuty: boolean; alarms: string[]; unit: string | null; incident: unknown }[] = [];
  const w = watchAlarm({ url: server.url, guildId: A, WebSocket: wsWithCookie(session.cookie), onState: (s) => states.push(s) });
  t.teardown(w.close);
  const untilStates = (n: number) => until(() => states.length >= n, `${n} alarm states`);
  await untilStates(1);
  t.same(states[0], { onDuty: false, alarms: ['RTW-1'], unit: null, incident: null }, 'same shape as GET /me/alarm');
  const rest = await api('GET', '/me/alarm', { session });
  t.same(rest.body, states[0]);
  await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 2 } });
  await untilStates(2);
  t.same(states[1], { onDuty: true, alarms: ['RTW-1'], unit: null, incident: null });
  await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 1 } });
  await new Promise((r) => setTimeout(r, 200));
  t.equal(states.length, 2, 'someone else clocking in changes nothing for me');
  await api('POST', '/admin/clock-out', { key: keyA, body: { badge: 1 } });
  await api('POST', '/admin/clock-out', { key: keyA, body: { badge: 2 } });
  await untilStates(3);
  t.same(states[2], { onDuty: false, alarms: ['RTW-1'], unit: null, incident: null });
});

t.test('graceful shutdown sends tRPC’s reconnect notice', async (t) => {
  const s = await raw({ params: { authorization: `Bearer ${keyA}` } });
  s.send({ id: 1, method: 'query', params: { path: 'health.check' } });
  await s.next((m) => m.id === 1);
  server.ws.shutdown();
  t.same(await s.next((m) => m.method === 'reconnect'), { id: null, method: 'reconnect' });
  t.equal((await s.closedP).code, 1012);
});

t.test('a session that expires while its board is open is closed', async (t) => {
  const s2 = await startTestServer(t, { WS_REVALIDATE_MS: '200' }, { databaseUrl: server.databaseUrl });
  const session = await signIn(s2, A, 'u1');
  const ws = new WebSocket(`${s2.url.replace('http', 'ws')}/trpc?connectionParams=1`, { headers: { cookie: session.cookie } });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((r) => ws.on('open', r));
  ws.send(JSON.stringify({ method: 'connectionParams', data: { guildId: A } }));
  ws.send(JSON.stringify({ id: 1, method: 'query', params: { path: 'preferences.get' } }));
  await new Promise((r) => ws.once('message', r));
  await new Promise((r) => setTimeout(r, 500));
  t.equal(ws.readyState, WebSocket.OPEN, 'a live session stays connected');
  await s2.sql`update sessions set expires_at = now() - interval '1 second'`;
  t.equal(await closed, 4401);
});
