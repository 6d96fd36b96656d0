import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';

/*
 * Error messages are bounded and say where the problem is (issue 27, item 7): 10 000 unknown query
 * names were one 68 KB message labelled "body". A message lists a few names, says how many more
 * there are, and names the place: query, body or path on the REST door, the input on /trpc.
 */
const G = '556000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Kai', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const LIMIT = 1024;

t.test('10 000 unknown query names: 400, a short message that says "query"', async (t) => {
  const query = names(10_000, 'p').join('&'); // ~59 KB: uWS takes a request line up to about 64 KB
  const res = await api('GET', `/stats/leaderboard?period=weekly&${query}`, { key, skipContract: true });
  t.equal(res.status, 400);
  t.same(Object.keys(res.body), ['error', 'reason']);
  const message: string = res.body.error;
  t.ok(message.length < LIMIT, `${message.length} characters`);
  t.match(message, /^query: unknown parameters p0, p1, p2, p3, p4 and 9995 more$/);
  t.notMatch(message, /body/, 'not said to be in the body');
});

t.test('unknown body fields: a few named, the rest counted, said to be in the body', async (t) => {
  const body = Object.fromEntries([['callsign', 'RTW-5'], ['label', 'x'], ...names(10_000, 'extra').map((n) => [n, 1])]);
  const res = await api('POST', '/units', { key, body, skipContract: true });
  t.equal(res.status, 400);
  t.ok(res.body.error.length < LIMIT, `${res.body.error.length} characters`);
  t.match(res.body.error, /^body: unknown fields extra0, extra1, extra2, extra3, extra4 and 9995 more$/);
  t.same((await api('POST', '/units', { key, body: { callsign: 'RTW-5', label: 'x', guildId: G } })).body, { error: 'body: unknown field guildId', reason: 'validation' }, 'one unknown field reads as before');
});

t.test('a very long name is clipped; a query parameter\'s bad value says "query parameter"', async (t) => {
  const long = 'n'.repeat(20_000);
  for (const path of [`/stats/leaderboard?period=weekly&${long}=1`, `/health?${long}=1`, `/admin/on-duty?${long}=1`]) {
    const res = await api('GET', path, { key, skipContract: true });
    t.equal(res.status, 400, path.slice(0, 40));
    t.ok(res.body.error.length < 200, `${path.slice(0, 30)}: ${res.body.error.length} characters`);
    t.match(res.body.error, /n…/, 'the name is clipped');
  }
  const period = await api('GET', '/stats/leaderboard?period=decade', { key, skipContract: true });
  t.equal(period.status, 400);
  t.match(period.body.error, /^query parameter period: /);
  const longBody = await api('POST', '/units', { key, body: { callsign: 'RTW-6', label: 'x', [long]: 1 }, skipContract: true });
  t.ok(longBody.body.error.length < 200, 'a long body field name is clipped too');
});

t.test('tRPC: the same bound; the place is the input', async (t) => {
  const input = Object.fromEntries([['callsign', 'RTW-7'], ['label', 'x'], ...names(10_000, 'extra').map((n) => [n, 1])]);
  const res = await api('POST', '/trpc/units.create', { key, raw: JSON.stringify({ json: input }), skipContract: true });
  t.equal(res.status, 400);
  const message: string = res.body.error.json.message;
  t.ok(message.length < LIMIT, `${message.length} characters`);
  t.match(message, /^input: unknown fields extra0, extra1, extra2, extra3, extra4 and 9995 more$/);
});
