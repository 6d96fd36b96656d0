import t from 'tap';
import { createHash } from 'node:crypto';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, specScopes, unscopedKey } from '../helpers/fixtures.ts';

const G = '600000000000000001';
const OTHER = '600000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' }]);
await seedGuild(server.sql, OTHER, [{ userId: 'o1', nickname: 'Otto Other', badge: '1', rank: 'crew' }]);
const admin = await unscopedKey(server.sql, G, 'admin tool');
const otherAdmin = await unscopedKey(server.sql, OTHER, 'other tool');

const UNSCOPED = /^stmp_[0-9A-Za-z]{36}$/;
const SCOPED = /^stmp_sc_[0-9A-Za-z]{36}$/;
const LISTED_FIELDS = ['createdAt', 'id', 'last4', 'lastUsedAt', 'name', 'scopes'];

async function createKey(body: unknown, key = admin) {
  return api('POST', '/admin/apikeys', { key, body });
}

async function listedKey(id: string) {
  const res = await api('GET', '/admin/apikeys', { key: admin });
  return (res.body.keys as any[]).find((k) => k.id === id);
}

t.test('key format: stmp_ + 36 base62 for unscoped, stmp_sc_ + 36 for scoped, all distinct', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const u = await unscopedKey(server.sql, G, `u${i}`);
    t.match(u, UNSCOPED, 'unscoped key format');
    t.notOk(u.startsWith('stmp_sc_'), 'an unscoped key never looks scoped');
    const res = await createKey({ name: `s${i}`, scopes: ['calls:read'] });
    t.equal(res.status, 200);
    t.match(res.body.key, SCOPED, 'scoped key format');
    seen.add(u).add(res.body.key);
  }
  t.equal(seen.size, 40, 'no key repeats');
});

t.test('bad credentials answer 401 {error}', async (t) => {
  const good = admin;
  const flipLast = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
  const flipBody = good.slice(0, 10) + (good[10] === 'x' ? 'y' : 'x') + good.slice(11);
  const cases: Record<string, Record<string, string>> = {
    'wrong checksum': { authorization: `Bearer ${flipLast}` },
    'changed body, old checksum': { authorization: `Bearer ${flipBody}` },
    'truncated key': { authorization: `Bearer ${good.slice(0, -3)}` },
    'key with extra char': { authorization: `Bearer ${good}x` },
    'random string': { authorization: 'Bearer hello-world-this-is-no-key' },
    'random well-shaped string': { authorization: `Bearer stmp_${'a'.repeat(36)}` },
    'scoped key stripped of sc_': { authorization: 'Bearer PLACEHOLDER' },
    'Basic scheme': { authorization: `Basic ${Buffer.from(`user:${good}`).toString('base64')}` },
    'Bearer with nothing': { authorization: 'Bearer' },
    'Bearer and a blank': { authorization: 'Bearer ' },
    'key without scheme': { authorization: good },
    'two tokens': { authorization: `Bearer ${good} ${good}` },
  };
  const scoped = await scopedKey(server.sql, G, ['timeclock:shift.ingame_clock']);
  cases['scoped key stripped of sc_'] = { authorization: `Bearer ${scoped.replace('stmp_sc_', 'stmp_')}` };
  for (const [label, headers] of Object.entries(cases)) {
    assertError(t, await api('GET', '/admin/on-duty', { headers }), 401, label);
    assertError(t, await api('POST', '/admin/clock-in', { headers, body: { badge: 1 } }), 401, `${label} (POST)`);
  }
  const shifts = await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`;
  t.equal(shifts[0].n, 0, 'no rejected request clocked anyone in');
});

t.test('no credential at all: 401 {error}', async (t) => {
  for (const [method, path] of [['GET', '/admin/on-duty'], ['GET', '/admin/apikeys'], ['POST', '/admin/apikeys'],
    ['DELETE', '/admin/apikeys/1'], ['GET', '/admin/clock-status/1'], ['PATCH', '/admin/modules']] as const) {
    assertError(t, await api(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} }), 401, `${method} ${path}`);
  }
});

t.test('POST /admin/apikeys creates a scoped key, shown once; the list never shows it', async (t) => {
  const res = await createKey({ name: 'FiveM clock', scopes: ['timeclock:shift.ingame_clock', 'employees:read'] });
  t.equal(res.status, 200);
  const created = res.body;
  t.match(created.key, SCOPED);
  t.match(created, { id: /^\d+$/, name: 'FiveM clock', last4: created.key.slice(-4), scopes: ['timeclock:shift.ingame_clock', 'employees:read'], lastUsedAt: null });
  t.ok(Math.abs(Date.parse(created.createdAt) - Date.now()) < 60_000, 'createdAt is now');

  const list = await api('GET', '/admin/apikeys', { key: admin });
  t.equal(list.status, 200);
  t.same(Object.keys(list.body), ['keys']);
  const row = list.body.keys.find((k: any) => k.id === created.id);
  t.same(Object.keys(row).sort(), LISTED_FIELDS, 'list item has exactly the listable fields');
  t.same(row, { id: created.id, name: 'FiveM clock', last4: created.key.slice(-4), scopes: created.scopes, createdAt: created.createdAt, lastUsedAt: null });
  const hash = createHash('sha256').update(created.key).digest();
  for (const secret of [created.key, created.key.slice(5, -4), hash.toString('hex'), hash.toString('base64')]) {
    t.notOk(list.text.includes(secret), 'list text holds neither the key nor its hash');
  }
  const stored = await server.sql`select count(*)::int as n from api_keys where key_hash = ${hash} and guild_id = ${G}`;
  t.equal(stored[0].n, 1, 'stored as the SHA-256 of the key');
  const rows = await server.sql`select row_to_json(k)::text as j from api_keys k`;
  t.ok(rows.length > 0);
  t.notOk(rows.some((r) => r.j.includes(created.key.slice(8))), 'no column holds the key itself');
});

t.test('unscoped keys are listed without a scopes field', async (t) => {
  const list = await api('GET', '/admin/apikeys', { key: admin });
  const row = list.body.keys.find((k: any) => k.name === 'admin tool');
  t.ok(row, 'the unscoped key is listed');
  t.notOk('scopes' in row, 'no scopes field on an unscoped key');
  t.equal(row.last4, admin.slice(-4));
});

t.test('lastUsedAt is set once the key is used', async (t) => {
  const res = await createKey({ name: 'used later', scopes: ['employees:read'] });
  t.equal((await listedKey(res.body.id)).lastUsedAt, null, 'never used yet');
  const before = Date.now() - 1000;
  t.equal((await api('GET', '/admin/on-duty', { key: res.body.key })).status, 200);
  let lastUsedAt: string | null = null;
  for (let i = 0; i < 40 && !lastUsedAt; i++) {
    lastUsedAt = (await listedKey(res.body.id)).lastUsedAt;
    if (!lastUsedAt) await new Promise((r) => setTimeout(r, 50));
  }
  t.ok(lastUsedAt && Date.parse(lastUsedAt) >= before, `lastUsedAt set to the time of use (${lastUsedAt})`);
});

t.test('bad create bodies: 400 {error}, nothing created', async (t) => {
  const before = (await api('GET', '/admin/apikeys', { key: admin })).body.keys.length;
  const bad: Record<string, unknown> = {
    'unknown scope': { name: 'x', scopes: ['timeclock:everything'] },
    'scope in other case': { name: 'x', scopes: ['Calls:Read'] },
    'scope with blank': { name: 'x', scopes: [' calls:read'] },
    'capability instead of scope': { name: 'x', scopes: ['settings.manage'] },
    'empty scopes': { name: 'x', scopes: [] },
    'repeated scope': { name: 'x', scopes: ['calls:read', 'calls:read'] },
    'scopes not an array': { name: 'x', scopes: 'calls:read' },
    'missing scopes': { name: 'x' },
    'empty name': { name: '', scopes: ['calls:read'] },
    'blank name': { name: '   ', scopes: ['calls:read'] },
    'name of 65 chars': { name: 'n'.repeat(65), scopes: ['calls:read'] },
    'name not a string': { name: 5, scopes: ['calls:read'] },
    'missing name': { scopes: ['calls:read'] },
    'unknown field': { name: 'x', scopes: ['calls:read'], guildId: OTHER },
    'unscoped wish': { name: 'x', scopes: ['calls:read'], unscoped: true },
  };
  for (const [label, body] of Object.entries(bad)) assertError(t, await createKey(body), 400, label);
  const after = (await api('GET', '/admin/apikeys', { key: admin })).body.keys.length;
  t.equal(after, before, 'no key was created');
  const max = await createKey({ name: 'n'.repeat(64), scopes: ['calls:read'] });
  t.equal(max.status, 200, 'a name of exactly 64 chars is fine');
});

t.test('DELETE /admin/apikeys/{id} revokes at once', async (t) => {
  const res = await createKey({ name: 'to revoke', scopes: ['timeclock:shift.ingame_clock'] });
  const { key, id } = res.body;
  t.equal((await api('GET', '/admin/on-duty', { key })).status, 200, 'works before (and is now cached)');
  const del = await api('DELETE', `/admin/apikeys/${id}`, { key: admin });
  t.equal(del.status, 200);
  t.same(del.body, { deleted: true, id });
  assertError(t, await api('GET', '/admin/on-duty', { key }), 401, 'the very next request');
  t.notOk(await listedKey(id), 'gone from the list');
  assertError(t, await api('DELETE', `/admin/apikeys/${id}`, { key: admin }), 404, 'deleting twice');
});

t.test('a key can revoke itself; its next request is 401', async (t) => {
  const self = await unscopedKey(server.sql, G, 'self-destruct');
  const list = await api('GET', '/admin/apikeys', { key: self });
  const id = list.body.keys.find((k: any) => k.name === 'self-destruct').id;
  t.equal((await api('DELETE', `/admin/apikeys/${id}`, { key: self })).status, 200);
  assertError(t, await api('GET', '/admin/apikeys', { key: self }), 401);
});

t.test('DELETE of an unknown id, another guild\'s id or a bad id', async (t) => {
  assertError(t, await api('DELETE', '/admin/apikeys/999999999', { key: admin }), 404, 'unknown id');
  const other = await api('GET', '/admin/apikeys', { key: otherAdmin });
  const otherId = other.body.keys[0].id;
  assertError(t, await api('DELETE', `/admin/apikeys/${otherId}`, { key: admin }), 404, 'id of another guild');
  t.equal((await api('GET', '/admin/on-duty', { key: otherAdmin })).status, 200, 'the other guild\'s key still works');
  for (const id of ['abc', '1.5', '-1', '1e3', '%20', '0x10', '9'.repeat(19)]) {
    assertError(t, await api('DELETE', `/admin/apikeys/${id}`, { key: admin }), 400, `id ${id}`);
  }
});

t.test('a scoped key cannot create, list or delete keys (403), even with every scope', async (t) => {
  const all = await createKey({ name: 'all scopes', scopes: specScopes });
  t.equal(all.status, 200);
  const victim = await createKey({ name: 'victim', scopes: ['calls:read'] });
  for (const key of [all.body.key, victim.body.key]) {
    assertError(t, await createKey({ name: 'escalate', scopes: ['calls:read'] }, key), 403, 'create');
    assertError(t, await api('GET', '/admin/apikeys', { key }), 403, 'list');
    assertError(t, await api('DELETE', `/admin/apikeys/${victim.body.id}`, { key }), 403, 'delete');
  }
  t.ok(await listedKey(victim.body.id), 'the key is still there');
  t.notOk((await api('GET', '/admin/apikeys', { key: admin })).body.keys.some((k: any) => k.name === 'escalate'), 'nothing was created');
});
