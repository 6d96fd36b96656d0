import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn } from '../helpers/fixtures.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';

// Issue 27, items 1 and 2: the two ways a principal raised its own rights, exactly as the attacker
// walked them. Ranks of seedGuild: crew (timeclock.own.use), dispatch (+ timeclock.manage), none.
const G = '661000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'settings', name: 'Settings', position: 3, capabilities: ['settings.manage'] });
await insertRank(server.sql, G, { id: 'wachleitung', name: 'Wachleitung', position: 9, capabilities: ['settings.manage', 'timeclock.own.use'] });
for (const p of [
  { userId: 'boss', nickname: 'Bea Boss', badge: '01', rankId: null, isAdmin: true },
  { userId: 'setter', nickname: 'Sam Settings', badge: '02', rankId: 'settings', isAdmin: false },
  { userId: 'player', nickname: 'Pia Player', badge: '21', rankId: 'crew', isAdmin: false },
  { userId: 'leader', nickname: 'Lea Leitung', badge: '22', rankId: 'wachleitung', isAdmin: false },
]) await insertPerson(server.sql, G, p);
const as = { boss: await signIn(server, G, 'boss'), setter: await signIn(server, G, 'setter'), player: await signIn(server, G, 'player') };
const keyCount = async () => (await server.sql`select count(*)::int as n from api_keys where guild_id = ${G}`)[0].n as number;
const rankOf = async (userId: string) => (await server.sql`select rank_id from people where guild_id = ${G} and user_id = ${userId}`)[0].rank_id as string | null;

t.test('item 1: a member with only settings.manage cannot mint an unscoped key, so cannot make themself admin', async (t) => {
  assertError(t, await api('PATCH', '/personnel/setter', { session: as.setter, body: { isAdmin: true } }), 403, 'isAdmin on self');
  const before = await keyCount();
  const minted = await api('POST', '/admin/apikeys/unscoped', { session: as.setter, body: { name: 'x' } });
  assertError(t, minted, 403, 'POST /admin/apikeys/unscoped', /admin/);
  t.equal(await keyCount(), before, 'no key stored');
  // Had a key been minted, this is what it was used for.
  if (minted.status === 200) await api('PATCH', '/personnel/setter', { key: minted.body.key, body: { isAdmin: true } });
  t.equal((await api('GET', '/access', { session: as.setter })).body.isAdmin, false, 'still no admin');
  t.equal((await api('POST', '/admin/apikeys/unscoped', { session: as.boss, body: { name: 'von der Wachleitung' } })).status, 200, 'a guild admin may');
});

t.test('item 1: a scoped key holds no more than its creator; what is missing is named', async (t) => {
  const before = await keyCount();
  const refused = await api('POST', '/admin/apikeys', { session: as.setter, body: { name: 'Leitstelle', scopes: ['calls:read', 'capabilities:read'] } });
  assertError(t, refused, 403, 'calls:read needs dispatch.view', /calls:read.*dispatch\.view/);
  t.notMatch(refused.body.error, /capabilities:read/, 'only the scope that is missing something is named');
  assertError(t, await api('POST', '/admin/apikeys', { session: as.setter, body: { name: 'Tablet', scopes: ['sessions:ingame.tablet_login'] } }), 403,
    'the tablet login mints sessions: admins only', /sessions:ingame\.tablet_login.*admin/);
  t.equal(await keyCount(), before, 'nothing stored');
  const allowed = await api('POST', '/admin/apikeys', { session: as.setter, body: { name: 'Self-check', scopes: ['capabilities:read'] } });
  t.equal(allowed.status, 200, 'a scope that opens nothing the creator lacks');
  t.equal((await api('POST', '/admin/apikeys', { session: as.boss, body: { name: 'Tablet', scopes: ['sessions:ingame.tablet_login', 'calls:read'] } })).status, 200, 'an admin may give any scope');
});

t.test('item 2: a game key with ranks:personal.ranks_set cannot hand out a management rank', async (t) => {
  const game = await scopedKey(server.sql, G, ['ranks:personal.ranks_set'], 'FiveM ranks');
  const put = (body: unknown) => api('PUT', '/integrations/ingame/ranks', { key: game, body });
  const refused = await put({ badge: 21, rank: 'wachleitung' });
  assertError(t, refused, 403, 'wachleitung carries settings.manage', /Wachleitung.*settings\.manage.*gameAssignable/s);
  t.equal(await rankOf('player'), 'crew', 'rank unchanged');
  assertError(t, await api('GET', '/admin/apikeys', { session: as.player }), 403, 'the player still cannot read the keys');

  assertError(t, await put({ badge: 22, rank: 'crew' }), 403, 'nor demote a leader out of one', /Wachleitung/);
  t.equal(await rankOf('leader'), 'wachleitung', 'the leader keeps the rank');
  assertError(t, await put({ badge: 22, rank: null }), 403, 'nor take it away');

  const ok = await put({ badge: 21, rank: 'dispatch' });
  t.equal(ok.status, 200, 'a rank without management capabilities still works');
  t.equal(await rankOf('player'), 'dispatch');

  const marked = await api('PATCH', '/admin/ranks/wachleitung', { session: as.boss, body: { gameAssignable: true } });
  t.equal(marked.status, 200, 'an admin marks the rank game-assignable');
  t.equal(marked.body.gameAssignable, true);
  t.equal((await put({ badge: 21, rank: 'wachleitung' })).status, 200, 'then the game may assign it');
  t.equal(await rankOf('player'), 'wachleitung');
});
