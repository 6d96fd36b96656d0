import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { auditRows, seedWorld, sessions, topicsSince } from './world.ts';

const G = '620000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'boss', nickname: 'Boss', badge: 1, admin: true },
  { userId: 'crew1', nickname: 'Cora', badge: 2, rank: 'crew' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'view1', nickname: 'Vera', badge: 4, rank: 'viewer' },
]);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { boss: 'boss', crew: 'crew1', leit: 'leit1', viewer: 'view1' });

t.test('create a unit: it starts in status 2 with no members', async (t) => {
  const e0 = server.events.length;
  const res = await api('POST', '/units', { session: s.leit, body: { callsign: 'RTW-1', label: 'Rettungswagen 1', orgUnit: 'Wache Mitte' } });
  t.equal(res.status, 200);
  t.match(res.body, { callsign: 'RTW-1', label: 'Rettungswagen 1', orgUnit: 'Wache Mitte', status: '2', statusLabel: 'Einsatzbereit auf Wache', alarm: false, members: [] });
  t.ok(Date.parse(res.body.since) > 0);
  t.same(topicsSince(server.events, G, e0), [['overview', 'units']], 'one event: units and overview');
  const minimal = await api('POST', '/units', { key, body: { callsign: 'NEF-1' } });
  t.match(minimal.body, { callsign: 'NEF-1', label: '', orgUnit: '' }, 'label and orgUnit are optional');
  t.match((await auditRows(server.sql, G, 'unit.create'))[0], { actor_kind: 'session', actor_id: 'leit1', data: { callsign: 'RTW-1' } });
});

t.test('callsigns are unique per guild regardless of case', async (t) => {
  for (const callsign of ['RTW-1', 'rtw-1', 'Rtw-1']) {
    assertError(t, await api('POST', '/units', { key, body: { callsign } }), 409, callsign, /already exists/);
  }
  const other = '620000000000000002';
  await seedWorld(server.sql, other, []);
  t.equal((await api('POST', '/units', { key: await unscopedKey(server.sql, other), body: { callsign: 'RTW-1' } })).status, 200, 'another guild may use the same callsign');
  const list = await api('GET', '/units', { key });
  t.same(list.body.units.map((u: any) => u.callsign), ['NEF-1', 'RTW-1'], 'and it does not show up here');
});

t.test('field rules of POST /units at their boundaries', async (t) => {
  const ok = async (body: object, label: string) => {
    const res = await api('POST', '/units', { key, body });
    t.equal(res.status, 200, label);
    if (res.status === 200) await api('DELETE', `/units/${encodeURIComponent(res.body.callsign)}`, { key });
  };
  const bad = async (body: unknown, label: string) => assertError(t, await api('POST', '/units', { key, body }), 400, label);
  await ok({ callsign: 'A' }, 'callsign of 1');
  await ok({ callsign: 'A'.repeat(23) }, 'callsign of 23');
  await ok({ callsign: 'A'.repeat(24) }, 'callsign of 24');
  await bad({ callsign: 'A'.repeat(25) }, 'callsign of 25');
  await bad({ callsign: '' }, 'empty callsign');
  await ok({ callsign: 'Florian 1/83-1_a.b' }, 'space . _ / - inside');
  for (const callsign of [' RTW', 'RTW ', 'RTW#1', 'RTW\n1', 'Rtw-ü', 'a\u0000b', 5, null, ['A']]) await bad({ callsign }, `callsign ${JSON.stringify(callsign)}`);
  await bad({}, 'callsign missing');
  await ok({ callsign: 'L', label: 'x'.repeat(59), orgUnit: 'y'.repeat(59) }, 'label and orgUnit of 59');
  await ok({ callsign: 'L', label: 'x'.repeat(60), orgUnit: 'y'.repeat(60) }, 'label and orgUnit of 60');
  await bad({ callsign: 'L', label: 'x'.repeat(61) }, 'label of 61');
  await bad({ callsign: 'L', orgUnit: 'y'.repeat(61) }, 'orgUnit of 61');
  await bad({ callsign: 'L', label: 1 }, 'label not a string');
  for (const text of ['a\u0000b', 'lone \ud800', 'lone \udc00 low']) {
    await bad({ callsign: 'L', label: text }, `label ${JSON.stringify(text)}`);
    await bad({ callsign: 'L', orgUnit: text }, `orgUnit ${JSON.stringify(text)}`);
  }
  await ok({ callsign: 'L', label: 'Rettungswagen 🚑 Süd', orgUnit: '消防' }, 'emoji and any script');
  for (const field of ['status', 'since', 'members', 'id', 'guildId', 'alarm', 'statusLabel']) {
    await bad({ callsign: 'L', [field]: field === 'members' ? [] : '0' }, `server-owned ${field}`);
  }
  for (const raw of ['[]', '"RTW"', '{', 'null']) assertError(t, await api('POST', '/units', { key, raw }), 400, `body ${raw}`);
  assertError(t, await api('POST', '/units', { key }), 400, 'no body');
});

t.test('PATCH /units/{callsign}: label, orgUnit, rename', async (t) => {
  const res = await api('PATCH', '/units/rtw-1', { key, body: { label: 'RTW Eins' } });
  t.equal(res.status, 200, 'the path callsign matches in any case');
  t.match(res.body, { callsign: 'RTW-1', label: 'RTW Eins', orgUnit: 'Wache Mitte' });
  t.match((await api('PATCH', '/units/RTW-1', { key, body: { orgUnit: 'Wache Süd' } })).body, { label: 'RTW Eins', orgUnit: 'Wache Süd' });
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: {} }), 400, 'nothing to change');
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { callsign: 'X' } }), 400, 'callsign repeated in the body');
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { status: '3' } }), 400, 'status is not edited here');
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { label: 'x'.repeat(61) } }), 400, 'label of 61');
  assertError(t, await api('PATCH', '/units/RTW-9', { key, body: { label: 'x' } }), 404, 'unknown unit');
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { newCallsign: 'nef-1' } }), 409, 'rename onto another unit');
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { newCallsign: 'A'.repeat(25) } }), 400, 'new callsign of 25');

  const e0 = server.events.length;
  const renamed = await api('PATCH', '/units/RTW-1', { key, body: { newCallsign: 'RTW-10' } });
  t.equal(renamed.body.callsign, 'RTW-10');
  const [ev] = server.events.slice(e0).filter((e) => e.guildId === G);
  t.same(ev.deltas.units!.map((o) => [o.op, o.key]), [['remove', 'RTW-1'], ['upsert', 'RTW-10']], 'the board key moves');
  assertError(t, await api('GET', '/units/RTW-1', { key }), 404, 'no such route for GET');
  t.same((await api('GET', '/units', { key })).body.units.map((u: any) => u.callsign), ['NEF-1', 'RTW-10']);
  t.equal((await api('PATCH', '/units/RTW-10', { key, body: { newCallsign: 'rtw-10' } })).body.callsign, 'rtw-10', 'a case change of its own callsign');
  await api('PATCH', '/units/rtw-10', { key, body: { newCallsign: 'RTW-1' } });

  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
  await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });
  assertError(t, await api('PATCH', '/units/RTW-1', { key, body: { newCallsign: 'RTW-2' } }), 409, 'no rename while occupied');
  t.equal((await api('PATCH', '/units/RTW-1', { key, body: { label: 'Still fine' } })).status, 200, 'relabel while occupied');
  t.match((await auditRows(server.sql, G, 'unit.update')).at(-1), { data: { callsign: 'RTW-1' } });
});

t.test('DELETE /units/{callsign}: refused while occupied', async (t) => {
  assertError(t, await api('DELETE', '/units/RTW-1', { key }), 409, 'occupied', /occupied/);
  await api('DELETE', '/me/unit', { session: s.crew });
  const e0 = server.events.length;
  t.same((await api('DELETE', '/units/rtw-1', { key })).body, { deleted: true, callsign: 'RTW-1' });
  t.same(topicsSince(server.events, G, e0), [['overview', 'units']]);
  assertError(t, await api('DELETE', '/units/RTW-1', { key }), 404, 'gone');
  assertError(t, await api('DELETE', '/units/RTW-1', { key, body: { x: 1 } }), 404, 'a DELETE body is ignored');
  assertError(t, await api('DELETE', '/units/bad%23sign', { key }), 400, 'malformed callsign');
  t.match((await auditRows(server.sql, G, 'unit.delete')).at(-1), { data: { callsign: 'RTW-1' } });
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
});

t.test('GET /units: status label, alarm flag and members', async (t) => {
  await api('POST', '/units', { key, body: { callsign: 'RTW-1', label: 'R1' } });
  await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
  await api('POST', '/admin/clock-in', { key, body: { badge: 3 } });
  await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });
  await api('PUT', '/me/unit', { session: s.leit, body: { callsign: 'RTW-1' } });
  await api('PUT', '/units/RTW-1/status', { key, body: { status: '0' } });
  const res = await api('GET', '/units', { session: s.viewer });
  t.equal(res.status, 200);
  const rtw = res.body.units.find((u: any) => u.callsign === 'RTW-1');
  t.match(rtw, { status: '0', statusLabel: 'Notruf/priorisierter Sprechwunsch', alarm: true });
  t.same(rtw.members.map((m: any) => [m.userId, m.nickname]), [['crew1', 'Cora'], ['leit1', 'Lena']], 'members in the order they joined');
  t.ok(rtw.members.every((m: any) => Date.parse(m.since) > 0));
  t.same(Object.keys(rtw).sort(), ['alarm', 'callsign', 'label', 'members', 'note', 'orgUnit', 'position', 'since', 'status', 'statusLabel', 'type']);
  t.equal(rtw.position, null, 'no position until the game sends one');
  assertError(t, await api('GET', '/units?status=0', { key }), 400, 'no query parameters');
  await api('PUT', '/units/RTW-1/status', { key, body: { status: '2' } });
  await api('POST', '/admin/clock-out', { key, body: { badge: 2 } });
  await api('POST', '/admin/clock-out', { key, body: { badge: 3 } });
});

t.test('access: dispatch.view reads, units.manage writes, scoped keys only read with the position scope', async (t) => {
  assertError(t, await api('GET', '/units', { session: s.crew }), 403, 'crew lacks dispatch.view', /dispatch\.view/);
  assertError(t, await api('POST', '/units', { session: s.viewer, body: { callsign: 'V' } }), 403, 'viewer lacks units.manage', /units\.manage/);
  assertError(t, await api('PATCH', '/units/RTW-1', { session: s.crew, body: { label: 'x' } }), 403, 'crew patch');
  assertError(t, await api('DELETE', '/units/RTW-1', { session: s.viewer }), 403, 'viewer delete');
  t.equal((await api('POST', '/units', { session: s.boss, body: { callsign: 'BOSS-1' } })).status, 200, 'admin session');
  for (const scope of specScopes) {
    const k = await scopedKey(server.sql, G, [scope]);
    // A game resource that sends positions reads the crews (which player is in which unit).
    if (scope === 'units:unit.ingame_position') t.equal((await api('GET', '/units', { key: k })).status, 200, `GET with scope ${scope}`);
    else assertError(t, await api('GET', '/units', { key: k }), 403, `GET with scope ${scope}`);
    assertError(t, await api('POST', '/units', { key: k, body: { callsign: 'S' } }), 403, `POST with scope ${scope}`);
    assertError(t, await api('DELETE', '/units/BOSS-1', { key: k }), 403, `DELETE with scope ${scope}`);
  }
  assertError(t, await api('GET', '/units'), 401, 'no credential');
  assertError(t, await api('POST', '/units', { key: 'stmp_nope', body: { callsign: 'S' } }), 401, 'bad key');
});

t.test('the dispatch module switched off: every unit route answers 404', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: false } } })).status, 200);
  for (const [method, path, body] of [['GET', '/units'], ['POST', '/units', { callsign: 'OFF' }], ['PATCH', '/units/BOSS-1', { label: 'x' }],
    ['DELETE', '/units/BOSS-1'], ['GET', '/admin/statuses'], ['PUT', '/units/BOSS-1/status', { status: '3' }]] as const) {
    assertError(t, await api(method, path, { key, body }), 404, `${method} ${path}`, /module/);
  }
  t.equal((await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: true } } })).status, 200);
  t.equal((await api('GET', '/units', { key })).status, 200, 'on again');
});
