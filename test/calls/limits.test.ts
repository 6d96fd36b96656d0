import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// The two 429s of call reporting: 200 open calls per guild (spec §8) and the per-key rate limit.
const G = '571000000000000001'; // rate limits
const C = '571000000000000002'; // the open-call cap
const D = '571000000000000003'; // the cap under concurrency
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'boss', nickname: 'Boss', admin: true },
  { userId: 'setter', nickname: 'Setter' },
  { userId: 'crew', nickname: 'Crew', rank: 'crew' },
]);
await insertRank(server.sql, G, { id: 'settings', name: 'Settings', position: 5, capabilities: ['settings.manage'] });
await server.sql`update people set rank_id = 'settings' where guild_id = ${G} and user_id = 'setter'`;
await seedGuild(server.sql, C, []);
await seedGuild(server.sql, D, []);
const key = await unscopedKey(server.sql, G);
const keyC = await unscopedKey(server.sql, C);
const keyD = await unscopedKey(server.sql, D);

const OPEN_LIMIT = /^open-call limit: 200 calls are open/;
const RATE_LIMIT = /^rate limit: /;
const report = (k: string, externalId: string, extra: object = {}) =>
  api('POST', '/integrations/ingame/calls', { key: k, body: { externalId, title: 'Meldung', ...extra } });
const openCount = async (guildId: string) =>
  (await server.sql`select count(*)::int as n from calls where guild_id = ${guildId} and status = 'open'`)[0].n as number;
/** Open calls put straight into the table (fast set-up of a full guild). */
async function fill(guildId: string, count: number, prefix: string) {
  await server.sql`insert into calls (guild_id, external_id, kind, priority, title)
    select ${guildId}, ${prefix} || g, 'notruf', 2, 'Füllmeldung' from generate_series(1, ${count}) g`;
}

t.test('the default rate limit is generous: 120 a minute, bursts of 60', async (t) => {
  const res = await api('GET', '/admin/call-rate-limit', { key });
  t.equal(res.status, 200);
  t.same(res.body, { perMinute: 120, burst: 60, isDefault: true });
});

t.test('a mass-casualty burst of 50 reports from one key passes with the default limit', async (t) => {
  const burstKey = await scopedKey(server.sql, G, ['calls:call.report'], 'mass casualty');
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => report(burstKey, `mci-${i}`, { kind: 'notruf' })));
  t.same(results.map((r) => r.status), Array(50).fill(200));
  t.equal(new Set(results.map((r) => r.body.id)).size, 50, '50 calls');
});

t.test('PUT /admin/call-rate-limit: ranges, types, unknown fields', async (t) => {
  for (const body of [{ perMinute: 1, burst: 1 }, { perMinute: 6000, burst: 1000 }, { perMinute: 2, burst: 999 }, { perMinute: 5999, burst: 2 }]) {
    const res = await api('PUT', '/admin/call-rate-limit', { key, body });
    t.equal(res.status, 200, JSON.stringify(body));
    t.same(res.body, { ...body, isDefault: false });
    t.same((await api('GET', '/admin/call-rate-limit', { key })).body, { ...body, isDefault: false }, 'read back');
  }
  const bad: [object, RegExp][] = [
    [{ perMinute: 0, burst: 10 }, /perMinute must be 1 to 6000/],
    [{ perMinute: 6001, burst: 10 }, /perMinute must be 1 to 6000/],
    [{ perMinute: 10, burst: 0 }, /burst must be 1 to 1000/],
    [{ perMinute: 10, burst: 1001 }, /burst must be 1 to 1000/],
    [{ perMinute: 1.5, burst: 10 }, /perMinute must be an integer/],
    [{ perMinute: '10', burst: 10 }, /perMinute/],
    [{ perMinute: 10, burst: null }, /burst/],
    [{ perMinute: 10 }, /burst/],
    [{ burst: 10 }, /perMinute/],
    [{}, /perMinute/],
    [{ perMinute: 10, burst: 10, guildId: C }, /unknown field guildId/],
    [{ perMinute: 10, burst: 10, isDefault: true }, /unknown field isDefault/],
  ];
  for (const [body, message] of bad) assertError(t, await api('PUT', '/admin/call-rate-limit', { key, body }), 400, JSON.stringify(body), message);
  t.same((await api('GET', '/admin/call-rate-limit', { key })).body, { perMinute: 5999, burst: 2, isDefault: false }, 'unchanged by refused writes');
  const audits = await server.sql`select action, actor_kind, data from audit_log where guild_id = ${G} and action = 'calls.rate_limit_set' order by id`;
  t.equal(audits.length, 4, 'one audit row per accepted write');
  t.same(audits[3].data, { perMinute: 5999, burst: 2 });
});

t.test('who may read and set the rate limit', async (t) => {
  for (const scope of ['calls:call.report', 'calls:read', 'capabilities:read']) {
    const k = await scopedKey(server.sql, G, [scope]);
    assertError(t, await api('GET', '/admin/call-rate-limit', { key: k }), 403, `GET with ${scope}`);
    assertError(t, await api('PUT', '/admin/call-rate-limit', { key: k, body: { perMinute: 1, burst: 1 } }), 403, `PUT with ${scope}`);
  }
  const crew = await signIn(server, G, 'crew');
  assertError(t, await api('PUT', '/admin/call-rate-limit', { session: crew, body: { perMinute: 1, burst: 1 } }), 403, 'session without settings.manage');
  const setter = await signIn(server, G, 'setter');
  const res = await api('PUT', '/admin/call-rate-limit', { session: setter, body: { perMinute: 3000, burst: 500 } });
  t.equal(res.status, 200, 'settings.manage may');
  const boss = await signIn(server, G, 'boss');
  t.equal((await api('GET', '/admin/call-rate-limit', { session: boss })).body.perMinute, 3000, 'an admin may');
  const other = await api('GET', '/admin/call-rate-limit', { key: keyC });
  t.same(other.body, { perMinute: 120, burst: 60, isDefault: true }, 'another guild keeps its own (default) limit');
});

t.test('over the per-key limit: 429 with Retry-After and its own message; other keys and resolves pass', async (t) => {
  t.equal((await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 1, burst: 3 } })).status, 200);
  const spammer = await scopedKey(server.sql, G, ['calls:call.report'], 'spammer');
  const ok = [];
  for (let i = 0; i < 3; i++) ok.push((await report(spammer, `spam-${i}`)).status);
  t.same(ok, [200, 200, 200], 'the burst passes');
  const over = await report(spammer, 'spam-3');
  assertError(t, over, 429, 'the fourth report', RATE_LIMIT);
  t.notMatch(over.body.error, /open-call/, 'not the open-call message');
  const retry = Number(over.headers.get('retry-after'));
  t.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After is whole seconds within a minute (${retry})`);
  t.equal((await server.sql`select count(*)::int as n from calls where guild_id = ${G} and external_id = 'spam-3'`)[0].n, 0, 'nothing stored');

  const reReport = await report(spammer, 'spam-0');
  assertError(t, reReport, 429, 're-reports count too', RATE_LIMIT);

  const resolve = await api('POST', '/integrations/ingame/calls/spam-0/resolve', { key: spammer, body: { resolution: 'reached' } });
  t.equal(resolve.status, 200, 'resolving is not rate limited');

  const other = await scopedKey(server.sql, G, ['calls:call.report'], 'quiet script');
  t.equal((await report(other, 'quiet-1')).status, 200, 'another key has its own bucket');

  const invalid = await report(spammer, 'x y');
  assertError(t, invalid, 400, 'an invalid report is a 400 even when limited');

  t.equal((await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 120, burst: 60 } })).status, 200);
  t.equal((await report(spammer, 'spam-4')).status, 200, 'a new limit applies at once');
});

t.test('a refill of perMinute a minute: with 60 a minute one more report passes after a second', async (t) => {
  t.equal((await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 60, burst: 1 } })).status, 200);
  const k = await scopedKey(server.sql, G, ['calls:call.report'], 'refill');
  t.equal((await report(k, 'refill-1')).status, 200);
  const limited = await report(k, 'refill-2');
  t.equal(limited.status, 429);
  t.equal(limited.headers.get('retry-after'), '1', 'one token a second: retry in 1 s');
  await new Promise((r) => setTimeout(r, 1100));
  t.equal((await report(k, 'refill-2')).status, 200, 'after the refill');
});

t.test('200 open calls: a new externalId is 429, a re-report of an open one passes', async (t) => {
  await api('PUT', '/admin/call-rate-limit', { key: keyC, body: { perMinute: 6000, burst: 1000 } });
  await fill(C, 199, 'fill-');
  const last = await report(keyC, 'number-200');
  t.equal(last.status, 200, 'the 200th open call is accepted');
  t.equal(await openCount(C), 200);

  const over = await report(keyC, 'number-201');
  assertError(t, over, 429, 'the 201st', OPEN_LIMIT);
  t.notMatch(over.body.error, RATE_LIMIT, 'not the rate-limit message');
  t.equal(over.headers.get('retry-after'), null, 'no Retry-After: waiting alone does not help');
  t.equal(await openCount(C), 200);

  const again = await report(keyC, 'number-200', { message: 'noch da' });
  t.equal(again.status, 200, 're-reporting an open id never counts against the cap');
  t.equal(again.body.reportCount, 2);
  t.equal((await report(keyC, 'fill-7')).body.reportCount, 2, 'also for the oldest calls');
  t.equal(await openCount(C), 200);
});

t.test('resolving a call frees a place; its id then opens a new call', async (t) => {
  const resolved = await api('POST', '/integrations/ingame/calls/fill-1/resolve', { key: keyC, body: { resolution: 'reached' } });
  t.equal(resolved.status, 200);
  t.equal(await openCount(C), 199);
  t.equal((await report(keyC, 'number-201')).status, 200, 'a new call fits again');
  assertError(t, await report(keyC, 'number-202'), 429, 'and the guild is full again', OPEN_LIMIT);
  assertError(t, await report(keyC, 'fill-1'), 429, 'a resolved id is a new call: it counts', OPEN_LIMIT);
});

t.test('taking a call frees a place; re-reports of the taken id neither count nor are blocked while its sheet is open', async (t) => {
  const taken = await api('POST', '/calls/fill-2/take', { key: keyC });
  t.equal(taken.status, 200);
  t.equal(await openCount(C), 199);
  const again = await report(keyC, 'fill-2');
  t.equal(again.status, 200, 'a report of the taken id goes to the taken call');
  t.match(again.body, { id: taken.body.call.id, status: 'taken', reportCount: 2 });
  t.equal(await openCount(C), 199, 'and opens nothing');
  t.equal((await report(keyC, 'number-203')).status, 200, 'the freed place is still free');
  t.equal(await openCount(C), 200);
  assertError(t, await report(keyC, 'number-204'), 429, 'full again', OPEN_LIMIT);
  const whileFull = await report(keyC, 'fill-2');
  t.equal(whileFull.status, 200, 'a re-report of the taken id passes while the guild is full');
  t.match(whileFull.body, { id: taken.body.call.id, status: 'taken', reportCount: 3 });

  t.equal((await api('POST', `/incidents/${taken.body.incident.number}/close`, { key: keyC })).status, 200);
  assertError(t, await report(keyC, 'fill-2'), 429, 'once the sheet is closed the id is a new call: it counts', OPEN_LIMIT);
  t.equal(await openCount(C), 200);
});

t.test('the cap holds under concurrency: 20 new reports for 5 free places', async (t) => {
  await api('PUT', '/admin/call-rate-limit', { key: keyD, body: { perMinute: 6000, burst: 1000 } });
  await fill(D, 195, 'pre-');
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => report(keyD, `rush-${i}`)));
  const statuses = results.map((r) => r.status);
  t.equal(statuses.filter((s) => s === 200).length, 5, 'exactly 5 accepted');
  t.equal(statuses.filter((s) => s === 429).length, 15, 'the other 15 are 429');
  for (const r of results.filter((x) => x.status === 429)) t.match(r.body.error, OPEN_LIMIT);
  t.equal(await openCount(D), 200, 'never more than 200 open');

  const mixed = await Promise.all([
    ...Array.from({ length: 10 }, (_, i) => report(keyD, `pre-${i + 1}`)),
    ...Array.from({ length: 5 }, (_, i) => report(keyD, `late-${i}`)),
  ]);
  t.same(mixed.slice(0, 10).map((r) => r.status), Array(10).fill(200), 're-reports pass while full');
  t.same(mixed.slice(10).map((r) => r.status), Array(5).fill(429), 'new ids do not');
  t.equal(await openCount(D), 200);
});
