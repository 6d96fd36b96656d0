import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// Two guilds whose people share badge numbers: every answer must come from the caller's own guild.
const A = '620000000000000001';
const B = '620000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [
  { userId: 'a1', nickname: 'Anna of A', badge: '1', rank: 'crew' },
  { userId: 'a2', nickname: 'Arne of A', badge: '2', rank: 'dispatch' },
  { userId: 'aa', nickname: 'Admin of A', badge: '9', admin: true },
]);
await seedGuild(server.sql, B, [
  { userId: 'b1', nickname: 'Bert of B', badge: '1', rank: 'crew' },
  { userId: 'b2', nickname: 'Berta of B', badge: '2', rank: 'crew' },
]);
const keyA = await unscopedKey(server.sql, A, 'key of A');
const keyB = await unscopedKey(server.sql, B, 'key of B');
const clockB = await scopedKey(server.sql, B, ['timeclock:shift.ingame_clock'], 'clock of B');

const openShifts = async (guildId: string) =>
  (await server.sql`select user_id from shifts where guild_id = ${guildId} and clock_out_at is null order by user_id`).map((r) => r.user_id);

t.test('clock-in with B\'s key clocks in B\'s person with that badge, never A\'s', async (t) => {
  for (const key of [keyB, clockB]) {
    const res = await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
    t.equal(res.status, 200);
    t.match(res.body, { badgeNumber: '01', userId: 'b1', nickname: 'Bert of B' });
    t.same(await openShifts(A), [], 'nobody of A is on duty');
    t.same(await openShifts(B), ['b1']);
    t.equal((await api('POST', '/admin/clock-out', { key, body: { badge: '01' } })).body.userId, 'b1');
  }
});

t.test('x-guild-id cannot steer a key into another guild', async (t) => {
  const res = await api('POST', '/admin/clock-in', { key: keyB, body: { badge: 2 }, headers: { 'x-guild-id': A } });
  t.equal(res.status, 200);
  t.equal(res.body.userId, 'b2', 'the key\'s guild decides');
  t.same(await openShifts(A), []);
  const list = await api('GET', '/admin/apikeys', { key: keyB, headers: { 'x-guild-id': A } });
  t.same(list.body.keys.map((k: any) => k.name).sort(), ['clock of B', 'key of B']);
  await api('POST', '/admin/clock-out', { key: keyB, body: { badge: 2 } });
});

t.test('clock-status and on-duty of B show only B', async (t) => {
  t.equal((await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 1 } })).body.userId, 'a1');
  t.equal((await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 2 } })).body.userId, 'a2');
  for (const key of [keyB, clockB]) {
    const status = await api('GET', '/admin/clock-status/01', { key });
    t.equal(status.status, 200);
    t.match(status.body, { badgeNumber: '01', clockedIn: false, status: 'CLOSED' }, 'B\'s badge 01 is off duty (its own last shift)');
    const onDuty = await api('GET', '/admin/on-duty', { key });
    t.same(onDuty.body, { count: 0, people: [] }, 'A\'s people are not on B\'s list');
  }
  assertError(t, await api('GET', '/admin/clock-status/09', { key: keyB }), 404, 'A\'s badge 09 does not exist in B');
  assertError(t, await api('POST', '/admin/clock-in', { key: keyB, body: { badge: 9 } }), 404, 'nor can B clock it in');
  const onDutyA = await api('GET', '/admin/on-duty', { key: keyA });
  t.same(onDutyA.body.people.map((p: any) => p.userId), ['a1', 'a2']);
});

t.test('clock-out with B\'s key does not clock out A\'s person with the same badge', async (t) => {
  const res = await api('POST', '/admin/clock-out', { key: keyB, body: { badge: 1 } });
  assertError(t, res, 409, 'B\'s badge 01 is not on duty');
  t.same(await openShifts(A), ['a1', 'a2'], 'A\'s people are still on duty');
  await api('POST', '/admin/clock-out', { key: keyA, body: { badge: 1 } });
  await api('POST', '/admin/clock-out', { key: keyA, body: { badge: 2 } });
});

t.test('B sees only B\'s keys; deleting A\'s key id with B\'s key is 404 and A\'s key still works', async (t) => {
  const listA = await api('GET', '/admin/apikeys', { key: keyA });
  const listB = await api('GET', '/admin/apikeys', { key: keyB });
  t.same(listB.body.keys.map((k: any) => k.name).sort(), ['clock of B', 'key of B']);
  const idOfA = listA.body.keys.find((k: any) => k.name === 'key of A').id;
  assertError(t, await api('DELETE', `/admin/apikeys/${idOfA}`, { key: keyB }), 404);
  t.equal((await api('GET', '/admin/on-duty', { key: keyA })).status, 200, 'A\'s key still works');
  t.ok((await api('GET', '/admin/apikeys', { key: keyA })).body.keys.some((k: any) => k.id === idOfA), 'and is still listed');
});

t.test('switching a module off in B leaves A alone', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key: keyB, body: { modules: { timeclock: false } } })).status, 200);
  t.equal((await api('GET', '/admin/on-duty', { key: keyA })).status, 200, 'A\'s time clock is still on');
  assertError(t, await api('GET', '/admin/on-duty', { key: keyB }), 404, 'B\'s is off');
  t.equal((await api('GET', `/branding/${A}`)).body.modules.timeclock, true);
  await api('PATCH', '/admin/modules', { key: keyB, body: { modules: { timeclock: true } } });
});

t.test('sessions: x-guild-id only selects among the user\'s own guilds', async (t) => {
  const a1 = await signIn(server, A, 'a1');
  const own = await api('GET', '/me/preferences', { session: { cookie: a1.cookie, guildId: A } });
  t.equal(own.status, 200, 'own guild works');
  for (const [method, path] of [['GET', '/me/preferences'], ['POST', '/me/clock-in'], ['PUT', '/me/preferences']] as const) {
    const body = method === 'PUT' ? { prefs: { theme: 'dark' } } : undefined;
    assertError(t, await api(method, path, { session: { cookie: a1.cookie, guildId: B }, body }), 403, `member of A only, x-guild-id B: ${method} ${path}`);
    assertError(t, await api(method, path, { session: { cookie: a1.cookie, guildId: '999999999999999999' }, body }), 403, `unknown guild: ${method} ${path}`);
  }
  t.same(await openShifts(B), [], 'no shift opened in B');
  const prefsB = await server.sql`select count(*)::int as n from preferences where guild_id = ${B}`;
  t.equal(prefsB[0].n, 0, 'no preferences written in B');
});

t.test('a session admin of A has no admin rights in B', async (t) => {
  const aa = await signIn(server, A, 'aa');
  t.equal((await api('GET', '/admin/apikeys', { session: { cookie: aa.cookie, guildId: A } })).status, 200);
  assertError(t, await api('GET', '/admin/apikeys', { session: { cookie: aa.cookie, guildId: B } }), 403, 'list B\'s keys');
  assertError(t, await api('POST', '/admin/clock-in', { session: { cookie: aa.cookie, guildId: B }, body: { badge: 1 } }), 403, 'clock in B');
  assertError(t, await api('PATCH', '/admin/modules', { session: { cookie: aa.cookie, guildId: B }, body: { modules: { stats: false } } }), 403, 'switch B\'s modules');
  t.equal((await api('GET', `/branding/${B}`)).body.modules.stats, true);
});

t.test('sessions without x-guild-id: 400; a garbage x-guild-id: 400', async (t) => {
  const a1 = await signIn(server, A, 'a1');
  assertError(t, await api('GET', '/me/preferences', { session: { cookie: a1.cookie } }), 400, 'no header');
  assertError(t, await api('GET', '/admin/on-duty', { session: { cookie: a1.cookie } }), 400, 'no header, admin route');
  for (const garbage of ['../etc', 'a b', 'x'.repeat(65), `${A};drop`, '*', `${A},${B}`, 'guild%20A']) {
    assertError(t, await api('GET', '/me/preferences', { session: { cookie: a1.cookie }, headers: { 'x-guild-id': garbage } }), 400, `x-guild-id ${JSON.stringify(garbage)}`);
  }
});
