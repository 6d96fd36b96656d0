import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import { openBoard } from '../helpers/live.ts';

// Ranks of seedGuild: crew (timeclock.own.use, 1), dispatch (+ timeclock.manage, 2), none ("Guest", 0).
// Added: keeper (ranks.manage + timeclock.own.use, 5) for the "grant only what you hold" rule.
const G = '710000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'keeper', name: 'Keeper', position: 5, capabilities: ['ranks.manage', 'timeclock.own.use'] });
for (const p of [
  { userId: 'boss', nickname: 'Bea Boss', badge: '01', rankId: null, isAdmin: true },
  { userId: 'kee', nickname: 'Kai Keeper', badge: '02', rankId: 'keeper', isAdmin: false },
  { userId: 'cr', nickname: 'Cora Crew', badge: '03', rankId: 'crew', isAdmin: false },
  { userId: 'cr2', nickname: 'Carl Crew', badge: '04', rankId: 'crew', isAdmin: false },
]) await insertPerson(server.sql, G, p);
const key = await unscopedKey(server.sql, G);
const as = { boss: await signIn(server, G, 'boss'), kee: await signIn(server, G, 'kee'), cr: await signIn(server, G, 'cr') };
const known = ['settings.manage', 'timeclock.own.use', 'timeclock.manage', 'dispatch.view', 'dispatch.manage', 'units.manage', 'incidents.manage',
  'personal.sheet.view', 'personal.sheet.edit', 'ranks.manage', 'stats.leaderboard.view',
  'documents.letterhead.view', 'documents.letterhead.create', 'documents.letterhead.edit', 'documents.letterhead.delete'];
const audits = async (action: string) => server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = ${action} order by id`;

t.test('GET /admin/ranks: highest first, capabilities, holders', async (t) => {
  const res = await api('GET', '/admin/ranks', { key });
  t.equal(res.status, 200);
  t.same(res.body.ranks.map((r: any) => r.id), ['keeper', 'dispatch', 'crew', 'none']);
  const game = { gameAssignable: null, assignableFromGame: true }; // default rule: no management capability
  t.same(res.body.ranks[2], { id: 'crew', name: 'Crew', position: 1, capabilities: ['timeclock.own.use'], ...game, holders: 2 });
  t.same(res.body.ranks[3], { id: 'none', name: 'Guest', position: 0, capabilities: [], ...game, holders: 0 });
  t.match(res.body.ranks[0], { id: 'keeper', gameAssignable: null, assignableFromGame: false }, 'ranks.manage is a management capability');
});

t.test('POST /admin/ranks: given id, derived id, capabilities in canonical order, audit', async (t) => {
  const res = await api('POST', '/admin/ranks', { key, body: { id: 'lead', name: 'Leitung', position: 10, capabilities: ['ranks.manage', 'settings.manage'] } });
  t.equal(res.status, 200);
  t.same(res.body, { id: 'lead', name: 'Leitung', position: 10, capabilities: ['settings.manage', 'ranks.manage'], gameAssignable: null, assignableFromGame: false, holders: 0 });
  const derived = await api('POST', '/admin/ranks', { session: as.boss, body: { name: 'Notfallsanitäter (NFS)', position: 3, capabilities: [] } });
  t.equal(derived.body.id, 'notfallsanitaeter-nfs');
  const collide = await api('POST', '/admin/ranks', { key, body: { name: 'Notfallsanitäter NFS!', position: 3, capabilities: [] } });
  t.equal(collide.body.id, 'notfallsanitaeter-nfs-2', 'a taken derived id gets a suffix');
  const symbols = await api('POST', '/admin/ranks', { key, body: { name: '***', position: 0, capabilities: [] } });
  t.equal(symbols.body.id, 'rank', 'a name without letters or digits');
  const [audit] = await audits('ranks.create');
  t.match(audit, { actor_kind: 'key', data: { id: 'lead', name: 'Leitung', position: 10, capabilities: ['settings.manage', 'ranks.manage'] } });
  const listed = (await api('GET', '/admin/ranks', { key })).body.ranks.map((r: any) => r.id);
  t.equal(listed[0], 'lead');
});

t.test('POST /admin/ranks: 409 on a taken id or name (any case)', async (t) => {
  assertError(t, await api('POST', '/admin/ranks', { key, body: { id: 'crew', name: 'Anything', position: 1, capabilities: [] } }), 409, 'taken id', /id crew/);
  for (const name of ['Crew', 'crew', 'CREW', ' Crew ']) {
    assertError(t, await api('POST', '/admin/ranks', { key, body: { name, position: 1, capabilities: [] } }), 409, `name ${JSON.stringify(name)}`, /named "Crew"|named "crew"|named "CREW"/i);
  }
  t.equal((await api('GET', '/admin/ranks', { key })).body.ranks.filter((r: any) => r.name.toLowerCase() === 'crew').length, 1);
});

t.test('POST /admin/ranks: validation boundaries', async (t) => {
  const base = { position: 1, capabilities: [] };
  const post = (body: object) => api('POST', '/admin/ranks', { key, body });
  const unknown = await post({ ...base, name: 'Bad caps', capabilities: ['timeclock.own.use', 'fly.plane'] });
  assertError(t, unknown, 400, 'unknown capability', /fly\.plane/);
  for (const c of known) t.ok(unknown.body.error.includes(c), `the message lists ${c}`);
  assertError(t, await post({ ...base, name: 'Rep', capabilities: ['ranks.manage', 'ranks.manage'] }), 400, 'repeated capability', /repeat/);
  assertError(t, await post({ ...base, name: 'NotArr', capabilities: 'ranks.manage' }), 400, 'capabilities not an array');
  assertError(t, await post({ name: 'NoCaps', position: 1 }), 400, 'missing capabilities', /capabilities/);
  t.same((await post({ ...base, name: 'All', capabilities: known })).body.capabilities, known, 'every capability at once');

  t.equal((await post({ ...base, name: 'n'.repeat(64) })).status, 200, 'name of 64');
  assertError(t, await post({ ...base, name: 'm'.repeat(65) }), 400, 'name of 65', /64/);
  assertError(t, await post({ ...base, name: '' }), 400, 'empty name');
  assertError(t, await post({ ...base, name: 'Nu\u0000l' }), 400, 'NUL in name', /NUL/);
  assertError(t, await post({ ...base, name: '  ' }), 400, 'blank name');
  assertError(t, await post({ position: 1, capabilities: [] }), 400, 'missing name');

  t.equal((await post({ ...base, name: 'P0', position: 0 })).status, 200, 'position 0');
  t.equal((await post({ ...base, name: 'P9999', position: 9999 })).status, 200, 'position 9999');
  for (const position of [-1, 10000, 1.5, '3', null]) assertError(t, await post({ ...base, name: 'Pbad', position }), 400, `position ${JSON.stringify(position)}`, /position/);
  assertError(t, await post({ name: 'Pmissing', capabilities: [] }), 400, 'missing position');

  t.equal((await post({ ...base, id: 'i'.repeat(32), name: 'I32' })).body.id, 'i'.repeat(32), 'id of 32');
  assertError(t, await post({ ...base, id: 'j'.repeat(33), name: 'I33' }), 400, 'id of 33', /rank id/);
  for (const id of ['', 'a b', 'ä', 'a/b', 'a.b']) assertError(t, await post({ ...base, id, name: `Id ${id}` }), 400, `id ${JSON.stringify(id)}`, /rank id/);
  for (const field of ['holders', 'guildId', 'members']) assertError(t, await post({ ...base, name: 'Extra', [field]: 1 }), 400, `field ${field}`, new RegExp(`unknown field ${field}`));
  t.equal((await api('GET', '/admin/ranks', { key })).body.ranks.some((r: any) => r.name === 'Extra'), false, 'nothing written');
});

t.test('PATCH /admin/ranks/{id}: rename, reorder, capabilities; 409 and 404', async (t) => {
  const res = await api('PATCH', '/admin/ranks/none', { key, body: { name: 'Gast', position: 1 } });
  t.same(res.body, { id: 'none', name: 'Gast', position: 1, capabilities: [], gameAssignable: null, assignableFromGame: true, holders: 0 });
  t.equal((await api('PATCH', '/admin/ranks/none', { key, body: { name: 'GAST' } })).body.name, 'GAST', 'own name in another case');
  assertError(t, await api('PATCH', '/admin/ranks/none', { key, body: { name: 'crew' } }), 409, 'name of another rank', /crew/);
  assertError(t, await api('PATCH', '/admin/ranks/ghost', { key, body: { position: 1 } }), 404, 'unknown rank', /ghost/);
  assertError(t, await api('PATCH', '/admin/ranks/none', { key, body: {} }), 400, 'empty', /at least one/);
  assertError(t, await api('PATCH', '/admin/ranks/none', { key, body: { id: 'other' } }), 400, 'id in the body');
  assertError(t, await api('PATCH', '/admin/ranks/none', { key, body: { holders: 3 } }), 400, 'holders', /unknown field holders/);
  assertError(t, await api('PATCH', '/admin/ranks/none', { key, body: { capabilities: ['nope'] } }), 400, 'unknown capability', /known capabilities: settings\.manage/);
  assertError(t, await api('PATCH', '/admin/ranks/a%20b', { key, body: { position: 1 } }), 400, 'malformed id');
  const [audit] = await audits('ranks.update');
  t.match(audit.data, { id: 'none', changes: { name: 'Gast', position: 1 } });
});

t.test('capabilities take effect on the very next request (no cache wait)', async (t) => {
  assertError(t, await api('GET', '/personnel', { session: as.cr }), 403, 'crew cannot read sheets');
  const grant = await api('PATCH', '/admin/ranks/crew', { key, body: { capabilities: ['timeclock.own.use', 'personal.sheet.view'] } });
  t.same(grant.body.capabilities, ['timeclock.own.use', 'personal.sheet.view']);
  t.equal((await api('GET', '/personnel', { session: as.cr })).status, 200, 'at once after the rank gained it');
  await api('PATCH', '/admin/ranks/crew', { key, body: { capabilities: ['timeclock.own.use'] } });
  assertError(t, await api('GET', '/personnel', { session: as.cr }), 403, 'gone at once after the rank lost it');

  // Assigning a rank through the personnel sheet works the same way.
  assertError(t, await api('GET', '/admin/ranks', { session: as.cr }), 403, 'crew cannot manage ranks');
  t.equal((await api('PATCH', '/personnel/cr', { key, body: { rank: 'keeper' } })).status, 200);
  t.equal((await api('GET', '/admin/ranks', { session: as.cr })).status, 200, 'at once after getting the keeper rank');
  t.equal((await api('PATCH', '/personnel/cr', { key, body: { rank: 'crew' } })).status, 200);
  assertError(t, await api('GET', '/admin/ranks', { session: as.cr }), 403, 'gone at once after losing it');
});

t.test('capability ranks.manage: 403 without it, admins and unscoped keys pass, scoped keys never', async (t) => {
  const calls = [
    ['GET', '/admin/ranks', undefined],
    ['POST', '/admin/ranks', { name: 'Forbidden', position: 1, capabilities: [] }],
    ['PATCH', '/admin/ranks/none', { position: 2 }],
    ['DELETE', '/admin/ranks/none', undefined],
  ] as const;
  for (const [method, path, body] of calls) {
    assertError(t, await api(method, path, { session: as.cr, body }), 403, `crew ${method} ${path}`, /ranks\.manage/);
    for (const scope of specScopes) assertError(t, await api(method, path, { key: await scopedKey(server.sql, G, [scope]), body }), 403, `scope ${scope}: ${method} ${path}`);
  }
  const list = await api('GET', '/admin/ranks', { key });
  t.notOk(list.body.ranks.some((r: any) => r.name === 'Forbidden'), 'nothing was created');
  t.ok(list.body.ranks.some((r: any) => r.id === 'none' && r.position === 1), 'nothing was changed or deleted');
  t.equal((await api('GET', '/admin/ranks', { session: as.boss })).status, 200, 'admin session');
  t.equal((await api('GET', '/admin/ranks', { session: as.kee })).status, 200, 'keeper session');
});

t.test('a session without admin rights grants and takes away only capabilities it holds', async (t) => {
  // keeper holds ranks.manage and timeclock.own.use.
  const own = await api('POST', '/admin/ranks', { session: as.kee, body: { name: 'Junior', position: 1, capabilities: ['timeclock.own.use'] } });
  t.equal(own.status, 200, 'a rank within the keeper\'s capabilities');
  assertError(t, await api('POST', '/admin/ranks', { session: as.kee, body: { name: 'Senior', position: 9, capabilities: ['settings.manage'] } }), 403, 'settings.manage', /settings\.manage/);
  assertError(t, await api('PATCH', `/admin/ranks/${own.body.id}`, { session: as.kee, body: { capabilities: ['timeclock.own.use', 'timeclock.manage'] } }), 403, 'adding timeclock.manage', /timeclock\.manage/);
  assertError(t, await api('PATCH', '/admin/ranks/dispatch', { session: as.kee, body: { name: 'Disponent' } }), 403, 'renaming a rank with timeclock.manage');
  assertError(t, await api('PATCH', '/admin/ranks/keeper', { session: as.kee, body: { capabilities: [...known.filter((c) => c !== 'documents.letterhead.delete')] } }), 403, 'raising their own rank');
  assertError(t, await api('DELETE', '/admin/ranks/lead', { session: as.kee }), 403, 'deleting a rank with settings.manage');
  t.equal((await api('PATCH', `/admin/ranks/${own.body.id}`, { session: as.kee, body: { name: 'Junior 2' } })).status, 200);
  t.equal((await api('DELETE', `/admin/ranks/${own.body.id}`, { session: as.kee })).status, 200);
  t.equal((await api('PATCH', '/admin/ranks/dispatch', { session: as.boss, body: { name: 'Disponent' } })).body.name, 'Disponent', 'an admin may');
});

t.test('gameAssignable: set, reset and validated; only guild admins let the game assign a management rank', async (t) => {
  const patch = (id: string, body: object, who: { key?: string; session?: { cookie: string; guildId: string } } = { key }) => api('PATCH', `/admin/ranks/${id}`, { ...who, body });
  const junior = await api('POST', '/admin/ranks', { session: as.kee, body: { name: 'Anwärter', position: 1, capabilities: ['timeclock.own.use'], gameAssignable: false } });
  t.match(junior.body, { gameAssignable: false, assignableFromGame: false }, 'a rank manager may keep a rank from the game');
  t.match((await patch(junior.body.id, { gameAssignable: true }, { session: as.kee })).body, { gameAssignable: true, assignableFromGame: true }, 'and allow a plain one');
  t.match((await patch(junior.body.id, { gameAssignable: null }, { session: as.kee })).body, { gameAssignable: null, assignableFromGame: true }, 'null: back to the default');
  t.equal((await patch(junior.body.id, { gameAssignable: true }, { session: as.kee })).status, 200);
  assertError(t, await patch(junior.body.id, { capabilities: ['timeclock.own.use', 'ranks.manage'] }, { session: as.kee }), 403,
    'giving a game-assignable rank a management capability', /only guild admins may let the game assign rank Anwärter.*ranks\.manage/);
  assertError(t, await patch('keeper', { gameAssignable: true }, { session: as.kee }), 403, 'marking a management rank', /only guild admins/);
  assertError(t, await api('POST', '/admin/ranks', { session: as.kee, body: { name: 'Verwalter', position: 2, capabilities: ['ranks.manage'], gameAssignable: true } }), 403,
    'creating one so marked', /only guild admins/);
  const ranks = (await api('GET', '/admin/ranks', { key })).body.ranks;
  t.match(ranks.find((r: any) => r.id === 'keeper'), { gameAssignable: null, assignableFromGame: false }, 'nothing changed');
  t.notOk(ranks.some((r: any) => r.name === 'Verwalter'), 'nothing created');
  t.match((await patch('keeper', { gameAssignable: true }, { session: as.boss })).body, { gameAssignable: true, assignableFromGame: true }, 'a guild admin may');
  t.equal((await patch('keeper', { name: 'Keeper' }, { session: as.kee })).status, 200, 'a rename by the rank manager keeps the admin\'s decision');
  t.match((await patch('keeper', { gameAssignable: false }, { session: as.kee })).body, { assignableFromGame: false }, 'and may withdraw it');
  for (const bad of ['yes', 1, []]) assertError(t, await patch('keeper', { gameAssignable: bad }), 400, `gameAssignable ${JSON.stringify(bad)}`, /gameAssignable/);
  await patch('keeper', { gameAssignable: null });
  await api('DELETE', `/admin/ranks/${junior.body.id}`, { key });
});

t.test('DELETE /admin/ranks/{id}: 409 while held, then deleted', async (t) => {
  assertError(t, await api('DELETE', '/admin/ranks/crew', { key }), 409, 'crew is held', /held by 2 people/);
  t.equal((await api('GET', '/personnel/cr', { key })).body.rankId, 'crew', 'holders keep their rank');
  await api('PATCH', '/personnel/cr', { key, body: { rank: 'none' } });
  await api('PATCH', '/personnel/cr2', { key, body: { rank: 'none' } });
  const res = await api('DELETE', '/admin/ranks/crew', { key });
  t.same(res.body, { deleted: true, id: 'crew' });
  assertError(t, await api('DELETE', '/admin/ranks/crew', { key }), 404, 'gone');
  assertError(t, await api('PATCH', '/personnel/cr', { key, body: { rank: 'crew' } }), 404, 'cannot be assigned any more', /crew/);
  const audit = (await audits('ranks.delete')).find((a: any) => a.data.id === 'crew');
  t.match(audit, { actor_kind: 'key', data: { id: 'crew', name: 'Crew' } });
  assertError(t, await api('DELETE', '/admin/ranks/crew', { key, body: { x: 1 } }), 404, 'a body on DELETE is ignored');
});

t.test('rank writes reach boards on topic access; a rename patches onDuty', async (t) => {
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } }); // kee (keeper)
  const board = openBoard(server.url, { apiKey: key, topics: ['access', 'onDuty'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  t.equal((board.state.topics.onDuty!.kee as any).rank, 'Keeper');
  await api('PATCH', '/admin/ranks/keeper', { key, body: { name: 'Bewahrer' } });
  await board.until(() => (board.state.topics.onDuty!.kee as any).rank === 'Bewahrer');
  const frame = board.frames.at(-1)! as any;
  t.match(frame.topics.access, [{ op: 'rank', rankId: 'keeper', change: 'updated' }]);
  t.same(frame.topics.onDuty, [{ op: 'patch', key: 'kee', value: { rank: 'Bewahrer' } }]);
  const accessOp = (pred: (o: any) => boolean) => () => board.frames.some((f: any) => f.kind === 'delta' && (f.topics.access ?? []).some(pred));
  await api('POST', '/admin/ranks', { key, body: { name: 'Live', position: 1, capabilities: [] } });
  await board.until(accessOp((o) => o.rankId === 'live' && o.change === 'created'));
  await api('PATCH', '/admin/ranks/live', { key, body: { position: 2 } });
  await board.until(accessOp((o) => o.rankId === 'live' && o.change === 'updated'));
  t.notOk('onDuty' in (board.frames.at(-1) as any).topics, 'no onDuty op when the name stays');
  await api('DELETE', '/admin/ranks/live', { key });
  await board.until(accessOp((o) => o.rankId === 'live' && o.change === 'deleted'));
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
});
