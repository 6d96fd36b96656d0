import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, specScopes, unscopedKey } from '../helpers/fixtures.ts';

const G = '610000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Ben Bravo', badge: '2', rank: 'crew' },
]);
const admin = await unscopedKey(server.sql, G);

const CLOCK = 'timeclock:shift.ingame_clock';

async function keyWith(scopes: string[], name = scopes.join('+')) {
  const res = await api('POST', '/admin/apikeys', { key: admin, body: { name: name.slice(0, 64), scopes } });
  if (res.status !== 200) throw new Error(`cannot create key with ${scopes}: ${res.status} ${res.text}`);
  return res.body.key as string;
}

const clockRoutes = (badge: string) => [
  ['POST', '/admin/clock-in', { badge }],
  ['GET', `/admin/clock-status/${badge}`, undefined],
  ['GET', '/admin/on-duty', undefined],
  ['POST', '/admin/clock-out', { badge }],
] as const;

t.test('every scope of spec §5.7 is accepted by POST /admin/apikeys exactly as written', async (t) => {
  for (const scope of specScopes) {
    const res = await api('POST', '/admin/apikeys', { key: admin, body: { name: scope, scopes: [scope] } });
    t.equal(res.status, 200, scope);
    t.same(res.body.scopes, [scope], `${scope} kept verbatim`);
  }
  const all = await api('POST', '/admin/apikeys', { key: admin, body: { name: 'all', scopes: specScopes } });
  t.equal(all.status, 200, 'all eleven at once');
  t.same([...all.body.scopes].sort(), [...specScopes].sort());
  const listed = (await api('GET', '/admin/apikeys', { key: admin })).body.keys.find((k: any) => k.id === all.body.id);
  t.same([...listed.scopes].sort(), [...specScopes].sort(), 'listed with all its scopes');
});

t.test(`a key with ${CLOCK} passes clock-in, clock-status, on-duty and clock-out`, async (t) => {
  const key = await keyWith([CLOCK]);
  const results = [];
  for (const [method, path, body] of clockRoutes('1')) results.push(await api(method, path, { key, body }));
  t.same(results.map((r) => r.status), [200, 200, 200, 200]);
  t.match(results[0].body, { badgeNumber: '01', userId: 'u1', status: 'OPEN' });
  t.match(results[1].body, { badgeNumber: '01', clockedIn: true, status: 'OPEN' });
  t.match(results[2].body, { count: 1, people: [{ userId: 'u1' }] });
  t.match(results[3].body, { badgeNumber: '01', userId: 'u1', status: 'CLOSED' });
});

t.test('keys with any other single scope get 403 {error} on every clock route, and change nothing', async (t) => {
  await api('POST', '/admin/clock-in', { key: admin, body: { badge: 2 } }); // so a refused clock-out has something to close
  for (const scope of specScopes.filter((s) => s !== CLOCK)) {
    const key = await keyWith([scope]);
    for (const [method, path, body] of clockRoutes('2')) {
      const res = await api(method, path, { key, body });
      if (scope === 'employees:read' && path === '/admin/on-duty') {
        t.equal(res.status, 200, 'employees:read may read who is on duty');
        t.match(res.body, { count: 1, people: [{ userId: 'u2', badgeNumber: '02' }] });
      } else {
        assertError(t, res, 403, `${scope} on ${method} ${path}`);
      }
    }
  }
  const status = await api('GET', '/admin/clock-status/2', { key: admin });
  t.match(status.body, { clockedIn: true, status: 'OPEN' }, 'u2 still on duty: no refused clock-out went through');
  const other = await api('GET', '/admin/clock-status/1', { key: admin });
  t.match(other.body, { clockedIn: false }, 'u1 still off duty: no refused clock-in went through');
  await api('POST', '/admin/clock-out', { key: admin, body: { badge: 2 } });
});

t.test('employees:read passes GET /admin/on-duty only', async (t) => {
  const key = await keyWith(['employees:read'], 'employees only');
  const res = await api('GET', '/admin/on-duty', { key });
  t.equal(res.status, 200);
  t.same(res.body, { count: 0, people: [] });
  assertError(t, await api('POST', '/admin/clock-in', { key, body: { badge: 1 } }), 403, 'clock-in');
  assertError(t, await api('POST', '/admin/clock-out', { key, body: { badge: 1 } }), 403, 'clock-out');
  assertError(t, await api('GET', '/admin/clock-status/1', { key }), 403, 'clock-status');
});

t.test('a key with several scopes passes where any of them is needed', async (t) => {
  const key = await keyWith(['calls:read', CLOCK]);
  const results = [];
  for (const [method, path, body] of clockRoutes('1')) results.push((await api(method, path, { key, body })).status);
  t.same(results, [200, 200, 200, 200]);
});

t.test('scoped keys are refused on admin routes that name no scope', async (t) => {
  const key = await keyWith(specScopes, 'every scope');
  assertError(t, await api('PATCH', '/admin/modules', { key, body: { modules: { stats: false } } }), 403, 'PATCH /admin/modules');
  const branding = await api('GET', `/branding/${G}`);
  t.equal(branding.body.modules.stats, true, 'modules unchanged');
  assertError(t, await api('GET', '/admin/apikeys', { key }), 403, 'GET /admin/apikeys');
});

t.test('scopes are fixed for the life of a key: no route changes them', async (t) => {
  const key = await keyWith(['calls:read'], 'fixed');
  assertError(t, await api('POST', '/admin/clock-in', { key, body: { badge: 1 } }), 403);
  const list = await api('GET', '/admin/apikeys', { key: admin });
  const row = list.body.keys.find((k: any) => k.name === 'fixed');
  t.same(row.scopes, ['calls:read']);
  const patch = await api('PATCH', `/admin/apikeys/${row.id}`, { key: admin, body: { scopes: [CLOCK] } });
  assertError(t, patch, 404, 'there is no route to change a key\'s scopes');
  assertError(t, await api('POST', '/admin/clock-in', { key, body: { badge: 1 } }), 403, 'still refused');
});
