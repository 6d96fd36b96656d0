import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn } from '../helpers/fixtures.ts';

// /me/preferences: per person and per guild; PUT merges, null resets one key, strict validation.
const G = '680000000000000001';
const H = '680000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Ben Bravo', badge: '2', rank: 'none' },
]);
await seedGuild(server.sql, H, [{ userId: 'u1', nickname: 'Anna in H', badge: '1', rank: 'crew' }]);
const u1 = await signIn(server, G, 'u1');
const u2 = await signIn(server, G, 'u2');
const u1InH = { cookie: u1.cookie, guildId: H };

const DEFAULTS = { theme: 'system', density: 'comfortable', alarmSound: true, alarmVolume: 80, alarmTone: 'gong', alarmScope: 'all', language: 'de', dmUnsubscribed: [] };

const get = async (session: { cookie: string; guildId: string }) => (await api('GET', '/me/preferences', { session })).body;
const put = (session: { cookie: string; guildId: string }, body: unknown) => api('PUT', '/me/preferences', { session, body });
const auditRows = async (userId: string) =>
  server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = 'user.preferences_set' and actor_id = ${userId} order by id`;

t.test('GET returns every preference with its default', async (t) => {
  const res = await api('GET', '/me/preferences', { session: u1 });
  t.equal(res.status, 200);
  t.same(res.body, { prefs: DEFAULTS });
});

t.test('PUT merges into what is stored', async (t) => {
  const first = await put(u1, { prefs: { theme: 'dark' } });
  t.equal(first.status, 200);
  t.same(first.body, { prefs: { ...DEFAULTS, theme: 'dark' } }, 'the answer is the merged result');
  const second = await put(u1, { prefs: { alarmVolume: 10 } });
  t.same(second.body, { prefs: { ...DEFAULTS, theme: 'dark', alarmVolume: 10 } }, 'the theme is kept');
  t.same(await get(u1), { prefs: { ...DEFAULTS, theme: 'dark', alarmVolume: 10 } }, 'and stored');
  const lists = await put(u1, { prefs: { dmUnsubscribed: ['news', 'promotion'], alarmSound: false, alarmTone: 'siren', density: 'compact' } });
  t.same(lists.body.prefs, { theme: 'dark', density: 'compact', alarmSound: false, alarmVolume: 10, alarmTone: 'siren', alarmScope: 'all', language: 'de', dmUnsubscribed: ['news', 'promotion'] });
  t.same((await put(u1, { prefs: {} })).body, lists.body, 'an empty patch changes nothing');
});

t.test('a null value resets that preference to its default, and only that one', async (t) => {
  const res = await put(u1, { prefs: { theme: null, alarmSound: null } });
  t.equal(res.status, 200);
  t.equal(res.body.prefs.theme, 'system');
  t.equal(res.body.prefs.alarmSound, true);
  t.equal(res.body.prefs.alarmVolume, 10, 'others kept');
  t.same((await get(u1)).prefs, res.body.prefs);
  const fresh = await put(u2, { prefs: { theme: null } });
  t.same(fresh.body, { prefs: DEFAULTS }, 'resetting before anything was ever stored is fine');
  const mixed = await put(u2, { prefs: { theme: 'light', alarmVolume: null } });
  t.same(mixed.body.prefs, { ...DEFAULTS, theme: 'light' }, 'set and reset in one call');
});

t.test('bad bodies: 400 {error}, nothing stored', async (t) => {
  const before = await get(u1);
  const bad: Record<string, unknown> = {
    'unknown preference key': { prefs: { fontSize: 12 } },
    'known and unknown key together': { prefs: { theme: 'dark', colour: 'red' } },
    'prototype key': { prefs: { __proto__: { theme: 'dark' } } },
    'theme not in the list': { prefs: { theme: 'blue' } },
    'volume as a string': { prefs: { alarmVolume: '10' } },
    'volume above 100': { prefs: { alarmVolume: 101 } },
    'volume below 0': { prefs: { alarmVolume: -1 } },
    'volume not whole': { prefs: { alarmVolume: 1.5 } },
    'sound as a string': { prefs: { alarmSound: 'yes' } },
    'unknown DM kind': { prefs: { dmUnsubscribed: ['spam'] } },
    'DM kinds not a list': { prefs: { dmUnsubscribed: 'alarm' } },
    'missing prefs': {},
    'prefs null': { prefs: null },
    'prefs a list': { prefs: [] },
    'prefs a string': { prefs: 'dark' },
    'extra top-level field': { prefs: { theme: 'dark' }, userId: 'u2' },
  };
  for (const [label, body] of Object.entries(bad)) {
    const res = label === 'prototype key'
      ? await api('PUT', '/me/preferences', { session: u1, raw: '{"prefs":{"__proto__":{"theme":"dark"}}}' })
      : await put(u1, body);
    assertError(t, res, 400, label);
  }
  t.same(await get(u1), before, 'nothing changed');
});

t.test('every successful PUT writes one audit row user.preferences_set; failed PUTs none', async (t) => {
  const before = (await auditRows('u1')).length;
  t.ok(before >= 4, `earlier PUTs are audited (${before})`);
  await put(u1, { prefs: { alarmTone: 'beep' } });
  await put(u1, { prefs: { alarmTone: 'nope' } });
  const rows = await auditRows('u1');
  t.equal(rows.length, before + 1);
  t.match(rows[rows.length - 1], { actor_kind: 'session', actor_id: 'u1' });
  const gets = await server.sql`select count(*)::int as n from audit_log where guild_id = ${G} and action <> 'user.preferences_set'`;
  t.equal(gets[0].n, 0, 'reads are not audited');
});

t.test('preferences belong to one person: another user does not see them', async (t) => {
  await put(u1, { prefs: { density: 'compact' } });
  const other = await get(u2);
  t.equal(other.prefs.density, 'comfortable');
  t.equal(other.prefs.theme, 'light', 'u2 sees only their own earlier change');
  t.equal((await get(u1)).prefs.density, 'compact');
});

t.test('preferences belong to one guild: the same user starts with defaults in another guild', async (t) => {
  t.same(await get(u1InH), { prefs: DEFAULTS });
  const setH = await put(u1InH, { prefs: { theme: 'light', alarmVolume: 33 } });
  t.equal(setH.status, 200);
  const inG = await get(u1);
  t.equal(inG.prefs.alarmVolume, 10, 'G keeps its own value');
  t.equal(inG.prefs.theme, 'system');
  t.same((await get(u1InH)).prefs, { ...DEFAULTS, theme: 'light', alarmVolume: 33 });
  const auditH = await server.sql`select count(*)::int as n from audit_log where guild_id = ${H} and action = 'user.preferences_set'`;
  t.equal(auditH[0].n, 1, 'audited in H, not in G');
});
