import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';

// Every route under /me needs a signed-in session: API keys (spec §5.5, OWASP API2) get 403.
const G = '640000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew', admin: true }]);

const keys: Record<string, string> = {
  unscoped: await unscopedKey(server.sql, G),
  'scoped (time clock)': await scopedKey(server.sql, G, ['timeclock:shift.ingame_clock']),
  'scoped (every scope)': await scopedKey(server.sql, G, specScopes),
};

const meRoutes = [
  ['GET', '/me/preferences', undefined],
  ['PUT', '/me/preferences', { prefs: { theme: 'dark' } }],
  ['POST', '/me/clock-in', {}],
  ['POST', '/me/clock-out', {}],
] as const;

t.test('every /me route refuses every kind of API key with 403 {error}', async (t) => {
  for (const [kind, key] of Object.entries(keys)) {
    for (const [method, path, body] of meRoutes) {
      assertError(t, await api(method, path, { key, body }), 403, `${kind} key on ${method} ${path}`);
      assertError(t, await api(method, path, { key, body, headers: { 'x-guild-id': G } }), 403, `${kind} key plus x-guild-id on ${method} ${path}`);
    }
  }
});

t.test('the refused calls changed nothing', async (t) => {
  const shifts = await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`;
  t.equal(shifts[0].n, 0, 'no shift opened');
  const prefs = await server.sql`select count(*)::int as n from preferences where guild_id = ${G}`;
  t.equal(prefs[0].n, 0, 'no preferences stored');
  const audit = await server.sql`select count(*)::int as n from audit_log where guild_id = ${G}`;
  t.equal(audit[0].n, 0, 'no audit rows');
});

t.test('the same keys are valid where keys belong, so the 403 is about the route', async (t) => {
  for (const [kind, key] of Object.entries(keys)) {
    t.equal((await api('GET', '/admin/on-duty', { key })).status, 200, `${kind} key reads on-duty`);
  }
});

t.test('the same /me routes work with a session of the same person', async (t) => {
  const s = await signIn(server, G, 'u1');
  const statuses = [];
  for (const [method, path, body] of meRoutes) statuses.push((await api(method, path, { session: s, body })).status);
  t.same(statuses, [200, 200, 200, 200]);
});

t.test('a key and a session cookie together: the key decides, /me stays closed', async (t) => {
  const s = await signIn(server, G, 'u1');
  const res = await api('GET', '/me/preferences', { key: keys.unscoped, session: s });
  assertError(t, res, 403);
});
