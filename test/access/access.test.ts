import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';

// GET /access (any member: session or key of the guild) and GET /integrations/ingame/self-check (capabilities:read).
const G = '750000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'cr', nickname: 'Cora Crew', badge: '1', rank: 'crew' },
  { userId: 'di', nickname: 'Dana Dispatch', badge: '2', rank: 'dispatch' },
  { userId: 'no', nickname: 'Nils Norank', badge: '3' },
  { userId: 'boss', nickname: 'Bea Boss', badge: '4', admin: true },
]);
const key = await unscopedKey(server.sql, G, 'tool');
const as = { cr: await signIn(server, G, 'cr'), di: await signIn(server, G, 'di'), no: await signIn(server, G, 'no'), boss: await signIn(server, G, 'boss') };
const allCaps = ['settings.manage', 'timeclock.own.use', 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'units.manage', 'incidents.manage',
  'personal.sheet.view', 'personal.sheet.edit', 'ranks.manage', 'stats.leaderboard.view',
  'documents.letterhead.view', 'documents.letterhead.create', 'documents.letterhead.edit', 'documents.letterhead.delete',
  'medic.files.view', 'medic.files.manage'];
const allModules = { timeclock: true, dispatch: true, incidents: true, personnel: true, stats: true, documents: true, uploads: true, emojis: true, medic: true };

t.test('GET /access with a session: who, rank, effective capabilities, modules, no partner areas', async (t) => {
  const res = await api('GET', '/access', { session: as.di });
  t.equal(res.status, 200);
  t.same(res.body, {
    guildId: G, kind: 'session', userId: 'di', nickname: 'Dana Dispatch', rankId: 'dispatch', rank: 'Dispatch',
    isAdmin: false, capabilities: ['timeclock.own.use', 'timeclock.manage'], modules: allModules, partnerAreas: [],
  });
  t.match((await api('GET', '/access', { session: as.no })).body, { rankId: null, rank: null, isAdmin: false, capabilities: [] }, 'no rank: nothing');
  const admin = await api('GET', '/access', { session: as.boss });
  t.match(admin.body, { isAdmin: true, rankId: null });
  t.same(admin.body.capabilities, allCaps, 'admins: every capability');
});

t.test('GET /access follows rank and module changes at once', async (t) => {
  await api('PATCH', '/admin/ranks/crew', { key, body: { capabilities: ['timeclock.own.use', 'personal.sheet.view'] } });
  t.same((await api('GET', '/access', { session: as.cr })).body.capabilities, ['timeclock.own.use', 'personal.sheet.view']);
  await api('PATCH', '/personnel/cr', { key, body: { rank: 'dispatch' } });
  t.match((await api('GET', '/access', { session: as.cr })).body, { rankId: 'dispatch', capabilities: ['timeclock.own.use', 'timeclock.manage'] });
  await api('PATCH', '/personnel/cr', { key, body: { isAdmin: true } });
  t.same((await api('GET', '/access', { session: as.cr })).body.capabilities, allCaps);
  await api('PATCH', '/personnel/cr', { key, body: { isAdmin: false, rank: 'crew' } });
  await api('PATCH', '/admin/modules', { key, body: { modules: { stats: false } } });
  t.equal((await api('GET', '/access', { session: as.cr })).body.modules.stats, false);
  await api('PATCH', '/admin/modules', { key, body: { modules: { stats: true } } });
});

t.test('GET /access with keys: unscoped = the guild\'s admin, scoped = its scopes and no capabilities', async (t) => {
  const res = await api('GET', '/access', { key });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), ['capabilities', 'guildId', 'isAdmin', 'keyId', 'keyName', 'kind', 'modules', 'partnerAreas']);
  t.match(res.body, { guildId: G, kind: 'key', keyName: 'tool', isAdmin: true, partnerAreas: [] });
  t.same(res.body.capabilities, allCaps);
  for (const scope of specScopes) {
    const scoped = await api('GET', '/access', { key: await scopedKey(server.sql, G, [scope], `only ${scope}`) });
    t.equal(scoped.status, 200, `any scoped key passes (${scope})`);
    t.match(scoped.body, { kind: 'key', keyName: `only ${scope}`, isAdmin: false, capabilities: [], scopes: [scope] });
  }
  assertError(t, await api('GET', '/access'), 401, 'no credential');
  assertError(t, await api('GET', '/access', { key: 'stmp_' + 'x'.repeat(40) }), 401, 'bad key');
  assertError(t, await api('GET', '/access?x=1', { key }), 400, 'unknown query parameter');
});

t.test('self-check: the key, its scopes and what it lacks for the game resource', async (t) => {
  const gameScopes = specScopes.filter((s) => !s.startsWith('facility:'));
  const some = await scopedKey(server.sql, G, ['capabilities:read', 'calls:call.report', 'employees:read'], 'fivem');
  const res = await api('GET', '/integrations/ingame/self-check', { key: some });
  t.equal(res.status, 200);
  t.match(res.body, {
    ok: true, guildId: G, keyName: 'fivem', unscoped: false,
    scopes: ['capabilities:read', 'calls:call.report', 'employees:read'], complete: false, medicSync: false, modules: allModules,
  });
  t.same(res.body.need, gameScopes, 'default: the dispatch resource\'s scopes');
  t.same(res.body.missing, gameScopes.filter((s) => !['capabilities:read', 'calls:call.report', 'employees:read'].includes(s)));
  t.ok(Math.abs(Date.parse(res.body.serverTime) - Date.now()) < 60_000);

  const named = await api('GET', '/integrations/ingame/self-check?need=calls:call.report,employees:read', { key: some });
  t.match(named.body, { need: ['calls:call.report', 'employees:read'], missing: [], complete: true });
  const lacking = await api('GET', `/integrations/ingame/self-check?need=${encodeURIComponent('calls:read, facility:hospital.ingame_read')}`, { key: some });
  t.same(lacking.body.missing, ['calls:read', 'facility:hospital.ingame_read']);

  const full = await api('GET', '/integrations/ingame/self-check', { key });
  t.match(full.body, { unscoped: true, missing: [], complete: true, medicSync: true, keyName: 'tool' });
  t.same(full.body.scopes, specScopes);
  await api('PATCH', '/admin/modules', { key, body: { modules: { medic: false } } });
  t.equal((await api('GET', '/integrations/ingame/self-check', { key })).body.medicSync, false, 'medic off: no medic sync');
  await api('PATCH', '/admin/modules', { key, body: { modules: { medic: true } } });

  assertError(t, await api('GET', '/integrations/ingame/self-check?need=calls:fly', { key: some }), 400, 'unknown scope', /known scopes/);
  assertError(t, await api('GET', '/integrations/ingame/self-check?need=', { key: some }), 400, 'empty need');
  assertError(t, await api('GET', '/integrations/ingame/self-check?other=1', { key: some }), 400, 'unknown parameter');
});

t.test('self-check: scope capabilities:read only; sessions get 403', async (t) => {
  for (const scope of specScopes) {
    const res = await api('GET', '/integrations/ingame/self-check', { key: await scopedKey(server.sql, G, [scope]) });
    if (scope === 'capabilities:read') t.equal(res.status, 200, scope);
    else assertError(t, res, 403, scope, /capabilities:read/);
  }
  assertError(t, await api('GET', '/integrations/ingame/self-check', { session: as.boss }), 403, 'admin session', /API keys/);
  assertError(t, await api('GET', '/integrations/ingame/self-check', { session: as.cr }), 403, 'crew session');
  assertError(t, await api('GET', '/integrations/ingame/self-check'), 401, 'no credential');
});
