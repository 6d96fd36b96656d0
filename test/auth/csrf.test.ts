import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey, type Asserts } from '../helpers/fixtures.ts';

// Cookie-authenticated mutations: refused when the browser says cross-site (Sec-Fetch-Site or a
// foreign Origin) and when a body is sent that is not declared JSON (a write without any body
// declares nothing). Reads and key requests are not affected.
const G = '660000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'boss', nickname: 'Bea Boss', badge: '1', admin: true },
  { userId: 'u2', nickname: 'Ben Bravo', badge: '2', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G, 'tool');
const s = await signIn(server, G, 'boss');

const EVIL = 'https://evil.example';
const crossSiteHeaders: Record<string, Record<string, string>> = {
  'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
  [`Origin: ${EVIL}`]: { origin: EVIL },
  'Origin: null': { origin: 'null' },
  'both': { 'sec-fetch-site': 'cross-site', origin: EVIL },
  'cross-site despite a same-origin Origin': { 'sec-fetch-site': 'cross-site', origin: server.url },
  'foreign Origin despite same-origin Sec-Fetch-Site': { 'sec-fetch-site': 'same-origin', origin: EVIL },
};

const mutations = [
  ['POST', '/me/clock-in', {}],
  ['PUT', '/me/preferences', { prefs: { theme: 'dark' } }],
  ['POST', '/admin/clock-in', { badge: 2 }],
  ['POST', '/admin/apikeys', { name: 'csrf', scopes: ['calls:read'] }],
  ['PATCH', '/admin/modules', { modules: { timeclock: false } }],
] as const;

async function nothingChanged(t: Asserts) {
  const shifts = await server.sql`select count(*)::int as n from shifts where guild_id = ${G} and clock_out_at is null`;
  t.equal(shifts[0].n, 0, 'no shift opened');
  const prefs = await server.sql`select count(*)::int as n from preferences where guild_id = ${G}`;
  t.equal(prefs[0].n, 0, 'no preferences written');
  const keys = await server.sql`select count(*)::int as n from api_keys where guild_id = ${G} and name = 'csrf'`;
  t.equal(keys[0].n, 0, 'no key created');
  t.equal((await api('GET', `/branding/${G}`)).body.modules.timeclock, true, 'modules unchanged');
}

t.test('cookie mutations from another site: 403 {error}, nothing written', async (t) => {
  for (const [label, headers] of Object.entries(crossSiteHeaders)) {
    for (const [method, path, body] of mutations) {
      assertError(t, await api(method, path, { session: s, body, headers }), 403, `${label}: ${method} ${path}`);
    }
  }
  const victim = (await api('GET', '/admin/apikeys', { key })).body.keys[0].id;
  assertError(t, await api('DELETE', `/admin/apikeys/${victim}`, { session: s, headers: { origin: EVIL } }), 403, 'DELETE key');
  t.equal((await api('GET', '/admin/on-duty', { key })).status, 200, 'the key was not deleted');
  await nothingChanged(t);
});

t.test('cookie mutations without a JSON content type: 415 {error}, nothing written', async (t) => {
  for (const contentType of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    for (const [method, path, body] of mutations) {
      const res = await api(method, path, { session: s, raw: JSON.stringify(body), contentType });
      assertError(t, res, 415, `${contentType}: ${method} ${path}`);
    }
  }
  await nothingChanged(t);
});

t.test('cookie mutations without any body need no content type (spec: payload none or optional object)', async (t) => {
  // fetch sends Content-Length: 0 here; test/auth/bodyless-writes.test.ts sends no length at all
  for (const path of ['/me/clock-in', '/me/clock-out']) {
    t.equal((await api('POST', path, { session: s, contentType: null })).status, 200, `${path} with no body and no content type`);
  }
  assertError(t, await api('POST', '/me/clock-in', { session: s, contentType: null, headers: { origin: EVIL } }), 403, 'still refused cross-site');
  await nothingChanged(t);
});

t.test('cookie logout from another site is refused and the session lives on', async (t) => {
  const other = await signIn(server, G, 'u2');
  assertError(t, await api('POST', '/auth/logout', { session: other, headers: { origin: EVIL } }), 403, 'foreign Origin');
  assertError(t, await api('POST', '/auth/logout', { session: other, headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'Sec-Fetch-Site');
  t.equal((await api('GET', '/me/preferences', { session: other })).status, 200, 'still signed in');
});

t.test('same-origin cookie mutations pass', async (t) => {
  const headers = { 'sec-fetch-site': 'same-origin', origin: server.url };
  t.equal((await api('PUT', '/me/preferences', { session: s, body: { prefs: { theme: 'dark' } }, headers })).status, 200);
  t.equal((await api('POST', '/me/clock-in', { session: s, headers })).status, 200);
  t.equal((await api('POST', '/me/clock-out', { session: s, headers: { 'sec-fetch-site': 'same-origin' } })).status, 200, 'Sec-Fetch-Site alone');
  t.equal((await api('POST', '/me/clock-in', { session: s })).status, 200, 'no browser headers at all (a tool)');
  t.equal((await api('POST', '/me/clock-out', { session: s, contentType: 'application/json; charset=utf-8' })).status, 200);
});

t.test('GET requests with a cookie are not affected', async (t) => {
  for (const headers of Object.values(crossSiteHeaders)) {
    t.equal((await api('GET', '/me/preferences', { session: s, headers })).status, 200);
    t.equal((await api('GET', '/admin/on-duty', { session: s, headers })).status, 200);
  }
});

t.test('API-key requests are not subject to the Origin check', async (t) => {
  const headers = { origin: EVIL, 'sec-fetch-site': 'cross-site' };
  const clockIn = await api('POST', '/admin/clock-in', { key, body: { badge: 2 }, headers });
  t.equal(clockIn.status, 200);
  t.equal(clockIn.body.userId, 'u2');
  t.equal((await api('POST', '/admin/clock-out', { key, body: { badge: 2 }, headers })).status, 200);
  const created = await api('POST', '/admin/apikeys', { key, body: { name: 'from a tool', scopes: ['calls:read'] }, headers });
  t.equal(created.status, 200);
  t.equal((await api('DELETE', `/admin/apikeys/${created.body.id}`, { key, headers })).status, 200);
});

t.test('the /trpc door applies the same rules to cookie mutations', async (t) => {
  const body = JSON.stringify({ json: { prefs: { theme: 'light' } } });
  const evil = await api('POST', '/trpc/preferences.set', { session: s, raw: body, headers: { origin: EVIL } });
  t.equal(evil.status, 403, 'foreign Origin');
  const text = await api('POST', '/trpc/preferences.set', { session: s, raw: body, contentType: 'text/plain' });
  t.equal(text.status, 415, 'text/plain');
  const stored = await server.sql`select prefs from preferences where guild_id = ${G} and user_id = 'boss'`;
  t.equal(stored[0].prefs.theme, 'dark', 'the refused calls did not change the preference');
  const ok = await api('POST', '/trpc/preferences.set', { session: s, raw: body });
  t.equal(ok.status, 200, 'a same-origin JSON call passes');
});
