import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { buildProposal, orderCandidates, type Candidate } from '../../server/domains/aao/rank.ts';
import { seedWorld, sessions } from '../units/world.ts';

// AAO proposals (issue 29): GET /incidents/{number}/proposal proposes available units of the
// types the matched keyword needs, names what is missing, and one POST .../alarm alarms it.
const G = '732000000000000001';
const OTHER = '732000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 2, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 3, rank: 'viewer' },
]);
await seedWorld(server.sql, OTHER, []);
const key = await unscopedKey(server.sql, G);
const otherKey = await unscopedKey(server.sql, OTHER);
const s = await sessions(server, G, { crew: 'crew1', leit: 'leit1', viewer: 'view1' });
const enc = (c: string) => encodeURIComponent(c);
const must = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
for (const [code, label] of [['RTW', 'Rettungswagen'], ['NEF', 'Notarzteinsatzfahrzeug'], ['HLF', 'Hilfeleistungslöschfahrzeug'], ['DLK', 'Drehleiter']]) {
  await must(api('PUT', `/admin/unit-types/${code}`, { key, body: { label } }));
}
// Station order is natural: Wache 1, Wache 2, Wache 10; a unit without station comes last.
for (const [callsign, type, orgUnit] of [
  ['RTW 10-1', 'RTW', 'Wache 10'], ['RTW 2-1', 'RTW', 'Wache 2'], ['RTW 1-1', 'RTW', 'Wache 1'], ['RTW 0', 'RTW', ''],
  ['NEF 2-1', 'NEF', 'Wache 2'], ['HLF 1-1', 'HLF', 'Wache 1'], ['HLF 2-1', 'HLF', 'Wache 2'], ['KdoW', null, 'Wache 1'],
] as const) await must(api('POST', '/units', { key, body: { callsign, type, orgUnit } }));
await must(api('POST', '/admin/keywords', { key, body: { keyword: 'RD 2 NEF', priority: 1, requirements: [{ type: 'RTW', count: 1 }, { type: 'NEF', count: 1 }] } }));
await must(api('POST', '/admin/keywords', { key, body: { keyword: 'B 3', priority: 1, requirements: [{ type: 'HLF', count: 2 }, { type: 'DLK', count: 1 }, { type: 'RTW', count: 1 }] } }));
await must(api('POST', '/admin/keywords', { key, body: { keyword: 'MANV', priority: 1, requirements: [{ type: 'RTW', count: 5 }, { type: 'NEF', count: 2 }] } }));

const sheet = async (keyword: string, location?: unknown) => (await must(api('POST', '/incidents', { key, body: { keyword, ...(location ? { location } : {}) } }))).number as number;
const proposal = async (n: number, as: { key?: string; session?: { cookie: string; guildId: string } } = { key }) => api('GET', `/incidents/${n}/proposal`, as);
const status = (callsign: string, code: string) => must(api('PUT', `/units/${enc(callsign)}/status`, { key, body: { status: code } }));

t.test('a matching sheet: the keyword, its priority, the nearest-by-station units, nothing missing', async (t) => {
  const n = await sheet('RD 2 NEF - Sturz aus Höhe', { street: 'Hafenstraße 3' });
  const res = await proposal(n, { session: s.viewer });
  t.equal(res.status, 200, 'dispatch.view reads it');
  t.match(res.body, { number: n, keyword: 'RD 2 NEF - Sturz aus Höhe', matched: { keyword: 'RD 2 NEF', priority: 1 }, priority: 1, missing: [] });
  t.same(res.body.requirements, [
    { type: 'RTW', label: 'Rettungswagen', count: 1, onSheet: [], proposed: ['RTW 1-1'], missing: 0 },
    { type: 'NEF', label: 'Notarzteinsatzfahrzeug', count: 1, onSheet: [], proposed: ['NEF 2-1'], missing: 0 },
  ]);
  t.same(res.body.units.map((u: any) => [u.callsign, u.proposed]), [['RTW 1-1', true], ['NEF 2-1', true], ['RTW 2-1', false], ['RTW 10-1', false], ['RTW 0', false]],
    'the proposal, then the other available units of the required types in station order (Wache 1, 2, 10, none)');
  t.match(res.body.units[0], { label: '', type: 'RTW', orgUnit: 'Wache 1', status: '2', crew: 0, distance: null });
});

t.test('missing types are named; unavailable statuses and units on other sheets are left out', async (t) => {
  const fire = await sheet('B 3');
  let p = (await proposal(fire)).body;
  t.same(p.requirements.map((r: any) => [r.type, r.proposed, r.missing]), [['HLF', ['HLF 1-1', 'HLF 2-1'], 0], ['DLK', [], 1], ['RTW', ['RTW 1-1'], 0]]);
  t.same(p.missing, [{ type: 'DLK', label: 'Drehleiter', count: 1 }], 'DLK fehlt');

  await status('RTW 1-1', '6');
  await status('HLF 2-1', '4');
  p = (await proposal(fire)).body;
  t.same(p.requirements.map((r: any) => [r.type, r.proposed, r.missing]), [['HLF', ['HLF 1-1'], 1], ['DLK', [], 1], ['RTW', ['RTW 2-1'], 0]], 'status 6 and 4 are not available');
  t.same(p.missing.map((m: any) => [m.type, m.count]), [['HLF', 1], ['DLK', 1]]);
  t.notOk(p.units.some((u: any) => u.callsign === 'RTW 1-1' || u.callsign === 'HLF 2-1'), 'nor offered to swap in');

  const other = await sheet('RD 1 Sturz');
  await must(api('PUT', `/incidents/${other}/units/${enc('RTW 2-1')}`, { key }));
  p = (await proposal(fire)).body;
  t.same(p.requirements.find((r: any) => r.type === 'RTW').proposed, ['RTW 10-1'], 'a unit on another open sheet is left out');
  t.notOk(p.units.some((u: any) => u.callsign === 'RTW 2-1'));
  await must(api('POST', `/incidents/${other}/close`, { key, body: {} }));
  t.same((await proposal(fire)).body.requirements.find((r: any) => r.type === 'RTW').proposed, ['RTW 2-1'], 'free again once that sheet is closed');

  // The catalogue decides what is available: status 4 counts once flagged.
  await must(api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false, available: true } }));
  t.same((await proposal(fire)).body.requirements[0].proposed, ['HLF 1-1', 'HLF 2-1']);
  await must(api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false, available: false } }));
  await status('RTW 1-1', '2');
  await status('HLF 2-1', '1');
});

t.test('counts beyond the available units; units on the sheet count; one alarm sends the proposal', async (t) => {
  const manv = await sheet('MANV');
  let p = (await proposal(manv, { session: s.leit })).body;
  t.same(p.requirements.map((r: any) => [r.type, r.proposed.length, r.missing]), [['RTW', 4, 1], ['NEF', 1, 1]]);
  t.same(p.missing.map((m: any) => `${m.count}× ${m.type}`), ['1× RTW', '1× NEF']);

  const callsigns = p.units.filter((u: any) => u.proposed).map((u: any) => u.callsign);
  const alarmed = await api('POST', `/incidents/${manv}/alarm`, { session: s.leit, body: { callsigns } });
  t.equal(alarmed.status, 200, 'one click alarms the proposal');
  t.same(alarmed.body.units.map((u: any) => u.callsign).sort(), [...callsigns].sort());
  const units = (await api('GET', '/units', { key })).body.units;
  t.ok(callsigns.every((c: string) => units.find((u: any) => u.callsign === c).status === 'A'), 'every proposed unit is alarmed');

  p = (await proposal(manv)).body;
  t.same(p.requirements.map((r: any) => [r.type, r.onSheet.length, r.proposed, r.missing]), [['RTW', 4, [], 1], ['NEF', 1, [], 1]], 'the alarmed units count; still missing one of each');
  const rd = await sheet('RD 2 NEF');
  const q = (await proposal(rd)).body;
  t.same(q.requirements.map((r: any) => [r.type, r.proposed, r.missing]), [['RTW', [], 1], ['NEF', [], 1]], 'units alarmed elsewhere are not proposed (RTW fehlt, NEF fehlt)');
  await must(api('POST', `/incidents/${manv}/close`, { key, body: {} }));
  for (const c of callsigns) await status(c, '2');
});

t.test('occupied units come first', async (t) => {
  await must(api('POST', '/admin/clock-in', { key, body: { badge: 1 } }));
  await must(api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW 10-1' } }));
  const n = await sheet('RD 2 NEF');
  const p = (await proposal(n)).body;
  t.same(p.requirements[0].proposed, ['RTW 10-1'], 'the occupied RTW before the empty ones nearer in station order');
  t.match(p.units[0], { callsign: 'RTW 10-1', crew: 1 });
  await must(api('DELETE', '/me/unit', { session: s.crew }));
});

t.test('no match, a sheet without keyword requirements, closed and unknown sheets, rights', async (t) => {
  const none = await sheet('Katze auf Baum');
  t.same((await proposal(none)).body, { number: none, keyword: 'Katze auf Baum', matched: null, priority: null, requirements: [], units: [], missing: [] });
  t.equal((await proposal(await sheet('RD 22'))).body.matched, null, '"RD 2" is no keyword; "RD 22" does not match "RD 2 NEF"');
  const closed = await sheet('RD 2 NEF');
  await must(api('POST', `/incidents/${closed}/close`, { key, body: {} }));
  const c = await proposal(closed);
  assertError(t, c, 409, 'closed');
  t.match(c.body, { reason: 'incident_closed' });
  assertError(t, await proposal(99999), 404, 'unknown sheet');
  assertError(t, await api('GET', '/incidents/abc/proposal', { key }), 400, 'number not a number');
  assertError(t, await api('GET', '/incidents/0/proposal', { key }), 400, 'number 0');
  assertError(t, await proposal(none, { session: s.crew }), 403, 'crew without dispatch.view');
  assertError(t, await proposal(none, { key: await scopedKey(server.sql, G, ['calls:read']) }), 403, 'scoped key');
  assertError(t, await proposal(none, { key: otherKey }), 404, 'another guild has no such sheet');
  await must(api('PATCH', '/admin/modules', { key, body: { modules: { incidents: false } } }));
  assertError(t, await proposal(none), 404, 'module incidents off');
  await must(api('PATCH', '/admin/modules', { key, body: { modules: { incidents: true } } }));
});

// Units have no stored position yet (issue 31 adds one): the order with positions is tested on the
// pure function the route uses.
const unit = (callsign: string, orgUnit: string, position: { x: number; y: number } | null, crew = 1, type = 'RTW'): Candidate =>
  ({ callsign, label: '', type, orgUnit, status: '2', crew, onSheet: false, available: true, position });

t.test('with positions: nearest first, units without a position after them, occupied before empty', async (t) => {
  const list = [unit('A', 'Wache 1', { x: 100, y: 0 }), unit('B', 'Wache 2', { x: 10, y: 10 }), unit('C', 'Wache 1', null), unit('D', 'Wache 3', { x: -5, y: 0 }, 0)];
  t.same(orderCandidates(list, { x: 0, y: 0 }).map((c) => c.callsign), ['B', 'A', 'C', 'D']);
  t.same(orderCandidates(list, null).map((c) => c.callsign), ['A', 'C', 'B', 'D'], 'no sheet position: station order');
  const p = buildProposal([{ type: 'RTW', label: 'Rettungswagen', count: 2 }], list, { x: 0, y: 0 });
  t.same(p.requirements[0].proposed, ['B', 'A']);
  t.same(p.units.map((u) => [u.callsign, u.distance, u.proposed]), [['B', 14.1, true], ['A', 100, true], ['C', null, false], ['D', 5, false]]);
});
