import t from 'tap';
import { createServer } from 'node:http';
import { createGameBridge, DispatchError, type GameBridge } from '../../client-sdk/game.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';

// The game bridge against the real server, each method with a key that has only its scope,
// over global fetch and over node:http (FiveM's Node 16 has no fetch).
const G = '720000000000000001';
const H = '720000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: '300000000000000001', nickname: 'Ida', badge: '7', rank: 'crew' },
  { userId: '300000000000000002', nickname: 'Jan', badge: '8', rank: 'crew' },
]);
await seedGuild(server.sql, H, [{ userId: '300000000000000009', nickname: 'Other', badge: '7', rank: 'crew' }]);
const admin = await unscopedKey(server.sql, G);
await api('POST', '/units', { key: admin, body: { callsign: 'RTW-1' } });

const bridge = async (scopes: string[], opts: { fetch?: null } = {}) =>
  createGameBridge({ baseUrl: server.url, apiKey: await scopedKey(server.sql, G, scopes), retries: 0, ...opts });

/** The DispatchError a call ends with (fails the test when it succeeds). */
async function failure(p: Promise<unknown>): Promise<DispatchError> {
  const err = await p.then(() => null, (e) => e);
  if (!(err instanceof DispatchError)) throw new Error(`expected a DispatchError, got ${String(err)}`);
  return err;
}

for (const transport of ['fetch', 'node:http'] as const) {
  const o = transport === 'fetch' ? {} : { fetch: null };

  t.test(`${transport}: calls — report, list, resolve (scopes calls:call.report, calls:read)`, async (t) => {
    const reporter = await bridge(['calls:call.report'], o);
    const reader = await bridge(['calls:read'], o);
    const id = `brand-${transport}`;
    const call = await reporter.reportCall({ externalId: id, title: 'Brand', priority: 1, location: 'Legion Square' });
    t.match(call, { externalId: id, title: 'Brand', priority: 1, status: 'open', reportCount: 1 });
    t.equal(typeof call.createdAt, 'string', 'timestamps arrive as ISO strings');
    t.ok(Date.parse(call.createdAt) > 0);
    t.equal((await reporter.reportCall({ externalId: id, title: 'Brand, 2. Meldung' })).reportCount, 2, 'same externalId updates');
    const list = await reader.listCalls();
    t.ok(list.calls.some((c) => c.externalId === id && c.title === 'Brand, 2. Meldung'), 'listed');
    const done = await reporter.resolveCall(id, 'reached');
    t.match(done, { externalId: id, status: 'resolved', resolution: 'reached' });
    t.notOk((await reader.listCalls()).calls.some((c) => c.externalId === id), 'gone from the open calls');
    t.equal((await failure(reader.reportCall({ externalId: 'x', title: 'y' }))).status, 403, 'calls:read cannot report');
    t.equal((await failure(reporter.listCalls())).status, 403, 'calls:call.report cannot list');
    const bad = await failure(reporter.reportCall({ externalId: 'x', title: '' }));
    t.equal(bad.status, 400);
    t.match(bad.message, /title/);
    t.equal((await failure(reporter.resolveCall('never-reported', 'x'))).status, 404);
  });

  t.test(`${transport}: clock in/out/status by badge (scope timeclock:shift.ingame_clock)`, async (t) => {
    const clock = await bridge(['timeclock:shift.ingame_clock'], o);
    const inn = await clock.clockIn(7);
    t.match(inn, { badgeNumber: '07', nickname: 'Ida', status: 'OPEN' });
    t.equal(typeof inn.clockInAt, 'string');
    t.match(await clock.clockStatus('07'), { badgeNumber: '07', clockedIn: true });
    const again = await failure(clock.clockIn('7'));
    t.equal(again.status, 409, 'already clocked in');
    t.match(again.message, /already/);
    t.equal(again.reason, 'already_clocked_in', 'the reason, to branch on');
    t.same(again.params, { person: 'Ida' });
    t.match(await clock.clockOut(7), { badgeNumber: '07', status: 'CLOSED' });
    t.match(await clock.clockStatus(7), { clockedIn: false });
    t.equal((await failure(clock.clockIn(99))).status, 404, 'unknown badge');
    t.equal((await failure(clock.clockStatus('abc'))).status, 400, 'a badge is digits');
    t.equal((await failure((await bridge(['calls:read'], o)).clockIn(7))).status, 403, 'without the scope');
  });

  t.test(`${transport}: own unit status by badge (scope units:unit.ingame_status)`, async (t) => {
    const units = await bridge(['units:unit.ingame_status'], o);
    t.equal((await failure(units.setUnitStatus(8, '3'))).status, 409, 'not in a unit');
    await api('POST', '/admin/clock-in', { key: admin, body: { badge: 8 } });
    t.equal((await api('PUT', '/units/RTW-1/members/300000000000000002', { key: admin })).status, 200, 'seated');
    t.match(await units.setUnitStatus(8, '3'), { callsign: 'RTW-1', status: '3' });
    t.match(await units.setUnitStatus('08', 4), { callsign: 'RTW-1', status: '4', previous: '3' });
    t.equal((await failure(units.setUnitStatus(8, 'Q'))).status, 400, 'unknown status');
    t.equal((await failure((await bridge(['employees:read'], o)).setUnitStatus(8, '2'))).status, 403);
    await api('POST', '/admin/clock-out', { key: admin, body: { badge: 8 } });
  });

  t.test(`${transport}: player look-up by badge and by user id (scope employees:read)`, async (t) => {
    const people = await bridge(['employees:read'], o);
    t.match(await people.lookupPlayer({ badge: 7 }), { userId: '300000000000000001', nickname: 'Ida', badgeNumber: '07' });
    t.match(await people.lookupPlayer({ userId: '300000000000000002' }), { nickname: 'Jan', badgeNumber: '08' });
    t.equal((await failure(people.lookupPlayer({ userId: '300000000000000009' }))).status, 404, 'a person of another guild is unknown here');
    t.equal((await failure(people.lookupPlayer({ badge: 55 }))).status, 404);
    t.equal((await failure((await bridge(['calls:read'], o)).lookupPlayer({ badge: 7 }))).status, 403);
  });

  t.test(`${transport}: selfCheck (scope capabilities:read); 401 for a revoked key`, async (t) => {
    const key = await scopedKey(server.sql, G, ['capabilities:read', 'calls:read'], 'game resource');
    const game = createGameBridge({ baseUrl: `${server.url}/`, apiKey: key, retries: 0, ...o });
    const check = await game.selfCheck(['calls:read', 'calls:call.report']);
    t.match(check, { ok: true, guildId: G, keyName: 'game resource', unscoped: false, missing: ['calls:call.report'] });
    t.same(check.need, ['calls:read', 'calls:call.report']);
    t.equal((await failure(game.selfCheck(['no:such']))).status, 400, 'unknown scope');
    const keys = await api('GET', '/admin/apikeys', { key: admin });
    const id = keys.body.keys.find((k: { name: string }) => k.name === 'game resource').id;
    t.equal((await api('DELETE', `/admin/apikeys/${id}`, { key: admin })).status, 200, 'revoked');
    const revoked = await failure(game.selfCheck());
    t.equal(revoked.status, 401, 'a revoked key is 401');
    t.ok(revoked.message.length > 0);
    t.equal((await failure((await bridge(['calls:read'], o)).selfCheck())).status, 403, 'without capabilities:read');
  });
}

t.test('no answer: status 0; 429/503 are retried after Retry-After; POSTs are not repeated after a lost answer', async (t) => {
  let hits = 0;
  let mode: 'busy' | 'hang' | 'long' = 'busy';
  const stub = createServer((req, res) => {
    hits++;
    if (mode === 'hang') return; // never answers
    if (mode === 'long') return res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' }).end('{"error":"slow down"}');
    if (hits < 3) return res.writeHead(hits === 1 ? 429 : 503, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":"busy"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"badgeNumber":"07","clockedIn":true}');
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  t.teardown(() => { stub.closeAllConnections(); stub.close(); });
  const url = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  for (const fetch of [undefined, null]) {
    const b: GameBridge = createGameBridge({ baseUrl: url, apiKey: 'stmp_x', retries: 2, timeoutMs: 300, fetch });
    hits = 0; mode = 'busy';
    t.match(await b.clockStatus(7), { clockedIn: true }, 'answered on the third attempt');
    t.equal(hits, 3);
    hits = 0; mode = 'long';
    const long = await failure(b.clockStatus(7));
    t.match(long, { status: 429, retryAfterS: 3600, message: 'slow down' }, 'a long Retry-After is not waited for');
    t.equal(hits, 1);
    hits = 0; mode = 'hang';
    const lost = await failure(b.clockIn(7));
    t.equal(lost.status, 0, 'no answer is status 0');
    t.match(lost.message, /within 300 ms/);
    t.equal(hits, 1, 'a POST whose answer was lost is not sent again');
    hits = 0;
    t.equal((await failure(b.clockStatus(7))).status, 0);
    t.equal(hits, 3, 'a read is tried again');
  }
  t.throws(() => createGameBridge({ baseUrl: '', apiKey: 'k' }), /baseUrl must be the server root/, 'an empty convar is said at start');
  t.throws(() => createGameBridge({ baseUrl: '127.0.0.1:3000', apiKey: 'k' }), /baseUrl/);
  const noKey = await failure(createGameBridge({ baseUrl: server.url, apiKey: '', retries: 0 }).listCalls());
  t.equal(noKey.status, 401, 'no key: 401 with the server\'s message');
  t.match(noKey.message, /credential|key/i);
  const refused = await failure(createGameBridge({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retries: 0, fetch: null }).listCalls());
  t.equal(refused.status, 0);
  t.match(refused.message, /ECONNREFUSED/);
});
