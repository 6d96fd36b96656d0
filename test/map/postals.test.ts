import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { auditRows, seedWorld, sessions } from '../units/world.ts';
import { postalPoint } from '../../server/domains/map/store.ts';

// The postal layer (issue 31): PUT /admin/map/postals takes a FiveM postal resource's file wrapped
// in {postals}, GET /map/postals answers it, and a call reported with a postal and no x/y gets the
// code's position.
const G = '731200000000000001';
const OTHER = '731200000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [{ userId: 'view1', nickname: 'Vera', badge: 1, rank: 'viewer' }, { userId: 'setup1', nickname: 'Sami', badge: 2, rank: 'setup' }]);
await seedWorld(server.sql, OTHER, []);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { view: 'view1', setup: 'setup1' });
await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 6000, burst: 1000 } });

// As nearest-postal's postals.json ships it: codes as strings, coordinates with many decimals.
const file = [
  { code: '101', x: -1148.4921264648438, y: -1596.8839111328125 },
  { code: '99', x: 215.5, y: -810.25 },
  { code: '8012a', x: 1000, y: 2000 },
  { code: '1001', x: -2996.88, y: 436.16 },
];

t.test('PUT /admin/map/postals replaces the layer; GET /map/postals and GET /map show it', async (t) => {
  const res = await api('PUT', '/admin/map/postals', { session: s.setup, body: { postals: file } });
  t.equal(res.status, 200);
  t.same(res.body, { postals: 4 });
  const list = await api('GET', '/map/postals', { session: s.view });
  t.equal(list.status, 200);
  t.same(list.body.postals.map((p: any) => p.code), ['99', '101', '1001', '8012a'], 'numbers in numeric order, then the rest');
  t.same(list.body.postals[1], file[0], 'coordinates exactly as sent');
  t.equal((await api('GET', '/map', { session: s.view })).body.postals, 4);
  t.same(await postalPoint(server.sql, G, '8012A'), { x: 1000, y: 2000 }, 'postalPoint matches in any case');
  t.equal(await postalPoint(server.sql, OTHER, '101'), null, 'another guild has no layer');
  const numbers = await api('PUT', '/admin/map/postals', { key, body: { postals: [{ code: 7, x: 1, y: 2 }, ...file] } });
  t.same(numbers.body, { postals: 5 }, 'a code sent as a whole number is taken as its digits');
  t.same(await postalPoint(server.sql, G, '7'), { x: 1, y: 2 });
  t.match((await auditRows(server.sql, G, 'map.postals_set')).at(-1), { data: { postals: 5 } });
  t.same((await api('PUT', '/admin/map/postals', { key, body: { postals: file } })).body, { postals: 4 }, 'replaced, not merged');
  t.equal(await postalPoint(server.sql, G, '7'), null);
});

t.test('bad layers: 400 {error} naming the problem, the stored layer unchanged', async (t) => {
  const bad = async (postals: unknown, label: string, message?: RegExp) => {
    const res = await api('PUT', '/admin/map/postals', { key, body: { postals } });
    assertError(t, res, 400, label, message);
    return res;
  };
  const dup = await bad([...file, { code: '101', x: 0, y: 0 }], 'duplicate code', /postal code 101 is in the list twice/);
  t.same([dup.body.reason, dup.body.params], ['postal_duplicate', { code: '101' }]);
  await bad([...file, { code: '8012A', x: 0, y: 0 }], 'duplicate in another case', /8012A is in the list twice \(also as 8012a\)/);
  await bad([{ code: '1', x: 100_001, y: 0 }], 'x out of range', /x must be at most 100000/);
  await bad([{ code: '1', x: 0, y: -100_001 }], 'y out of range', /y must be at least -100000/);
  await bad([{ code: '', x: 0, y: 0 }], 'empty code', /code must not be empty/);
  await bad([{ code: 'x'.repeat(21), x: 0, y: 0 }], 'long code', /code has at most 20 characters/);
  await bad([{ code: '1', x: '0', y: 0 }], 'x as text', /x must be a number/);
  await bad([{ code: '1', x: 0 }], 'no y');
  await bad([{ code: '1', x: 0, y: 0, z: 3 }], 'unknown key');
  await bad({ code: '1', x: 0, y: 0 }, 'not an array', /postals must be an array/);
  const many = Array.from({ length: 20_001 }, (_, i) => ({ code: String(i), x: i % 1000, y: 0 }));
  await bad(many, 'too many', /at most 20000 entries/);
  assertError(t, await api('PUT', '/admin/map/postals', { key, body: file }), 400, 'the bare file, not wrapped in {postals}');
  t.equal((await api('GET', '/map/postals', { key })).body.postals.length, 4, 'the stored layer is unchanged');
  const full = await api('PUT', '/admin/map/postals', { key, body: { postals: many.slice(0, 20_000) } });
  t.same(full.body, { postals: 20_000 }, '20000 entries are taken');
  t.same((await api('PUT', '/admin/map/postals', { key, body: { postals: [] } })).body, { postals: 0 }, 'an empty list clears the layer');
  t.equal((await api('GET', '/map', { key })).body.postals, 0);
  await api('PUT', '/admin/map/postals', { key, body: { postals: file } });
});

t.test('a call reported with a postal and no x/y gets the postal\'s position', async (t) => {
  const report = (externalId: string, location: unknown) => api('POST', '/integrations/ingame/calls', { key, body: { externalId, title: 'Notruf', location } });
  const found = await report('plz-1', { postal: '8012A', street: 'Alta St' });
  t.equal(found.status, 200);
  t.same(found.body.location, { postal: '8012A', street: 'Alta St', x: 1000, y: 2000 }, 'x/y from the layer, code matched in any case');
  const own = await report('plz-2', { postal: '101', x: 5, y: 6 });
  t.same(own.body.location, { postal: '101', x: 5, y: 6 }, 'x/y sent by the game win');
  const unknown = await report('plz-3', { postal: '4711' });
  t.same(unknown.body.location, { postal: '4711' }, 'an unknown code stays without position');
  const text = await report('plz-4', 'Legion Square');
  t.equal(text.body.location, 'Legion Square', 'text locations untouched');
  const again = await report('plz-1', { postal: '99' });
  t.same(again.body.location, { postal: '99', x: 215.5, y: -810.25 }, 'a re-report with another postal moves the call');
  const listed = await api('GET', '/calls', { key });
  t.same(listed.body.calls.find((c: any) => c.externalId === 'plz-1').location, { postal: '99', x: 215.5, y: -810.25 }, 'stored so');
  const scoped = await scopedKey(server.sql, G, ['calls:call.report']);
  const game = await api('POST', '/integrations/ingame/calls', { key: scoped, body: { externalId: 'plz-5', title: 'Notruf', location: { postal: ' 1001 ' } } });
  t.same(game.body.location, { postal: ' 1001 ', x: -2996.88, y: 436.16 }, 'the game\'s scoped key gets it too (code trimmed for the look-up)');
});
