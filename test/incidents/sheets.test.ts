import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Incident sheets (Einsatzblätter): create, list, read, edit with a version, units, timeline, close.
const G = '574000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'e1', nickname: 'Emil Einsatz' }]);
await insertRank(server.sql, G, { id: 'sheets', name: 'Einsatzleitung', position: 5, capabilities: ['dispatch.view', 'incidents.manage'] });
await server.sql`update people set rank_id = 'sheets' where guild_id = ${G} and user_id = 'e1'`;
await server.sql`insert into units (guild_id, callsign, label) values (${G}, 'RTW-1', 'Rettungswagen 1'), (${G}, 'NEF-1', 'Notarzt 1'), (${G}, 'HLF 20/1', 'Löschfahrzeug')`;
const key = await unscopedKey(server.sql, G);
const emil = await signIn(server, G, 'e1');

const create = (body: unknown) => api('POST', '/incidents', { key, body });
const audits = async (action: string) => (await server.sql`select data from audit_log where guild_id = ${G} and action = ${action} order by id`).map((r) => r.data);
const count = async () => (await server.sql`select count(*)::int as n from incidents where guild_id = ${G}`)[0].n as number;

t.test('create by hand: the sheet with number, version 1, state open, a created entry', async (t) => {
  const res = await api('POST', '/incidents', { session: emil, body: { keyword: 'Brand Wohnhaus', location: { street: 'Grove St', postal: '1010' }, priority: 1 } });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), ['alarmAckTimeoutS', 'call', 'closedAt', 'createdAt', 'createdBy', 'entries', 'keyword', 'location', 'number', 'priority', 'state', 'units', 'updatedAt', 'version']);
  t.match(res.body, {
    number: 1, keyword: 'Brand Wohnhaus', location: { street: 'Grove St', postal: '1010' }, priority: 1, state: 'open', version: 1,
    call: null, closedAt: null, createdBy: { kind: 'session', id: 'e1', name: 'Emil Einsatz' }, units: [],
    entries: [{ kind: 'created', number: 1, by: { kind: 'session', id: 'e1', name: 'Emil Einsatz' } }],
  });
  t.same(await audits('incident.create'), [{ number: 1 }]);
  const plain = await create({ keyword: 'RD 1' });
  t.match(plain.body, { number: 2, priority: 2, location: null, createdBy: { kind: 'key', name: 'test' } }, 'priority defaults to 2');
});

t.test('create: field rules', async (t) => {
  for (const [body, label] of [[{ keyword: 'k'.repeat(120) }, 'keyword 120'], [{ keyword: 'k', priority: 3 }, 'priority 3'], [{ keyword: 'k', location: 'Ort' }, 'text location'],
    [{ keyword: 'k', location: { x: 1, y: 2 } }, 'coordinates']] as const) {
    t.equal((await create(body)).status, 200, label);
  }
  const before = await count();
  const bad: [unknown, RegExp][] = [
    [{ keyword: 'k'.repeat(121) }, /keyword has at most 120/], [{ keyword: '' }, /keyword must not be empty/], [{ keyword: ' ' }, /blank/],
    [{}, /keyword/], [{ keyword: 3 }, /keyword/], [{ keyword: 'k', priority: 0 }, /priority/], [{ keyword: 'k', priority: 4 }, /priority/],
    [{ keyword: 'k', priority: 1.5 }, /priority/], [{ keyword: 'k', priority: '1' }, /priority/], [{ keyword: 'k', location: { x: 1 } }, /both x and y/],
    [{ keyword: 'k', location: 'l'.repeat(201) }, /at most 200/], [{ keyword: 'k', location: null }, /location/],
    [{ keyword: 'k', number: 50 }, /unknown field number/], [{ keyword: 'k', version: 7 }, /unknown field version/],
    [{ keyword: 'k', state: 'closed' }, /unknown field state/], [{ keyword: 'k', units: ['RTW-1'] }, /unknown field units/],
    [{ keyword: 'k', createdBy: 'x' }, /unknown field createdBy/], [{ keyword: 'k', guildId: 'x' }, /unknown field guildId/],
    [{ keyword: 'k\u0000' }, /NUL/], [{ keyword: 'k\ud800' }, /valid Unicode/], [{ keyword: 'k', location: { street: '\udc00' } }, /valid Unicode/],
  ];
  for (const [body, message] of bad) assertError(t, await create(body), 400, JSON.stringify(body).slice(0, 50), message);
  t.equal(await count(), before, 'nothing created');
});

t.test('numbers are 1, 2, 3 … per guild, also for concurrent creates', async (t) => {
  const before = await count();
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create({ keyword: `Parallel ${i}` })));
  t.same(results.map((r) => r.status), Array(10).fill(200));
  t.same(results.map((r) => r.body.number).sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => before + i + 1));
});

t.test('list: newest first, filter by state, limit 1..500', async (t) => {
  const all = await api('GET', '/incidents', { key });
  t.equal(all.status, 200);
  t.equal(all.body.count, await count());
  t.same(all.body.incidents.map((i: any) => i.number), [...all.body.incidents.map((i: any) => i.number)].sort((a: number, b: number) => b - a), 'newest first');
  t.notOk('entries' in all.body.incidents[0], 'the list leaves out timelines');
  t.equal((await api('GET', '/incidents?limit=1', { key })).body.incidents.length, 1);
  t.equal((await api('GET', '/incidents?limit=500', { key })).body.count, await count());
  t.equal((await api('GET', '/incidents?state=closed', { key })).body.count, 0);
  t.equal((await api('GET', '/incidents?state=open&limit=3', { key })).body.count, 3);
  for (const q of ['limit=0', 'limit=501', 'limit=abc', 'limit=1.5', 'limit=-1', 'limit=', 'state=done', 'state=OPEN', 'page=2', 'state=open&state=closed']) {
    assertError(t, await api('GET', `/incidents?${q}`, { key }), 400, q);
  }
});

t.test('read one: 400 for a bad number, 404 for an unknown one', async (t) => {
  const res = await api('GET', '/incidents/1', { key });
  t.equal(res.status, 200);
  t.match(res.body, { number: 1, keyword: 'Brand Wohnhaus', entries: [{ kind: 'created' }] });
  t.same((await api('GET', '/incidents/01', { key })).body, res.body, '01 is sheet 1');
  for (const bad of ['abc', '0', '-1', '1.5', '1e3', '2147483648', '99999999999']) assertError(t, await api('GET', `/incidents/${bad}`, { key }), 400, bad);
  assertError(t, await api('GET', '/incidents/99999', { key }), 404, 'unknown', /no incident sheet 99999/);
});

t.test('edit with the version you read: bumps by 1; stale is 409', async (t) => {
  const patch = (number: number, body: object) => api('PATCH', `/incidents/${number}`, { key, body });
  const v1 = (await api('GET', '/incidents/2', { key })).body;
  t.equal(v1.version, 1);
  const v2 = await patch(2, { version: 1, keyword: 'RD 2', priority: 1, location: 'Pillbox' });
  t.equal(v2.status, 200);
  t.match(v2.body, { version: 2, keyword: 'RD 2', priority: 1, location: 'Pillbox' });
  t.match(v2.body.entries.at(-1), { kind: 'updated', text: /RD 1 → RD 2/ });
  t.ok(Date.parse(v2.body.updatedAt) >= Date.parse(v1.updatedAt));

  const stale = await patch(2, { version: 1, keyword: 'overwritten' });
  assertError(t, stale, 409, 'stale version', /stale version: incident sheet 2 is at version 2/);
  t.equal((await api('GET', '/incidents/2', { key })).body.keyword, 'RD 2', 'a stale write changes nothing');
  assertError(t, await patch(2, { version: 3, keyword: 'x' }), 409, 'a future version is stale too');

  const v3 = await patch(2, { version: 2, location: null });
  t.match(v3.body, { version: 3, location: null, keyword: 'RD 2' }, 'null clears the location; the rest stays');
  const v4 = await patch(2, { version: 3, location: { x: 5, y: 6, text: 'Dach' } });
  t.same(v4.body.location, { x: 5, y: 6, text: 'Dach' });

  const bad: [object, RegExp][] = [
    [{ keyword: 'x' }, /version/], [{ version: 4 }, /send at least one of keyword, location, priority/], [{ version: 0, keyword: 'x' }, /version/],
    [{ version: 4.5, keyword: 'x' }, /version/], [{ version: '4', keyword: 'x' }, /version/], [{ version: 4, keyword: 'k'.repeat(121) }, /keyword/],
    [{ version: 4, priority: 4 }, /priority/], [{ version: 4, state: 'closed' }, /unknown field state/], [{ version: 4, number: 2 }, /given in the path/],
    [{ version: 4, units: [] }, /unknown field units/], [{ version: 4, location: { x: 1 } }, /both x and y/],
  ];
  for (const [body, message] of bad) assertError(t, await patch(2, body), 400, JSON.stringify(body).slice(0, 40), message);
  assertError(t, await patch(99999, { version: 1, keyword: 'x' }), 404, 'unknown sheet');
  t.equal((await api('GET', '/incidents/2', { key })).body.version, 4, 'refused writes do not bump the version');
  t.equal((await audits('incident.update')).length, 3);
});

t.test('two concurrent edits with the same version: one 200, one 409', async (t) => {
  for (let round = 0; round < 4; round++) {
    const { version } = (await api('GET', '/incidents/3', { key })).body;
    const results = await Promise.all([
      api('PATCH', '/incidents/3', { key, body: { version, keyword: `A${round}` } }),
      api('PATCH', '/incidents/3', { session: emil, body: { version, keyword: `B${round}` } }),
    ]);
    t.same(results.map((r) => r.status).sort(), [200, 409], `round ${round}`);
    t.equal((await api('GET', '/incidents/3', { key })).body.version, version + 1, 'exactly one bump');
  }
});

t.test('assign and release units by callsign of this guild', async (t) => {
  const put = (callsign: string) => api('PUT', `/incidents/1/units/${encodeURIComponent(callsign)}`, { session: emil });
  const del = (callsign: string) => api('DELETE', `/incidents/1/units/${encodeURIComponent(callsign)}`, { session: emil });
  const a = await put('RTW-1');
  t.equal(a.status, 200);
  t.match(a.body.units, [{ callsign: 'RTW-1', label: 'Rettungswagen 1', assignedAt: String }]);
  t.match(a.body.entries.at(-1), { kind: 'unit_assigned', text: /RTW-1/, by: { name: 'Emil Einsatz' } });
  const entries = a.body.entries.length;
  t.equal(a.body.version, 1, 'units do not bump the version');
  const b = await put('HLF 20/1');
  t.same(b.body.units.map((u: any) => u.callsign), ['RTW-1', 'HLF 20/1'], 'in order of assignment; callsigns with spaces and slashes work');
  const again = await put('RTW-1');
  t.equal(again.status, 200, 'assigning again is fine');
  t.equal(again.body.units.length, 2, 'no duplicate');
  t.equal(again.body.entries.length, entries + 1, 'and no new entry');
  assertError(t, await put('RTW-9'), 404, 'unknown callsign', /no unit with callsign RTW-9 in this guild/);
  const lower = await put('rtw-1');
  t.equal(lower.status, 200, 'callsigns match in any case, as units do');
  t.same(lower.body.units.map((u: any) => u.callsign), ['RTW-1', 'HLF 20/1'], 'the same unit, its own spelling');
  t.equal(lower.body.entries.length, entries + 1, 'nothing new');
  t.equal((await put('x'.repeat(24))).status, 404, 'a well-formed callsign of 24 that no unit has');
  assertError(t, await put('x'.repeat(25)), 400, 'callsign 25', /callsign must be 1 to 24 characters/);
  assertError(t, await put(' RTW-1'), 400, 'leading space', /callsign/);
  assertError(t, await put('RTW#1'), 400, 'a character units do not allow', /callsign/);
  assertError(t, await api('PUT', '/incidents/1/units/RTW-1', { key, body: { callsign: 'NEF-1' } }), 400, 'callsign in the body too');
  assertError(t, await api('PUT', '/incidents/1/units/RTW-1', { key, body: { note: 'x' } }), 400, 'unknown body field');
  assertError(t, await api('PUT', '/incidents/99999/units/RTW-1', { key }), 404, 'unknown sheet');
  assertError(t, await api('PUT', '/incidents/1/units/a%00b', { key }), 400, 'NUL in the callsign', /callsign/);

  const r = await del('RTW-1');
  t.equal(r.status, 200);
  t.same(r.body.units.map((u: any) => u.callsign), ['HLF 20/1']);
  t.match(r.body.entries.at(-1), { kind: 'unit_released', text: /RTW-1/ });
  assertError(t, await del('RTW-1'), 404, 'not assigned any more', /not assigned to incident sheet 1/);
  assertError(t, await del('rtw-1'), 404, 'in any case');
  assertError(t, await del('NEF-1'), 404, 'never assigned');
  assertError(t, await del('GHOST'), 404, 'unknown callsign', /no unit with callsign GHOST/);
  t.same(await audits('incident.unit_assign'), [{ number: 1, callsign: 'RTW-1' }, { number: 1, callsign: 'HLF 20/1' }]);
  t.same(await audits('incident.unit_release'), [{ number: 1, callsign: 'RTW-1' }]);

  const listed = (await api('GET', '/incidents', { key })).body.incidents.find((i: any) => i.number === 1);
  t.same(listed.units.map((u: any) => u.callsign), ['HLF 20/1'], 'the list shows assigned units');
});

t.test('a unit deleted from the guild leaves the sheet', async (t) => {
  await server.sql`insert into units (guild_id, callsign) values (${G}, 'TMP-1')`;
  t.equal((await api('PUT', '/incidents/1/units/TMP-1', { key })).status, 200);
  await server.sql`delete from units where guild_id = ${G} and callsign = 'TMP-1'`;
  t.same((await api('GET', '/incidents/1', { key })).body.units.map((u: any) => u.callsign), ['HLF 20/1']);
});

t.test('timeline entries: text 1..1000, written by whoever is signed in', async (t) => {
  const add = (text: unknown, o: { session?: typeof emil } = {}) => api('POST', '/incidents/1/entries', o.session ? { session: o.session, body: { text } } : { key, body: { text } });
  const res = await add('Lage: Vollbrand, zwei Personen vermisst', { session: emil });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), ['at', 'by', 'id', 'kind', 'number', 'text']);
  t.match(res.body, { number: 1, kind: 'note', text: 'Lage: Vollbrand, zwei Personen vermisst', by: { kind: 'session', id: 'e1', name: 'Emil Einsatz' } });
  t.equal((await add('t'.repeat(1000))).status, 200, '1000 characters');
  t.equal((await add('t')).status, 200, '1 character');
  for (const [text, message] of [['t'.repeat(1001), /at most 1000/], ['', /must not be empty/], ['  \n ', /blank/], [5, /text/], [null, /text/], ['a\u0000', /NUL/], ['a\udc00', /valid Unicode/]] as const) {
    assertError(t, await add(text), 400, JSON.stringify(text).slice(0, 20), message);
  }
  assertError(t, await api('POST', '/incidents/1/entries', { key, body: { text: 'x', kind: 'closed' } }), 400, 'kind is server-owned', /unknown field kind/);
  assertError(t, await api('POST', '/incidents/1/entries', { key, body: { text: 'x', at: '2020-01-01' } }), 400, 'at is server-owned', /unknown field at/);
  assertError(t, await api('POST', '/incidents/99999/entries', { key, body: { text: 'x' } }), 404, 'unknown sheet');
  const sheet = (await api('GET', '/incidents/1', { key })).body;
  t.same(sheet.entries.filter((e: any) => e.kind === 'note').map((e: any) => e.text.length), [39, 1000, 1], 'oldest first');
  t.equal(sheet.version, 1, 'entries do not bump the version');
  t.equal((await audits('incident.entry_add')).length, 3);
});

t.test('close: once; afterwards the sheet is read-only', async (t) => {
  assertError(t, await api('POST', '/incidents/1/close', { key, body: { version: 7 } }), 409, 'close with a stale version', /stale version/);
  const res = await api('POST', '/incidents/1/close', { session: emil });
  t.equal(res.status, 200);
  t.match(res.body, { number: 1, state: 'closed', version: 2, closedAt: String });
  t.match(res.body.entries.at(-1), { kind: 'closed', by: { name: 'Emil Einsatz' } });
  t.same(res.body.units.map((u: any) => u.callsign), ['HLF 20/1'], 'the closed sheet still shows its units');
  assertError(t, await api('POST', '/incidents/1/close', { key }), 409, 'close again', /incident sheet 1 is closed/);
  const writes: [string, string, object | undefined][] = [
    ['PATCH', '/incidents/1', { version: 2, keyword: 'x' }], ['PUT', '/incidents/1/units/RTW-1', undefined],
    ['DELETE', '/incidents/1/units/HLF%2020%2F1', undefined], ['POST', '/incidents/1/entries', { text: 'x' }],
  ];
  for (const [method, path, body] of writes) assertError(t, await api(method, path, { key, body }), 409, `${method} ${path} on a closed sheet`, /is closed/);
  const read = await api('GET', '/incidents/1', { key });
  t.equal(read.status, 200, 'still readable');
  t.equal(read.body.version, 2, 'unchanged by refused writes');
  t.equal((await api('GET', '/incidents?state=closed', { key })).body.incidents[0].number, 1);
  t.notOk((await api('GET', '/incidents?state=open', { key })).body.incidents.some((i: any) => i.number === 1));
  assertError(t, await api('POST', '/incidents/99999/close', { key }), 404, 'unknown sheet');
  assertError(t, await api('POST', '/incidents/2/close', { key, body: { state: 'closed' } }), 400, 'unknown field');
  t.same(await audits('incident.close'), [{ number: 1 }]);
});
