import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// The /trpc door calls the same procedures as the REST facade: the same access rules must hold there.
const A = '710000000000000001';
const B = '710000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [{ userId: 'a1', nickname: 'Anna of A', badge: '1', rank: 'crew' }]);
await seedGuild(server.sql, B, [{ userId: 'b1', nickname: 'Bert of B', badge: '1', rank: 'crew' }]);
const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);
const callsB = await scopedKey(server.sql, B, ['calls:call.report']);
const clockB = await scopedKey(server.sql, B, ['timeclock:shift.ingame_clock']);

const query = (path: string, input: unknown, o: Parameters<typeof api>[2] = {}) =>
  api('GET', `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`, o);
const mutate = (path: string, input: unknown, o: Parameters<typeof api>[2] = {}) =>
  api('POST', `/trpc/${path}`, { ...o, raw: JSON.stringify({ json: input }) });
const errorCode = (res: { body: any }) => res.body?.error?.json?.data?.code;

t.test('no credential: 401 on guild procedures', async (t) => {
  const res = await query('timeclock.onDuty', undefined);
  t.equal(res.status, 401);
  t.equal(errorCode(res), 'UNAUTHORIZED');
  t.equal((await mutate('timeclock.clockIn', { badge: 1 })).status, 401);
});

t.test('a key of B reads and writes only B', async (t) => {
  const res = await mutate('timeclock.clockIn', { badge: 1 }, { key: keyB, headers: { 'x-guild-id': A } });
  t.equal(res.status, 200);
  t.equal(res.body.result.data.json.userId, 'b1');
  const statusA = await query('timeclock.clockStatus', { badge: '1' }, { key: keyA });
  t.equal(statusA.body.result.data.json.clockedIn, false, 'A\'s badge 1 is untouched');
  const onDutyB = await query('timeclock.onDuty', undefined, { key: keyB });
  t.same(onDutyB.body.result.data.json.people.map((p: any) => p.userId), ['b1']);
  const listA = await query('apiKeys.list', undefined, { key: keyA });
  const idOfA = listA.body.result.data.json.keys[0].id;
  const del = await mutate('apiKeys.delete', { id: idOfA }, { key: keyB });
  t.equal(del.status, 404, 'A\'s key id is unknown in B');
  t.equal((await query('timeclock.onDuty', undefined, { key: keyA })).status, 200, 'A\'s key still works');
});

t.test('scopes: 403 without the route\'s scope, 200 with it', async (t) => {
  t.equal((await query('timeclock.onDuty', undefined, { key: callsB })).status, 403);
  t.equal((await mutate('timeclock.clockOut', { badge: 1 }, { key: callsB })).status, 403);
  t.equal((await query('apiKeys.list', undefined, { key: clockB })).status, 403, 'scoped keys cannot list keys');
  t.equal((await mutate('apiKeys.create', { name: 'x', scopes: ['calls:read'] }, { key: clockB })).status, 403);
  t.equal((await mutate('timeclock.clockOut', { badge: 1 }, { key: clockB })).status, 200);
});

t.test('session-only procedures refuse keys with 403', async (t) => {
  for (const key of [keyB, clockB]) {
    t.equal((await query('preferences.get', undefined, { key })).status, 403);
    t.equal((await mutate('preferences.set', { prefs: { theme: 'dark' } }, { key })).status, 403);
    t.equal((await mutate('timeclock.selfClockIn', undefined, { key })).status, 403);
  }
});

t.test('sessions: x-guild-id selects only among the user\'s guilds', async (t) => {
  const s = await signIn(server, A, 'a1');
  t.equal((await query('preferences.get', undefined, { session: s })).status, 200);
  t.equal((await query('preferences.get', undefined, { session: { cookie: s.cookie, guildId: B } })).status, 403);
  t.equal((await query('preferences.get', undefined, { session: { cookie: s.cookie } })).status, 400);
  t.equal((await mutate('timeclock.clockIn', { badge: 1 }, { session: s })).status, 403, 'crew lacks timeclock.manage');
});
