import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';

// Spec §5.4: these work without any credential; every other route is closed by default.
const G = '670000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);

const junkCredentials: Record<string, Record<string, string>> = {
  'no credential': {},
  'an invalid key': { authorization: 'Bearer stmp_nope' },
  'a Basic header': { authorization: 'Basic dXNlcjpwYXNz' },
  'an unknown session': { cookie: 'dt_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'x-guild-id': G },
};

t.test('GET /health answers {ok: true} whatever credential comes along', async (t) => {
  for (const [label, headers] of Object.entries(junkCredentials)) {
    const res = await api('GET', '/health', { headers });
    t.equal(res.status, 200, label);
    t.same(res.body, { ok: true }, label);
  }
});

t.test('a cookie with broken percent-encoding does not break public routes (no 500)', async (t) => {
  const headers = { cookie: 'dt_session=%E0%A4%A' };
  const health = await api('GET', '/health', { headers });
  t.equal(health.status, 200, '/health');
  t.same(health.body, { ok: true });
  t.equal((await api('GET', `/branding/${G}`, { headers })).status, 200, '/branding/{guildId}');
});

t.test('GET /branding/{guildId} and its icon are public; unknown guilds are 404 {error}', async (t) => {
  for (const [label, headers] of Object.entries(junkCredentials)) {
    const res = await api('GET', `/branding/${G}`, { headers });
    t.equal(res.status, 200, label);
    t.match(res.body, { guildId: G, modules: { timeclock: true }, tabOrder: Array }, label);
    const icon = await api('GET', `/branding/${G}/icon.png`, { headers });
    t.equal(icon.status, 200, `${label}: icon`);
    t.equal(icon.headers.get('content-type'), 'image/png');
  }
  const { iconUrl } = (await api('GET', `/branding/${G}`)).body;
  const byUrl = await fetch(new URL(iconUrl, server.url));
  t.equal(byUrl.status, 200, `iconUrl ${iconUrl} resolves against the server root`);
  t.equal(byUrl.headers.get('content-type'), 'image/png');
  assertError(t, await api('GET', '/branding/999999999999999999'), 404, 'unknown guild');
  assertError(t, await api('GET', '/branding/999999999999999999/icon.png'), 404, 'unknown guild icon');
  assertError(t, await api('GET', '/branding/bad%20id'), 400, 'a malformed guild id');
});

t.test('GET /dispatch serves the board without a credential', async (t) => {
  const res = await api('GET', '/dispatch');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type') ?? '', /^text\/html/);
});

t.test('unknown routes and wrong methods are 404 {error}, with or without a key', async (t) => {
  const cases = [
    ['GET', '/admin/clock-in'], ['PUT', '/admin/clock-in'], ['DELETE', '/admin/on-duty'], ['POST', '/admin/on-duty'],
    ['PUT', '/admin/apikeys'], ['DELETE', '/admin/apikeys'], ['PATCH', '/admin/apikeys/1'], ['GET', '/admin/apikeys/1'],
    ['DELETE', '/me/preferences'], ['GET', '/me/clock-in'], ['DELETE', '/admin/modules'], ['POST', '/branding/' + G],
    ['GET', '/admin/everything'], ['GET', '/api/v2/health'],
  ] as const;
  for (const [method, path] of cases) {
    assertError(t, await api(method, path), 404, `${method} ${path} without key`);
    assertError(t, await api(method, path, { key }), 404, `${method} ${path} with key`);
  }
});

t.test('every protected route answers 401 {error} without a credential', async (t) => {
  const routes = [
    ['POST', '/admin/clock-in', { badge: 1 }], ['POST', '/admin/clock-out', { badge: 1 }], ['GET', '/admin/clock-status/1'],
    ['GET', '/admin/on-duty'], ['POST', '/admin/apikeys', { name: 'x', scopes: ['calls:read'] }], ['GET', '/admin/apikeys'],
    ['DELETE', '/admin/apikeys/1'], ['PATCH', '/admin/modules', { modules: {} }], ['GET', '/me/preferences'],
    ['PUT', '/me/preferences', { prefs: {} }], ['POST', '/me/clock-in'], ['POST', '/me/clock-out'],
  ] as const;
  for (const [method, path, body] of routes) {
    for (const [label, headers] of Object.entries(junkCredentials)) {
      assertError(t, await api(method, path, { body, headers }), 401, `${method} ${path} with ${label}`);
    }
  }
  const shifts = await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`;
  t.equal(shifts[0].n, 0);
});
