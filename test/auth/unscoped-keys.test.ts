import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Spec §5.6: keys made in the board's settings are unscoped. POST /admin/apikeys/unscoped makes one
// for a signed-in guild admin, and for nothing else: an unscoped key acts as the guild's admin, so
// settings.manage is not enough (issue 27), and no API key, however full its access, mints another.
// (Until issue 27 a session with settings.manage could: the first test used `setter`.)
const G = '660000000000000001';
const OTHER = '660000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await seedGuild(server.sql, OTHER);
await insertRank(server.sql, G, { id: 'settings', name: 'Settings', position: 3, capabilities: ['settings.manage'] });
await server.sql`insert into people (guild_id, user_id, nickname, badge, rank_id, is_admin) values
  (${G}, 'boss', 'Bea Boss', '01', null, true),
  (${G}, 'setter', 'Sam Settings', '02', 'settings', false),
  (${G}, 'disp', 'Dana Dispatch', '03', 'dispatch', false)`;
const admin = await unscopedKey(server.sql, G, 'tool');
await unscopedKey(server.sql, OTHER, 'other tool');
const as = { boss: await signIn(server, G, 'boss'), setter: await signIn(server, G, 'setter'), disp: await signIn(server, G, 'disp') };
const create = (o: { session?: { cookie: string; guildId: string }; key?: string }, body: unknown) =>
  api('POST', '/admin/apikeys/unscoped', { ...o, body });

t.test('a guild admin\'s session creates an unscoped key, shown once, with full access to its guild only', async (t) => {
  const res = await create({ session: as.boss }, { name: 'Leitstellen-Tool' });
  t.equal(res.status, 200);
  t.match(res.body.key, /^stmp_[0-9A-Za-z]{36}$/, 'an unscoped key, not stmp_sc_');
  t.notOk('scopes' in res.body, 'no scopes field');
  t.equal(res.body.last4, res.body.key.slice(-4));
  const listed = (await api('GET', '/admin/apikeys', { key: admin })).body.keys.find((k: any) => k.id === res.body.id);
  t.same(Object.keys(listed).sort(), ['createdAt', 'id', 'last4', 'lastUsedAt', 'name'], 'listed without the key and without scopes');
  const access = await api('GET', '/access', { key: res.body.key });
  t.equal(access.body.isAdmin, true, 'full access');
  t.equal(access.body.guildId, G);
  t.equal((await api('GET', '/admin/apikeys', { key: res.body.key })).status, 200, 'it administers its guild');
  const asked = await api('GET', '/admin/apikeys', { key: res.body.key, headers: { 'x-guild-id': OTHER } });
  t.notOk(asked.body.keys.some((k: any) => k.name === 'other tool'), 'x-guild-id does not lead it into another guild');
});

t.test('API keys and sessions of members who are no guild admin are refused; nothing is created', async (t) => {
  const count = async () => (await server.sql`select count(*)::int as n from api_keys where guild_id = ${G}`)[0].n as number;
  const before = await count();
  assertError(t, await create({ key: admin }, { name: 'x' }), 403, 'an unscoped key', /session/);
  assertError(t, await create({ key: await scopedKey(server.sql, G, ['capabilities:read']) }, { name: 'x' }), 403, 'a scoped key');
  assertError(t, await create({ session: as.setter }, { name: 'x' }), 403, 'settings.manage without admin rights', /admin rights/);
  assertError(t, await create({ session: as.disp }, { name: 'x' }), 403, 'a dispatcher');
  assertError(t, await create({}, { name: 'x' }), 401, 'no credential');
  t.equal(await count(), before + 1, 'only the scoped key of this test was added');
});

t.test('bad bodies: 400 {error}', async (t) => {
  const bad: Record<string, unknown> = {
    'empty name': { name: '' }, 'blank name': { name: '   ' }, 'name of 65 chars': { name: 'n'.repeat(65) },
    'missing name': {}, 'scopes given': { name: 'x', scopes: ['calls:read'] }, 'unknown field': { name: 'x', guildId: OTHER },
  };
  for (const [label, body] of Object.entries(bad)) assertError(t, await create({ session: as.boss }, body), 400, label);
});
