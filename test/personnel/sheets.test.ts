import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';

// Ranks of seedGuild: crew (timeclock.own.use, position 1), dispatch (+ timeclock.manage, 2), none (Guest, 0).
// Added here: viewer (personal.sheet.view, 3) and editor (timeclock.own.use + personal.sheet.view + personal.sheet.edit, 4).
const G = '700000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'viewer', name: 'Viewer', position: 3, capabilities: ['personal.sheet.view'] });
await insertRank(server.sql, G, { id: 'editor', name: 'Editor', position: 4, capabilities: ['timeclock.own.use', 'personal.sheet.view', 'personal.sheet.edit'] });
for (const p of [
  { userId: 'boss', nickname: 'Bea Boss', badge: '01', rankId: null, isAdmin: true },
  { userId: 'ed', nickname: 'Eda Editor', badge: '02', rankId: 'editor', isAdmin: false },
  { userId: 'vi', nickname: 'Vic Viewer', badge: '03', rankId: 'viewer', isAdmin: false },
  { userId: 'cr', nickname: 'Cora Crew', badge: '04', rankId: 'crew', isAdmin: false },
]) await insertPerson(server.sql, G, p);
const key = await unscopedKey(server.sql, G);
const as = { boss: await signIn(server, G, 'boss'), ed: await signIn(server, G, 'ed'), vi: await signIn(server, G, 'vi'), cr: await signIn(server, G, 'cr') };

const personKeys = ['badgeNumber', 'createdAt', 'isAdmin', 'nickname', 'onDuty', 'orgUnit', 'rank', 'rankId', 'userId'];
const historyOf = async (userId: string) => (await api('GET', `/personnel/${userId}/history`, { key })).body.entries;
const audits = async (action: string) => server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = ${action} order by id`;

t.test('POST /personnel creates a sheet; the badge is normalised; a "hired" entry is written', async (t) => {
  const res = await api('POST', '/personnel', { key, body: { userId: '123456789012345678', nickname: '  Nina Neu  ', badge: 7, rank: 'Crew', orgUnit: 'Wache Nord' } });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), personKeys);
  t.match(res.body, { userId: '123456789012345678', nickname: 'Nina Neu', badgeNumber: '07', rankId: 'crew', rank: 'Crew', orgUnit: 'Wache Nord', isAdmin: false, onDuty: false });
  t.ok(Date.parse(res.body.createdAt) > 0);
  const read = await api('GET', '/personnel/123456789012345678', { key });
  t.same(read.body, res.body, 'GET answers the same sheet');
  const [hired] = await historyOf('123456789012345678');
  t.match(hired, { kind: 'hired', rankChange: { from: null, to: 'Crew' }, by: { kind: 'key', name: 'test' } });
  const [audit] = await audits('personal.create');
  t.match(audit, { actor_kind: 'key', data: { userId: '123456789012345678', badge: '07', rankId: 'crew', isAdmin: false } });

  const minimal = await api('POST', '/personnel', { session: as.ed, body: { userId: 'min_1-A', nickname: 'M' } });
  t.equal(minimal.status, 200, 'an editor creates a sheet with only userId and nickname');
  t.match(minimal.body, { badgeNumber: null, rankId: null, rank: null, orgUnit: null, isAdmin: false });
  t.match((await historyOf('min_1-A'))[0], { kind: 'hired', rankChange: null, by: { kind: 'session', id: 'ed', name: 'Eda Editor' } });
});

t.test('duplicate user id or badge: 409, nothing written', async (t) => {
  assertError(t, await api('POST', '/personnel', { key, body: { userId: 'cr', nickname: 'Other' } }), 409, 'same user id', /user id cr/);
  for (const badge of ['7', '07', 7, '007']) {
    assertError(t, await api('POST', '/personnel', { key, body: { userId: 'dup', nickname: 'Dup', badge } }), 409, `badge ${JSON.stringify(badge)} = 07`, /badge 07/);
  }
  t.equal((await api('GET', '/personnel/dup', { key })).status, 404, 'no sheet was created');
});

t.test('create: every validation boundary', async (t) => {
  const ok = async (body: object, label: string) => {
    const res = await api('POST', '/personnel', { key, body });
    t.equal(res.status, 200, label);
    return res.body;
  };
  const bad = async (body: object, label: string, message?: RegExp) => assertError(t, await api('POST', '/personnel', { key, body }), 400, label, message);

  t.equal((await ok({ userId: 'a'.repeat(32), nickname: 'x' }, 'userId of 32')).userId, 'a'.repeat(32));
  await bad({ userId: 'b'.repeat(33), nickname: 'x' }, 'userId of 33', /userId/);
  await bad({ userId: '', nickname: 'x' }, 'empty userId', /userId/);
  for (const userId of ['a b', 'ä', 'a/b', 'a.b', 'a:b', '<x>']) await bad({ userId, nickname: 'x' }, `userId ${userId}`, /userId/);
  await bad({ userId: 12345, nickname: 'x' }, 'numeric userId', /userId/);

  t.equal((await ok({ userId: 'n64', nickname: 'n'.repeat(64) }, 'nickname of 64')).nickname, 'n'.repeat(64));
  t.equal((await ok({ userId: 'n63', nickname: 'n'.repeat(63) }, 'nickname of 63')).nickname.length, 63);
  await bad({ userId: 'n65', nickname: 'n'.repeat(65) }, 'nickname of 65', /nickname/);
  await bad({ userId: 'n0', nickname: '' }, 'empty nickname', /nickname/);
  await bad({ userId: 'n0', nickname: '   ' }, 'blank nickname', /nickname/);
  await bad({ userId: 'n0', nickname: 5 }, 'numeric nickname', /nickname/);
  await bad({ userId: 'n0', nickname: 'a\u0000b' }, 'NUL in nickname', /NUL/);
  await bad({ userId: 'n0', nickname: 'n', orgUnit: '\u0000' }, 'NUL in orgUnit', /NUL/);
  await bad({ userId: 'n0', nickname: 'n', rank: 'cr\u0000ew' }, 'NUL in rank', /NUL/);
  await bad({ userId: 'n0' }, 'missing nickname', /nickname/);
  await bad({ nickname: 'x' }, 'missing userId', /userId/);

  t.equal((await ok({ userId: 'o64', nickname: 'o', orgUnit: 'o'.repeat(64) }, 'orgUnit of 64')).orgUnit, 'o'.repeat(64));
  await bad({ userId: 'o65', nickname: 'o', orgUnit: 'o'.repeat(65) }, 'orgUnit of 65', /orgUnit/);
  await bad({ userId: 'o0', nickname: 'o', orgUnit: '' }, 'empty orgUnit', /orgUnit/);

  for (const badge of [-1, 1.5, 'abc', '', ' 1', true, [], {}, '1234567']) await bad({ userId: 'bb', nickname: 'b', badge }, `badge ${JSON.stringify(badge)}`, /badge/);
  t.equal((await ok({ userId: 'b6', nickname: 'b', badge: '123456' }, 'badge of 6 digits')).badgeNumber, '123456');
  t.equal((await ok({ userId: 'bnull', nickname: 'b', badge: null }, 'badge null')).badgeNumber, null);

  await bad({ userId: 'r', nickname: 'r', rank: '' }, 'empty rank', /rank/);
  await bad({ userId: 'r', nickname: 'r', rank: 5 }, 'numeric rank', /rank/);
  assertError(t, await api('POST', '/personnel', { key, body: { userId: 'r', nickname: 'r', rank: 'nope' } }), 404, 'unknown rank', /rank "nope"/);
  await bad({ userId: 'r', nickname: 'r', isAdmin: 'yes' }, 'isAdmin not boolean', /isAdmin/);

  for (const field of ['guildId', 'createdAt', 'onDuty', 'badgeNumber', 'rankId', 'history', 'id']) {
    await bad({ userId: 'sf', nickname: 'x', [field]: 'x' }, `server-owned or unknown field ${field}`, new RegExp(`unknown field ${field}`));
  }
  t.equal((await api('GET', '/personnel/sf', { key })).status, 404, 'nothing was created by a refused body');
  assertError(t, await api('POST', '/personnel', { key, raw: '[]' }), 400, 'array body');
  assertError(t, await api('POST', '/personnel', { key }), 400, 'no body');
});

t.test('GET /personnel lists the guild, highest rank first; GET of an unknown or malformed id', async (t) => {
  const res = await api('GET', '/personnel', { key });
  t.equal(res.status, 200);
  t.equal(res.body.count, res.body.people.length);
  const ids = res.body.people.map((p: any) => p.userId);
  t.ok(ids.indexOf('ed') < ids.indexOf('vi') && ids.indexOf('vi') < ids.indexOf('cr'), 'editor (4) before viewer (3) before crew (1)');
  t.same(Object.keys(res.body.people[0]).sort(), personKeys);
  assertError(t, await api('GET', '/personnel/nobody', { key }), 404, 'unknown', /nobody/);
  assertError(t, await api('GET', `/personnel/${'x'.repeat(33)}`, { key }), 400, 'too long');
  assertError(t, await api('GET', '/personnel/a%20b', { key }), 400, 'bad charset');
  assertError(t, await api('GET', '/personnel?x=1', { key }), 400, 'unknown query parameter');
});

t.test('PATCH /personnel/{userId}: nickname, badge, orgUnit; 409 on a taken badge', async (t) => {
  await api('POST', '/personnel', { key, body: { userId: 'p1', nickname: 'Paula', badge: 20 } });
  await api('POST', '/personnel', { key, body: { userId: 'p2', nickname: 'Piet', badge: 21 } });
  const res = await api('PATCH', '/personnel/p1', { key, body: { nickname: 'Paula P.', badge: '022', orgUnit: 'Wache Süd' } });
  t.equal(res.status, 200);
  t.match(res.body, { userId: 'p1', nickname: 'Paula P.', badgeNumber: '22', orgUnit: 'Wache Süd' });
  for (const badge of [21, '21', '021']) {
    assertError(t, await api('PATCH', '/personnel/p1', { key, body: { badge } }), 409, `badge ${badge} belongs to p2`, /badge 21/);
  }
  t.equal((await api('GET', '/personnel/p1', { key })).body.badgeNumber, '22', 'badge unchanged after the 409');
  const cleared = await api('PATCH', '/personnel/p2', { key, body: { badge: null, orgUnit: null } });
  t.match(cleared.body, { badgeNumber: null, orgUnit: null });
  t.equal((await api('PATCH', '/personnel/p1', { key, body: { badge: 21 } })).body.badgeNumber, '21', 'a freed badge can be taken');
  const same = await api('PATCH', '/personnel/p1', { key, body: { nickname: 'Paula P.' } });
  t.equal(same.status, 200, 'an unchanged value is fine');
  const [audit] = (await audits('personal.update')).filter((a: any) => a.data.userId === 'p1');
  t.match(audit.data.changes, { nickname: { from: 'Paula', to: 'Paula P.' }, badge: { from: '20', to: '22' }, orgUnit: { from: null, to: 'Wache Süd' } });
});

t.test('PATCH refuses empty, unknown, server-owned and path-repeating fields', async (t) => {
  assertError(t, await api('PATCH', '/personnel/p1', { key, body: {} }), 400, 'empty body', /at least one/);
  assertError(t, await api('PATCH', '/personnel/p1', { key }), 400, 'no body', /at least one/);
  assertError(t, await api('PATCH', '/personnel/p1', { key, body: { userId: 'p9' } }), 400, 'userId in the body', /userId/);
  for (const field of ['onDuty', 'createdAt', 'guildId', 'rankId', 'badgeNumber']) {
    assertError(t, await api('PATCH', '/personnel/p1', { key, body: { [field]: 'x' } }), 400, field, new RegExp(`unknown field ${field}`));
  }
  assertError(t, await api('PATCH', '/personnel/p1', { key, body: { nickname: 'n'.repeat(65) } }), 400, 'nickname of 65');
  assertError(t, await api('PATCH', '/personnel/p1', { key, body: { nickname: '\u0000' } }), 400, 'NUL nickname', /NUL/);
  t.equal((await api('PATCH', '/personnel/p1', { key, body: { nickname: 'n'.repeat(64) } })).status, 200, 'nickname of 64');
  assertError(t, await api('PATCH', '/personnel/nobody', { key, body: { nickname: 'x' } }), 404, 'unknown person');
  assertError(t, await api('PATCH', '/personnel/p1', { key, body: { rank: 'ghost' } }), 404, 'unknown rank', /ghost/);
  assertError(t, await api('PATCH', '/personnel/p1?nickname=x', { key, body: { badge: 3 } }), 400, 'query on a write');
});

t.test('rank changes write promotion / demotion / rank_change entries', async (t) => {
  await insertRank(server.sql, G, { id: 'crew2', name: 'Crew Zwei', position: 1, capabilities: [] });
  const steps: [string | null, string, string | null, string | null][] = [
    ['crew', 'promotion', null, 'Crew'],
    ['DISPATCH', 'promotion', 'Crew', 'Dispatch'], // by name, any case
    ['crew', 'demotion', 'Dispatch', 'Crew'],
    ['crew2', 'rank_change', 'Crew', 'Crew Zwei'],
    [null, 'demotion', 'Crew Zwei', null],
  ];
  for (const [rank, kind, from, to] of steps) {
    const res = await api('PATCH', '/personnel/p2', { session: as.boss, body: { rank } });
    t.equal(res.status, 200, `rank ${rank}`);
    t.equal(res.body.rank, to);
    const [latest] = await historyOf('p2');
    t.match(latest, { kind, rankChange: { from, to }, by: { kind: 'session', id: 'boss', name: 'Bea Boss' } }, `${kind} ${from} -> ${to}`);
  }
  const before = (await historyOf('p2')).length;
  await api('PATCH', '/personnel/p2', { session: as.boss, body: { rank: null } });
  t.equal((await historyOf('p2')).length, before, 'the same rank again writes nothing');
});

t.test('isAdmin: only admins (sessions) and unscoped keys; the last admin keeps the flag', async (t) => {
  assertError(t, await api('PATCH', '/personnel/cr', { session: as.ed, body: { isAdmin: true } }), 403, 'editor sets isAdmin', /admin/);
  assertError(t, await api('PATCH', '/personnel/ed', { session: as.ed, body: { isAdmin: true } }), 403, 'editor promotes self to admin');
  assertError(t, await api('POST', '/personnel', { session: as.ed, body: { userId: 'adm', nickname: 'A', isAdmin: false } }), 403, 'editor creates with isAdmin');
  t.equal((await api('GET', '/personnel/ed', { key })).body.isAdmin, false);

  assertError(t, await api('PATCH', '/personnel/boss', { session: as.boss, body: { isAdmin: false } }), 409, 'last admin', /last admin/);
  const made = await api('PATCH', '/personnel/vi', { session: as.boss, body: { isAdmin: true } });
  t.equal(made.body.isAdmin, true, 'admin makes vi admin');
  t.equal((await api('POST', '/personnel', { session: as.vi, body: { userId: 'byvi', nickname: 'By Vi' } })).status, 200, 'the new admin may edit at once');
  t.equal((await api('PATCH', '/personnel/vi', { key, body: { isAdmin: false } })).body.isAdmin, false, 'unscoped key takes it back');
  assertError(t, await api('POST', '/personnel', { session: as.vi, body: { userId: 'byvi2', nickname: 'By Vi' } }), 403, 'rights gone at once');
});

t.test('a session without admin rights cannot assign or take away capabilities it lacks', async (t) => {
  // editor holds timeclock.own.use, personal.sheet.view, personal.sheet.edit.
  const up = await api('PATCH', '/personnel/cr', { session: as.ed, body: { rank: 'viewer' } });
  t.equal(up.status, 200, 'crew -> viewer: both within the editor\'s capabilities');
  assertError(t, await api('PATCH', '/personnel/cr', { session: as.ed, body: { rank: 'dispatch' } }), 403, 'dispatch carries timeclock.manage', /timeclock\.manage/);
  await api('PATCH', '/personnel/cr', { key, body: { rank: 'dispatch' } });
  assertError(t, await api('PATCH', '/personnel/cr', { session: as.ed, body: { rank: 'crew' } }), 403, 'taking dispatch away is refused too');
  t.equal((await api('PATCH', '/personnel/cr', { session: as.ed, body: { nickname: 'Cora C.' } })).status, 200, 'other fields of that person are fine');
  assertError(t, await api('POST', '/personnel', { session: as.ed, body: { userId: 'dd', nickname: 'D', rank: 'dispatch' } }), 403, 'create with dispatch');
  t.equal((await api('PATCH', '/personnel/cr', { session: as.boss, body: { rank: 'crew' } })).status, 200, 'an admin may');
});

t.test('capabilities: view needs personal.sheet.view, writes need personal.sheet.edit', async (t) => {
  const reads = [['GET', '/personnel'], ['GET', '/personnel/cr'], ['GET', '/personnel/cr/history']] as const;
  const writes = [
    ['POST', '/personnel', { userId: 'cap', nickname: 'Cap' }],
    ['PATCH', '/personnel/cr', { orgUnit: 'X' }],
    ['POST', '/personnel/cr/history', { kind: 'note', text: 'hi' }],
  ] as const;
  for (const [method, path] of reads) {
    assertError(t, await api(method, path, { session: as.cr }), 403, `crew ${method} ${path}`, /personal\.sheet\.view/);
    t.equal((await api(method, path, { session: as.vi })).status, 200, `viewer ${method} ${path}`);
    t.equal((await api(method, path, { session: as.boss })).status, 200, `admin ${method} ${path}`);
  }
  for (const [method, path, body] of writes) {
    assertError(t, await api(method, path, { session: as.vi, body }), 403, `viewer ${method} ${path}`, /personal\.sheet\.edit/);
    assertError(t, await api(method, path, { session: as.cr, body }), 403, `crew ${method} ${path}`);
  }
  t.equal((await api('GET', '/personnel/cap', { key })).status, 404, 'nothing was created');
  t.notOk((await historyOf('cr')).some((e: any) => e.kind === 'note'), 'no note was written');
  for (const [method, path, body] of writes) {
    t.equal((await api(method, path, { session: as.ed, body })).status, 200, `editor ${method} ${path}`);
  }
  for (const scope of specScopes) {
    const scoped = await scopedKey(server.sql, G, [scope]);
    assertError(t, await api('GET', '/personnel', { key: scoped }), 403, `scoped key (${scope}) on GET /personnel`);
    assertError(t, await api('POST', '/personnel', { key: scoped, body: { userId: 'sk', nickname: 'S' } }), 403, `scoped key (${scope}) on POST /personnel`);
  }
});

t.test('history: add entries, boundaries, kinds the server owns, paging', async (t) => {
  await api('POST', '/personnel', { key, body: { userId: 'h1', nickname: 'Hanna' } });
  const add = (body: object) => api('POST', '/personnel/h1/history', { session: as.ed, body });
  const note = await add({ kind: 'note', text: '  Erste-Hilfe-Kurs bestanden  ' });
  t.equal(note.status, 200);
  t.same(Object.keys(note.body).sort(), ['at', 'by', 'id', 'kind', 'rankChange', 'text', 'userId']);
  t.match(note.body, { userId: 'h1', kind: 'note', text: 'Erste-Hilfe-Kurs bestanden', rankChange: null, by: { kind: 'session', id: 'ed', name: 'Eda Editor' } });
  const [audit] = (await audits('personal.history_add')).filter((a: any) => a.data.userId === 'h1');
  t.match(audit, { actor_kind: 'session', actor_id: 'ed', data: { entryId: note.body.id, kind: 'note' } });

  t.equal((await add({ kind: 'warning', text: 'w'.repeat(1000) })).status, 200, 'text of 1000');
  t.equal((await add({ kind: 'training', text: 'w'.repeat(999) })).status, 200, 'text of 999');
  assertError(t, await add({ kind: 'note', text: 'w'.repeat(1001) }), 400, 'text of 1001', /1000/);
  assertError(t, await add({ kind: 'note', text: '' }), 400, 'empty text');
  assertError(t, await add({ kind: 'note', text: 'a\u0000' }), 400, 'NUL in text', /NUL/);
  assertError(t, await add({ kind: 'note', text: '   ' }), 400, 'blank text');
  assertError(t, await add({ kind: 'note' }), 400, 'missing text');
  assertError(t, await add({ text: 'x' }), 400, 'missing kind');
  for (const kind of ['promotion', 'demotion', 'rank_change']) assertError(t, await add({ kind, text: 'x' }), 400, `${kind} is server-written`, /rank changes/);
  assertError(t, await add({ kind: 'party', text: 'x' }), 400, 'unknown kind', /note, warning/);
  for (const field of ['id', 'at', 'by', 'userId', 'rankChange']) assertError(t, await add({ kind: 'note', text: 'x', [field]: 'x' }), 400, `field ${field}`);
  assertError(t, await api('POST', '/personnel/nobody/history', { key, body: { kind: 'note', text: 'x' } }), 404, 'unknown person');

  for (let i = 0; i < 5; i++) await add({ kind: 'commendation', text: `Lob ${i}` });
  const all = await api('GET', '/personnel/h1/history', { key });
  t.equal(all.body.entries.length, 9, 'hired + 3 + 5');
  t.equal(all.body.nextBefore, null);
  t.equal(all.body.entries[0].text, 'Lob 4', 'newest first');
  t.equal(all.body.entries.at(-1).kind, 'hired');
  const first = await api('GET', '/personnel/h1/history?limit=4', { key });
  t.same(first.body.entries.map((e: any) => e.text), ['Lob 4', 'Lob 3', 'Lob 2', 'Lob 1']);
  t.equal(first.body.nextBefore, first.body.entries[3].id);
  const second = await api('GET', `/personnel/h1/history?limit=4&before=${first.body.nextBefore}`, { key });
  t.same(second.body.entries.map((e: any) => e.text), ['Lob 0', 'w'.repeat(999), 'w'.repeat(1000), 'Erste-Hilfe-Kurs bestanden']);
  const third = await api('GET', `/personnel/h1/history?limit=4&before=${second.body.nextBefore}`, { key });
  t.same(third.body.entries.map((e: any) => e.kind), ['hired']);
  t.equal(third.body.nextBefore, null);
  t.equal((await api('GET', '/personnel/h1/history?limit=200', { key })).status, 200, 'limit 200');
  t.equal((await api('GET', '/personnel/h1/history?limit=1', { key })).body.entries.length, 1, 'limit 1');
  for (const q of ['limit=0', 'limit=201', 'limit=x', 'limit=1.5', 'before=x', 'before=-1', 'other=1']) {
    assertError(t, await api('GET', `/personnel/h1/history?${q}`, { key }), 400, q);
  }
  assertError(t, await api('GET', '/personnel/nobody/history', { key }), 404, 'history of an unknown person');
});

t.test('module personnel switched off: 404', async (t) => {
  await api('PATCH', '/admin/modules', { key, body: { modules: { personnel: false } } });
  assertError(t, await api('GET', '/personnel', { key }), 404, 'list', /module/);
  assertError(t, await api('POST', '/personnel', { key, body: { userId: 'm', nickname: 'M' } }), 404, 'create', /module/);
  await api('PATCH', '/admin/modules', { key, body: { modules: { personnel: true } } });
  t.equal((await api('GET', '/personnel', { key })).status, 200);
});
