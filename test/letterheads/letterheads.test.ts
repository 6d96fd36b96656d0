import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { GUILD, OTHER, insertUpload, letterheadWorld, solidPng } from './world.ts';

// Letterheads through the real server: what is stored and answered, the rules of each write, the
// audit rows and the `letterheads` events, and that another guild can neither see nor change them.
const { server, who, api } = await letterheadWorld(t);
const key = { key: who.key };
const list = async () => (await api('GET', '/letterheads', key)).body.letterheads as any[];
const audits = async (action: string) =>
  (await server.sql`select actor_kind, data from audit_log where guild_id = ${GUILD} and action = ${action} order by id`).map((r) => ({ ...r }));
/** The `letterheads` ops GUILD's events carried since `from` (an index into server.events). */
const ops = (from: number) => server.events.slice(from).filter((e) => e.guildId === GUILD).flatMap((e) => e.deltas.letterheads ?? []);
const settle = () => new Promise((r) => setTimeout(r, 50)); // events are published right after COMMIT

t.test('POST creates at the end with defaults and normalised colours; audit and event', async (t) => {
  const before = server.events.length;
  const a = await api('POST', '/letterheads', { session: who.admin, body: { name: '  Standard  ' } });
  t.equal(a.status, 200);
  t.match(a.body, {
    name: 'Standard', organisation: '', addressLines: [], logoUploadId: null, logoUrl: null,
    primaryColor: '#c0392b', secondaryColor: '#2c3e50', footer: '', position: 0, version: 1,
  });
  t.match(a.body.previewUrl, new RegExp(`^/api/v1/letterheads/${a.body.id}/preview\\.png\\?guild=${GUILD}&v=1-0$`));
  const b = await api('POST', '/letterheads', { ...key, body: {
    name: 'Rettungsdienst', organisation: 'Feuerwehr Musterstadt', addressLines: ['Am Brandplatz 1', '12345 Musterstadt'],
    primaryColor: '#1B5E20', secondaryColor: '#ABCDEF', footer: 'Sitz: Musterstadt\nIBAN DE00',
  } });
  t.equal(b.status, 200);
  t.match(b.body, { position: 1, primaryColor: '#1b5e20', secondaryColor: '#abcdef', addressLines: ['Am Brandplatz 1', '12345 Musterstadt'], footer: 'Sitz: Musterstadt\nIBAN DE00' });
  t.same((await list()).map((l) => [l.name, l.position]), [['Standard', 0], ['Rettungsdienst', 1]], 'GET lists them in order');
  t.same((await list())[1], JSON.parse(JSON.stringify(b.body)), 'GET shows what POST answered');
  t.match(await audits('letterhead.create'), [{ actor_kind: 'session', data: { id: a.body.id, name: 'Standard' } }, { actor_kind: 'key', data: { name: 'Rettungsdienst' } }]);
  await settle();
  t.match(ops(before), [{ op: 'upsert', key: String(a.body.id), value: { name: 'Standard' } }, { op: 'upsert', key: String(b.body.id), value: { name: 'Rettungsdienst' } }]);

  assertError(t, await api('POST', '/letterheads', { ...key, body: { name: 'Standard' } }), 409, 'a taken name', /"Standard" exists already/);
  t.equal((await list()).length, 2, 'nothing was added');
});

t.test('POST and PATCH refuse bad fields with a 400 naming them', async (t) => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /name/], [{ name: '' }, /name must not be empty/], [{ name: '   ' }, /name must not be empty/],
    [{ name: 'x'.repeat(81) }, /name has at most 80/], [{ name: 'a\nb' }, /name must be one line/],
    [{ name: 'nul\u0000' }, /NUL/], [{ name: 'ok', organisation: 'o'.repeat(121) }, /organisation has at most 120/],
    [{ name: 'ok', addressLines: Array(7).fill('Zeile') }, /addressLines has at most 6/],
    [{ name: 'ok', addressLines: ['a'.repeat(121)] }, /address line has at most 120/], [{ name: 'ok', addressLines: [''] }, /address line must not be empty/],
    [{ name: 'ok', addressLines: 'Am Brandplatz' }, /addressLines must be a list/],
    [{ name: 'ok', primaryColor: 'red' }, /primaryColor must be a colour #rrggbb/], [{ name: 'ok', secondaryColor: '#12345' }, /secondaryColor/],
    [{ name: 'ok', footer: 'f'.repeat(501) }, /footer has at most 500/], [{ name: 'ok', footer: 'a\nb\nc\nd\ne' }, /footer has at most 4 lines/],
    [{ name: 'ok', logoUploadId: 'abc' }, /logoUploadId/], [{ name: 'ok', position: 3 }, /position/], [{ name: 'ok', version: 1 }, /version/],
  ];
  for (const [body, message] of bad) assertError(t, await api('POST', '/letterheads', { ...key, body }), 400, JSON.stringify(body).slice(0, 60), message);
  const [first] = await list();
  assertError(t, await api('PATCH', `/letterheads/${first.id}`, { ...key, body: { name: 'x' } }), 400, 'PATCH without version', /version/);
  assertError(t, await api('PATCH', `/letterheads/${first.id}`, { ...key, body: { version: first.version, primaryColor: '#zzzzzz' } }), 400, 'PATCH bad colour', /primaryColor/);
  assertError(t, await api('PATCH', `/letterheads/${first.id}`, { ...key, body: { version: first.version } }), 400, 'PATCH with nothing to change', /nothing to change/);
  assertError(t, await api('PATCH', '/letterheads/abc', { ...key, body: { version: 1 } }), 400, 'a bad id', /id must be a string of digits/);
  t.equal((await list()).length, 2, 'nothing was added');
});

t.test('the logo: an upload of this guild; another guild\'s or an unknown one is a 400; null clears it', async (t) => {
  const own = await insertUpload(server.sql, GUILD, solidPng('#ff00ff'));
  const foreign = await insertUpload(server.sql, OTHER, solidPng('#00ffff'));
  assertError(t, await api('POST', '/letterheads', { ...key, body: { name: 'Fremd', logoUploadId: foreign } }), 400, 'another guild\'s upload', /logo \d+ is not an upload of this guild/);
  assertError(t, await api('POST', '/letterheads', { ...key, body: { name: 'Fremd', logoUploadId: 987654 } }), 400, 'an unknown upload', /logo 987654 is not an upload of this guild/);
  const made = await api('POST', '/letterheads', { ...key, body: { name: 'Mit Logo', logoUploadId: own } });
  t.equal(made.status, 200);
  t.match(made.body, { logoUploadId: own, logoUrl: `/api/v1/uploads/${own}?guild=${GUILD}` });
  assertError(t, await api('PATCH', `/letterheads/${made.body.id}`, { ...key, body: { version: 1, logoUploadId: foreign } }), 400, 'PATCH to a foreign upload', /not an upload of this guild/);
  const cleared = await api('PATCH', `/letterheads/${made.body.id}`, { ...key, body: { version: 1, logoUploadId: null } });
  t.equal(cleared.status, 200);
  t.match(cleared.body, { logoUploadId: null, logoUrl: null, version: 2 });
  const again = await api('PATCH', `/letterheads/${made.body.id}`, { ...key, body: { version: 2, logoUploadId: own } });
  t.match(again.body, { logoUploadId: own, version: 3 });
  await server.sql`delete from uploads where guild_id = ${GUILD} and id = ${own}`;
  t.match((await list()).find((l) => l.id === made.body.id), { logoUploadId: null, logoUrl: null }, 'the upload deleted: the logo is gone, the letterhead stays');
  t.equal((await api('DELETE', `/letterheads/${made.body.id}`, key)).status, 200);
});

t.test('PATCH changes the fields sent and bumps the version; stale → 409 naming the current; unknown → 404; taken name → 409', async (t) => {
  const [a, b] = await list();
  const before = server.events.length;
  const res = await api('PATCH', `/letterheads/${b.id}`, { session: who.edit, body: { version: b.version, organisation: 'BF Musterstadt', addressLines: [] } });
  t.equal(res.status, 200);
  t.match(res.body, { id: b.id, name: b.name, organisation: 'BF Musterstadt', addressLines: [], footer: b.footer, version: b.version + 1, position: b.position });
  t.ok(new Date(res.body.updatedAt) >= new Date(b.updatedAt), 'updatedAt moved');
  const stale = await api('PATCH', `/letterheads/${b.id}`, { ...key, body: { version: b.version, footer: 'lost update' } });
  assertError(t, stale, 409, 'the version read before', new RegExp(`version ${b.version} is stale: letterhead ${b.id} is at version ${b.version + 1}`));
  assertError(t, await api('PATCH', `/letterheads/${b.id}`, { ...key, body: { version: b.version + 1, name: a.name } }), 409, 'another\'s name', /exists already/);
  assertError(t, await api('PATCH', '/letterheads/999999', { ...key, body: { version: 1, footer: 'x' } }), 404, 'unknown id', /no letterhead 999999/);
  t.equal((await api('PATCH', `/letterheads/${b.id}`, { ...key, body: { version: b.version + 1, name: b.name } })).status, 200, 'its own name again is no conflict');
  t.match((await list()).find((l) => l.id === b.id), { footer: b.footer, version: b.version + 2 }, 'the stale write changed nothing');
  t.same((await audits('letterhead.update')).filter((r) => r.data.id === b.id), [
    { actor_kind: 'session', data: { id: b.id, name: b.name, version: b.version + 1, fields: ['organisation', 'addressLines'] } },
    { actor_kind: 'key', data: { id: b.id, name: b.name, version: b.version + 2, fields: ['name'] } },
  ], 'one audit row per successful PATCH, none for the refused ones');
  await settle();
  t.match(ops(before), [{ op: 'upsert', key: String(b.id), value: { organisation: 'BF Musterstadt' } }, { op: 'upsert', key: String(b.id) }]);
});

t.test('PUT /letterheads/order: exactly the guild\'s letterheads, each once; positions 0..n-1', async (t) => {
  const c = (await api('POST', '/letterheads', { ...key, body: { name: 'Dritter' } })).body;
  const [a, b] = await list();
  const foreign = (await api('POST', '/letterheads', { key: who.otherKey, body: { name: 'Fremd' } })).body;
  const cases: Array<[unknown[], RegExp]> = [
    [[a.id, b.id], new RegExp(`missing: ${c.id}$`)],
    [[a.id, b.id, c.id, foreign.id], new RegExp(`not letterheads of this guild: ${foreign.id}`)],
    [[a.id, b.id, c.id, 424242], /not letterheads of this guild: 424242/],
    [[a.id, b.id, c.id, a.id], new RegExp(`listed more than once: ${a.id}`)],
    [[a.id, a.id, foreign.id], new RegExp(`listed more than once: ${a.id}; not letterheads of this guild: ${foreign.id}; missing: ${b.id}, ${c.id}`)],
    [[], /missing/], [['x'], /ids.0: each of ids must be a string of digits/], [[1.5], /ids.0: each of ids must be a string of digits/],
  ];
  for (const [ids, message] of cases) assertError(t, await api('PUT', '/letterheads/order', { ...key, body: { ids } }), 400, JSON.stringify(ids), message);
  assertError(t, await api('PUT', '/letterheads/order', { ...key, body: {} }), 400, 'no ids', /ids/);
  const before = server.events.length;
  const res = await api('PUT', '/letterheads/order', { session: who.edit, body: { ids: [c.id, a.id, b.id] } });
  t.equal(res.status, 200);
  t.same(res.body.letterheads.map((l: any) => [l.id, l.position]), [[c.id, 0], [a.id, 1], [b.id, 2]], 'answers the new order');
  t.same((await list()).map((l) => l.id), [c.id, a.id, b.id], 'GET shows it');
  t.match(await audits('letterhead.reorder'), [{ actor_kind: 'session', data: { ids: [c.id, a.id, b.id] } }]);
  await settle();
  t.same(ops(before), [
    { op: 'patch', key: String(a.id), value: { position: 1 } }, { op: 'patch', key: String(b.id), value: { position: 2 } },
    { op: 'patch', key: String(c.id), value: { position: 0 } },
  ].sort((x, y) => (x.value.position - y.value.position)), 'a position patch for each letterhead that moved');
  t.same((await api('GET', '/letterheads', { key: who.otherKey })).body.letterheads.map((l: any) => [l.name, l.position]), [['Fremd', 0]], 'the other guild\'s order is its own');
});

t.test('DELETE removes it; the others keep their order; unknown → 404', async (t) => {
  const [c, a, b] = await list();
  const before = server.events.length;
  const res = await api('DELETE', `/letterheads/${a.id}`, { session: who.delete });
  t.equal(res.status, 200);
  t.same(res.body.deleted, { id: a.id, name: a.name });
  t.same(res.body.letterheads.map((l: any) => [l.id, l.position]), [[c.id, 0], [b.id, 1]]);
  t.same((await list()).map((l) => [l.id, l.position]), [[c.id, 0], [b.id, 1]]);
  assertError(t, await api('DELETE', `/letterheads/${a.id}`, key), 404, 'deleted already', new RegExp(`no letterhead ${a.id}`));
  t.match(await audits('letterhead.delete'), [{}, { actor_kind: 'session', data: { id: a.id, name: a.name } }]);
  await settle();
  t.same(ops(before), [{ op: 'patch', key: String(b.id), value: { position: 1 } }, { op: 'remove', key: String(a.id) }]);
  t.equal((await api('POST', '/letterheads', { ...key, body: { name: a.name } })).body.position, 2, 'its name is free again; new ones go last');
});

t.test('another guild\'s letterhead: not listed, and reads, previews, updates and deletes are 404', async (t) => {
  const [mine] = await list();
  const other = { key: who.otherKey };
  t.notOk((await api('GET', '/letterheads', other)).body.letterheads.some((l: any) => l.id === mine.id));
  assertError(t, await api('PATCH', `/letterheads/${mine.id}`, { ...other, body: { version: mine.version, name: 'Gekapert' } }), 404, 'update');
  assertError(t, await api('DELETE', `/letterheads/${mine.id}`, other), 404, 'delete');
  assertError(t, await api('GET', `/letterheads/${mine.id}/preview.png`, other), 404, 'preview');
  t.same((await list())[0], mine, 'unchanged');
});

t.test('at the same time: creates get distinct positions 0..n-1; two PATCHes of one version, one wins', async (t) => {
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) => api('POST', '/letterheads', { ...key, body: { name: `Gleichzeitig ${i}` } })));
  t.same(results.map((r) => r.status), Array(8).fill(200));
  const all = await list();
  t.same(all.map((l) => l.position), all.map((_, i) => i), 'positions stay contiguous');
  const target = all[0];
  const patches = await Promise.all(['#111111', '#222222'].map((c) => api('PATCH', `/letterheads/${target.id}`, { ...key, body: { version: target.version, primaryColor: c } })));
  t.same(patches.map((r) => r.status).sort(), [200, 409], 'one write wins, the other is told its version is stale');
  const names = await Promise.all([0, 1].map(() => api('POST', '/letterheads', { ...key, body: { name: 'Doppelt' } })));
  t.same(names.map((r) => r.status).sort(), [200, 409], 'the same new name twice at once: one 409');
});
