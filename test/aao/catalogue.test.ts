import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { auditRows, seedWorld, sessions } from '../units/world.ts';

// AAO (issue 29): the unit type catalogue, units with a type, the keyword catalogue, the status
// catalogue's `available` flag, the onboarding templates, and a keyword's default priority.
const G = '731000000000000001';
const OTHER = '731000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 2, rank: 'leit' },
  { userId: 'setup1', nickname: 'Sami', badge: 3, rank: 'setup' },
]);
await seedWorld(server.sql, OTHER, []);
const key = await unscopedKey(server.sql, G);
const otherKey = await unscopedKey(server.sql, OTHER);
const s = await sessions(server, G, { crew: 'crew1', leit: 'leit1', setup: 'setup1' });
const path = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const must = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

t.test('unit types: create, list in order, respell, change; settings.manage writes, members read', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const rtw = await api('PUT', '/admin/unit-types/RTW', { session: s.setup, body: { label: 'Rettungswagen' } });
  t.equal(rtw.status, 200);
  t.same(rtw.body, { code: 'RTW', label: 'Rettungswagen', position: 1, units: 0 });
  await board.until(() => board.frames.some((f: any) => JSON.stringify(f).includes('"op":"aao"')));
  t.pass('a catalogue edit reaches live boards as the units notice aao');
  await must(api('PUT', '/admin/unit-types/NEF', { key, body: { label: 'Notarzteinsatzfahrzeug' } }));
  await must(api('PUT', '/admin/unit-types/HLF%2020', { key, body: { label: 'Hilfeleistungslöschfahrzeug', position: 0 } }));
  await must(api('PUT', '/admin/unit-types/Fustw', { key, body: {} }));
  const list = await api('GET', '/admin/unit-types', { session: s.crew });
  t.equal(list.status, 200, 'every member reads the catalogue (timeclock.own.use)');
  t.same(list.body.types.map((x: any) => [x.code, x.position]), [['HLF 20', 0], ['RTW', 1], ['NEF', 2], ['Fustw', 3]], 'by position, new ones after the last');
  const respelled = await api('PUT', '/admin/unit-types/FuStW', { key, body: { label: 'Funkstreifenwagen' } });
  t.match(respelled.body, { code: 'FuStW', label: 'Funkstreifenwagen', position: 3 }, 'another case is the same type, respelled');
  const kept = await api('PUT', '/admin/unit-types/rtw', { key, body: { position: 9 } });
  t.match(kept.body, { code: 'rtw', label: 'Rettungswagen', position: 9 }, 'omitted label kept');
  await must(api('PUT', '/admin/unit-types/RTW', { key, body: { position: 1 } }));
  t.equal((await api('GET', '/admin/unit-types', { key })).body.types.length, 4);
  t.match((await auditRows(server.sql, G, 'unit_types.set')).at(-1), { data: { code: 'RTW', previousCode: 'rtw' } });
  t.equal((await api('GET', '/admin/unit-types', { key: otherKey })).body.types.length, 0, 'another guild has its own catalogue');
});

t.test('unit types: rights and hostile input', async (t) => {
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { session: s.leit, body: {} }), 403, 'dispatcher without settings.manage');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { session: s.crew, body: {} }), 403, 'crew');
  assertError(t, await api('DELETE', '/admin/unit-types/NEF', { session: s.crew }), 403, 'crew delete');
  const scoped = await scopedKey(server.sql, G, ['calls:read']);
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key: scoped, body: {} }), 403, 'scoped key');
  assertError(t, await api('GET', '/admin/unit-types', { key: scoped }), 403, 'scoped key read');
  assertError(t, await api('GET', '/admin/unit-types'), 401, 'no credential');
  assertError(t, await api('PUT', `/admin/unit-types/${'X'.repeat(17)}`, { key, body: {} }), 400, 'code too long');
  assertError(t, await api('PUT', '/admin/unit-types/%20RTW', { key, body: {} }), 400, 'leading space');
  assertError(t, await api('PUT', '/admin/unit-types/R%3BT', { key, body: {} }), 400, 'a ; in the code');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key, body: { label: 'x'.repeat(61) } }), 400, 'label too long');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key, body: { label: 'a\u0000b' } }), 400, 'NUL in label');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key, body: { position: -1 } }), 400, 'position');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key, body: { color: '#fff' } }), 400, 'unknown field');
  assertError(t, await api('PUT', '/admin/unit-types/KTW', { key, raw: '[1,2]' }), 400, 'not an object');
  assertError(t, await api('DELETE', '/admin/unit-types/KTW', { key }), 404, 'unknown type');
  t.equal((await api('GET', '/admin/unit-types', { key })).body.types.length, 4, 'nothing was written');
});

t.test('units carry a type: create, change, clear; unknown types 400; boards see it live', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const made = await api('POST', '/units', { session: s.leit, body: { callsign: 'RTW 1', type: 'rtw', orgUnit: 'Wache 1' } });
  t.equal(made.status, 200);
  t.equal(made.body.type, 'RTW', 'the catalogue\'s spelling');
  await board.until(() => (board.state.topics.units!['RTW 1'] as any)?.type === 'RTW');
  t.equal((await api('POST', '/units', { key, body: { callsign: 'Florian 1' } })).body.type, null, 'a type is optional');
  const bad = await api('POST', '/units', { key, body: { callsign: 'X 1', type: 'ITW' } });
  assertError(t, bad, 400, 'a type the catalogue lacks');
  t.match(bad.body, { reason: 'unknown_unit_type', params: { types: 'ITW' } });
  assertError(t, await api('POST', '/units', { key, body: { callsign: 'X 1', type: 'R/T' } }), 400, 'a malformed type');
  assertError(t, await api('POST', '/units', { key, body: { callsign: 'X 1', type: 7 } }), 400, 'a number');
  t.equal((await api('GET', '/units', { key })).body.units.some((u: any) => u.callsign === 'X 1'), false, 'nothing created');

  const changed = await api('PATCH', path('/units/RTW 1'), { key, body: { type: 'NEF' } });
  t.equal(changed.body.type, 'NEF');
  await board.until(() => (board.state.topics.units!['RTW 1'] as any)?.type === 'NEF');
  const cleared = await api('PATCH', path('/units/RTW 1'), { key, body: { type: null } });
  t.equal(cleared.body.type, null, 'null clears it');
  await board.until(() => (board.state.topics.units!['RTW 1'] as any)?.type === null);
  assertError(t, await api('PATCH', path('/units/RTW 1'), { key, body: { type: 'KTW' } }), 400, 'patch to an unknown type');
  await must(api('PATCH', path('/units/RTW 1'), { key, body: { type: 'RTW' } }));
  const listed = (await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'RTW 1');
  t.equal(listed.type, 'RTW');
  t.match((await api('GET', '/admin/unit-types', { key })).body.types.find((x: any) => x.code === 'RTW'), { units: 1 });

  // Respelling a type renames it on its units, live.
  await must(api('PUT', '/admin/unit-types/Rtw', { key, body: {} }));
  await board.until(() => (board.state.topics.units!['RTW 1'] as any)?.type === 'Rtw');
  t.equal((await api('GET', '/units', { key })).body.units.find((u: any) => u.callsign === 'RTW 1').type, 'Rtw');
  await must(api('PUT', '/admin/unit-types/RTW', { key, body: {} }));
  assertError(t, await api('POST', '/units', { key: otherKey, body: { callsign: 'RTW 9', type: 'RTW' } }), 400, 'another guild\'s type is unknown');
});

t.test('keywords: create, list, change, delete; rights and hostile input', async (t) => {
  const made = await api('POST', '/admin/keywords', { session: s.setup, body: { keyword: '  RD   2  NEF ', priority: 1, requirements: [{ type: 'rtw', count: 1 }, { type: 'NEF', count: 1 }] } });
  t.equal(made.status, 200);
  t.match(made.body, { keyword: 'RD 2 NEF', priority: 1, requirements: [{ type: 'RTW', count: 1 }, { type: 'NEF', count: 1 }] });
  t.match(made.body.id, /^\d+$/);
  const id = made.body.id as string;
  const plain = await api('POST', '/admin/keywords', { key, body: { keyword: 'B 2 Wohnung', requirements: [{ type: 'HLF 20', count: 2 }] } });
  t.match(plain.body, { priority: 2 }, 'default priority 2');
  await must(api('POST', '/admin/keywords', { key, body: { keyword: 'Fehlalarm' } }));
  const taken = await api('POST', '/admin/keywords', { key, body: { keyword: 'rd 2 nef' } });
  assertError(t, taken, 409, 'the same keyword in another case');
  t.match(taken.body, { reason: 'name_taken', params: { name: 'rd 2 nef' } });
  const list = await api('GET', '/admin/keywords', { session: s.crew });
  t.equal(list.status, 200);
  t.same(list.body.keywords.map((k: any) => k.keyword), ['B 2 Wohnung', 'Fehlalarm', 'RD 2 NEF'], 'alphabetical');

  const unknown = await api('POST', '/admin/keywords', { key, body: { keyword: 'RD 3', requirements: [{ type: 'ITW', count: 1 }, { type: 'KTW', count: 1 }] } });
  assertError(t, unknown, 400, 'unknown types');
  t.match(unknown.body, { reason: 'unknown_unit_type', params: { types: 'ITW, KTW' } });
  for (const [body, what] of [
    [{ keyword: '' }, 'empty keyword'], [{ keyword: '   ' }, 'blank keyword'], [{ keyword: 'x'.repeat(121) }, 'keyword too long'],
    [{ keyword: 'A', priority: 4 }, 'priority 4'], [{ keyword: 'A', priority: '1' }, 'priority as string'],
    [{ keyword: 'A', requirements: [{ type: 'RTW', count: 0 }] }, 'count 0'], [{ keyword: 'A', requirements: [{ type: 'RTW', count: 1.5 }] }, 'count 1.5'],
    [{ keyword: 'A', requirements: [{ type: 'RTW', count: 1 }, { type: 'rtw', count: 1 }] }, 'a type twice'],
    [{ keyword: 'A', requirements: [{ type: 'RTW', count: 15 }, { type: 'NEF', count: 6 }] }, 'more than 20 units'],
    [{ keyword: 'A', requirements: Array.from({ length: 11 }, (_, i) => ({ type: `T${i}`, count: 1 })) }, '11 rows'],
    [{ keyword: 'A', requirements: [{ type: 'RTW' }] }, 'no count'], [{ keyword: 'A', requirements: [{ type: 'RTW', count: 1, extra: 1 }] }, 'extra field in a row'],
    [{ keyword: 'A', requirements: 'RTW' }, 'requirements a string'], [{ keyword: 'A', id: '5' }, 'server-owned id'], [{ keyword: 'A\u0000' }, 'NUL'],
  ] as const) assertError(t, await api('POST', '/admin/keywords', { key, body }), 400, what);

  assertError(t, await api('POST', '/admin/keywords', { session: s.leit, body: { keyword: 'X' } }), 403, 'dispatcher without settings.manage');
  assertError(t, await api('PATCH', `/admin/keywords/${id}`, { session: s.crew, body: { priority: 3 } }), 403, 'crew');
  assertError(t, await api('DELETE', `/admin/keywords/${id}`, { key: await scopedKey(server.sql, G, ['calls:call.report']) }), 403, 'scoped key');

  const patched = await api('PATCH', `/admin/keywords/${id}`, { key, body: { priority: 2, requirements: [{ type: 'NEF', count: 1 }, { type: 'RTW', count: 2 }] } });
  t.match(patched.body, { keyword: 'RD 2 NEF', priority: 2, requirements: [{ type: 'NEF', count: 1 }, { type: 'RTW', count: 2 }] });
  t.match((await api('PATCH', `/admin/keywords/${id}`, { key, body: { keyword: 'rd 2 NEF' } })).body, { keyword: 'rd 2 NEF' }, 'its own text in another case');
  assertError(t, await api('PATCH', `/admin/keywords/${id}`, { key, body: { keyword: 'fehlalarm' } }), 409, 'another keyword\'s text');
  assertError(t, await api('PATCH', `/admin/keywords/${id}`, { key, body: {} }), 400, 'nothing to change');
  assertError(t, await api('PATCH', '/admin/keywords/abc', { key, body: { priority: 1 } }), 400, 'id not digits');
  assertError(t, await api('PATCH', '/admin/keywords/99999999', { key, body: { priority: 1 } }), 404, 'unknown id');
  assertError(t, await api('PATCH', `/admin/keywords/${id}`, { key: otherKey, body: { priority: 1 } }), 404, 'another guild\'s keyword');
  assertError(t, await api('DELETE', `/admin/keywords/${id}`, { key: otherKey }), 404, 'another guild deletes');
  await must(api('PATCH', `/admin/keywords/${id}`, { key, body: { keyword: 'RD 2 NEF' } }));

  const inUse = await api('DELETE', '/admin/unit-types/NEF', { key });
  assertError(t, inUse, 409, 'a type a keyword asks for');
  t.match(inUse.body, { reason: 'unit_type_in_use', params: { type: 'NEF', keywords: 'RD 2 NEF' } });
  const unitUse = await api('DELETE', '/admin/unit-types/rtw', { key });
  t.match(unitUse.body, { reason: 'unit_type_in_use', params: { type: 'RTW', units: 'RTW 1', keywords: 'RD 2 NEF' } });
  await must(api('PUT', '/admin/unit-types/KTW', { key, body: {} }));
  t.same((await api('DELETE', '/admin/unit-types/ktw', { key })).body, { deleted: true, code: 'KTW' });

  const gone = await api('DELETE', '/admin/keywords/' + plain.body.id, { key });
  t.same(gone.body, { deleted: true, id: plain.body.id, keyword: 'B 2 Wohnung' });
  assertError(t, await api('DELETE', '/admin/keywords/' + plain.body.id, { key }), 404, 'deleted twice');
  t.same((await auditRows(server.sql, G, 'aao.keyword_create')).map((r: any) => r.data.keyword), ['RD 2 NEF', 'B 2 Wohnung', 'Fehlalarm']);
  t.equal((await auditRows(server.sql, G, 'aao.keyword_delete')).length, 1);
  t.equal((await api('GET', '/admin/keywords', { key: otherKey })).body.keywords.length, 0);
});

t.test('the status catalogue: FMS 1 and 2 are available, the flag is editable', async (t) => {
  const { statuses } = (await api('GET', '/admin/statuses', { key })).body;
  t.same(statuses.filter((x: any) => x.available).map((x: any) => x.code), ['1', '2']);
  const put = await api('PUT', '/admin/statuses/8', { key, body: { label: 'Am Zielort', color: '#00838f', alarm: false, available: true } });
  t.match(put.body, { code: '8', available: true });
  t.match((await api('PUT', '/admin/statuses/8', { key, body: { label: 'Am Zielort', color: '#00838f', alarm: false } })).body, { available: true }, 'omitted keeps it');
  t.match((await api('PUT', '/admin/statuses/X', { key, body: { label: 'Neu', color: '#00838f', alarm: false } })).body, { available: false }, 'a new status is not available');
  assertError(t, await api('PUT', '/admin/statuses/8', { key, body: { label: 'x', color: '#00838f', alarm: false, available: 1 } }), 400, 'available must be boolean');
  await must(api('PUT', '/admin/statuses/8', { key, body: { label: 'Am Zielort', color: '#00838f', alarm: false, available: false } }));
});

t.test('a new sheet takes its keyword\'s default priority unless one is given', async (t) => {
  await must(api('POST', '/admin/keywords', { key, body: { keyword: 'TH VU eingeklemmt', priority: 1 } }));
  t.equal((await api('POST', '/incidents', { key, body: { keyword: 'th vu  eingeklemmt' } })).body.priority, 1, 'exact match, any case and spacing');
  t.equal((await api('POST', '/incidents', { key, body: { keyword: 'TH VU eingeklemmt - A7' } })).body.priority, 1, 'the keyword and more');
  t.equal((await api('POST', '/incidents', { key, body: { keyword: 'TH VU eingeklemmt', priority: 3 } })).body.priority, 3, 'a given priority wins');
  t.equal((await api('POST', '/incidents', { key, body: { keyword: 'TH VU eingeklemmtX' } })).body.priority, 2, 'no word boundary, no match');
});

t.test('onboarding: both templates seed types and keywords, and their units are typed', async (t) => {
  for (const [guildId, template, unit, type, keyword] of [
    ['731000000000000011', 'feuerwehr-rettungsdienst', 'Florian Muster 1/82-1', 'NEF', 'RD 2 NEF'],
    ['731000000000000012', 'polizei', 'Funkstreife 11/1', 'FuStW', 'VU mit Personenschaden'],
  ] as const) {
    await insertGuild(server.sql, guildId, `Guild ${guildId}`);
    await insertPerson(server.sql, guildId, { userId: `${guildId}-admin`, nickname: 'Ada', badge: '01', rankId: null, isAdmin: true });
    const admin = await signIn(server, guildId, `${guildId}-admin`);
    const seedable = await api('GET', `/onboarding/${guildId}/seedable`, { session: admin });
    const area = seedable.body.areas.find((a: any) => a.area === 'aao');
    t.match(area, { empty: true, title: { de: /Alarm- und Ausrückeordnung/ } }, `${template}: the aao area is empty`);
    t.ok(area.templates[template].items.some((i: string) => i.includes(keyword)), `${template}: the plan names ${keyword}`);
    const seeded = await api('POST', `/onboarding/${guildId}/seed`, { session: admin, body: { template } });
    t.equal(seeded.status, 200);
    t.ok(seeded.body.areas.aao.created > 5, `${template}: types and keywords created`);
    const k = await unscopedKey(server.sql, guildId);
    const types = (await api('GET', '/admin/unit-types', { key: k })).body.types.map((x: any) => x.code);
    t.ok(types.includes(type), `${template}: type ${type}`);
    const kw = (await api('GET', '/admin/keywords', { key: k })).body.keywords.find((x: any) => x.keyword === keyword);
    t.ok(kw && kw.requirements.length > 0, `${template}: keyword ${keyword} with requirements`);
    const units = (await api('GET', '/units', { key: k })).body.units;
    t.equal(units.find((u: any) => u.callsign === unit).type, type, `${template}: ${unit} is a ${type}`);
    t.ok(units.every((u: any) => u.type !== null), `${template}: every unit is typed`);
    const again = await api('GET', `/onboarding/${guildId}/seedable`, { session: admin });
    t.equal(again.body.areas.find((a: any) => a.area === 'aao').empty, false);
  }
});
