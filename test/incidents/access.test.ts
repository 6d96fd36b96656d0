import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Who may touch calls and incident sheets: key scopes, rank capabilities, guild isolation, modules.
const A = '575000000000000001';
const B = '575000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [
  { userId: 'aa', nickname: 'Admin A', admin: true },
  { userId: 'view', nickname: 'Viewer' },
  { userId: 'disp', nickname: 'Dispatcher' },
  { userId: 'sheet', nickname: 'Sheet Keeper' },
  { userId: 'crew', nickname: 'Crew', rank: 'crew' },
]);
await seedGuild(server.sql, B, [{ userId: 'bb', nickname: 'Admin B', admin: true }]);
for (const [id, capabilities] of [['view', ['dispatch.view']], ['disp', ['dispatch.view', 'dispatch.manage']], ['sheet', ['dispatch.view', 'incidents.manage']]] as const) {
  await insertRank(server.sql, A, { id, name: id, position: 3, capabilities: [...capabilities] });
  await server.sql`update people set rank_id = ${id} where guild_id = ${A} and user_id = ${id}`;
}
await server.sql`insert into units (guild_id, callsign) values (${A}, 'RTW-A'), (${B}, 'RTW-B')`;
// Everyone of A is on duty: taking a call with a session needs that (their ranks cannot clock in themselves).
await server.sql`insert into shifts (guild_id, user_id) select guild_id, user_id from people where guild_id = ${A}`;
const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);
await api('PUT', '/admin/call-rate-limit', { key: keyA, body: { perMinute: 6000, burst: 1000 } });

let n = 0;
const reportA = async (externalId = `a-${++n}`) => {
  const res = await api('POST', '/integrations/ingame/calls', { key: keyA, body: { externalId, title: 'Meldung A' } });
  if (res.status !== 200) throw new Error(`set-up report failed: ${res.status} ${res.text}`);
  return res.body;
};
const callStatus = async (guildId: string, externalId: string) =>
  (await server.sql`select status, report_count from calls where guild_id = ${guildId} and external_id = ${externalId} order by id`).map((r) => `${r.status}:${r.report_count}`);

// A's sheet 1 (from a taken call, with RTW-A) and an open call, to aim at from elsewhere.
await reportA('a-taken');
await api('POST', '/calls/a-taken/take', { key: keyA });
await api('PUT', '/incidents/1/units/RTW-A', { key: keyA });
await reportA('a-open');
await reportA('a-open-2');

/** Every calls and incident route except the three game routes, for sheet `number` and call `externalId`. */
const boardRoutes = (number: number, externalId: string): [string, string, object | undefined][] => [
  ['GET', '/calls', undefined],
  ['POST', `/calls/${externalId}/take`, undefined],
  ['POST', `/calls/${externalId}/dismiss`, { reason: 'Fehlalarm' }],
  ['POST', `/calls/${externalId}/attach`, { incident: number }],
  ['POST', '/calls/merge', { externalIds: [externalId, 'a-open-2'] }],
  ['GET', `/incidents/${number}/calls`, undefined],
  ['GET', '/incidents', undefined],
  ['GET', `/incidents/${number}`, undefined],
  ['POST', '/incidents', { keyword: 'Fremd' }],
  ['PATCH', `/incidents/${number}`, { version: 1, keyword: 'Fremd' }],
  ['PUT', `/incidents/${number}/units/RTW-A`, undefined],
  ['DELETE', `/incidents/${number}/units/RTW-A`, undefined],
  ['POST', `/incidents/${number}/entries`, { text: 'Fremd' }],
  ['POST', `/incidents/${number}/close`, undefined],
  ['GET', '/admin/call-rate-limit', undefined],
  ['PUT', '/admin/call-rate-limit', { perMinute: 1, burst: 1 }],
];

t.test('game routes: report and resolve pass with calls:call.report, the list with calls:read; any other scope is 403', async (t) => {
  for (const scope of specScopes) {
    const key = await scopedKey(server.sql, A, [scope], scope);
    const id = `scope-${scope.replace(/[^a-z]/g, '')}`;
    const report = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'x' } });
    if (scope === 'calls:call.report') t.equal(report.status, 200, `report with ${scope}`);
    else {
      assertError(t, report, 403, `report with ${scope}`, /lacks the scope calls:call\.report/);
      await reportA(id); // so the refused resolve below had something to resolve
    }
    const resolve = await api('POST', `/integrations/ingame/calls/${id}/resolve`, { key, body: { resolution: 'reached' } });
    if (scope === 'calls:call.report') t.equal(resolve.status, 200, `resolve with ${scope}`);
    else {
      assertError(t, resolve, 403, `resolve with ${scope}`);
      t.same(await callStatus(A, id), ['open:1'], 'still open');
    }
    const list = await api('GET', '/integrations/ingame/calls', { key });
    if (scope === 'calls:read') {
      t.equal(list.status, 200, `list with ${scope}`);
      t.ok(list.body.calls.some((c: any) => c.externalId === 'a-open'));
    } else assertError(t, list, 403, `list with ${scope}`, /lacks the scope calls:read/);
  }
  const both = await scopedKey(server.sql, A, ['calls:call.report', 'calls:read'], 'game resource');
  t.equal((await api('POST', '/integrations/ingame/calls', { key: both, body: { externalId: 'both-1', title: 'x' } })).status, 200);
  t.equal((await api('GET', '/integrations/ingame/calls', { key: both })).status, 200);
});

t.test('scoped keys cannot use the board routes (calls list, take, incident sheets, rate limit)', async (t) => {
  for (const scope of specScopes) {
    const key = await scopedKey(server.sql, A, [scope]);
    for (const [method, path, body] of boardRoutes(1, 'a-open')) {
      assertError(t, await api(method, path, { key, body }), 403, `${scope}: ${method} ${path}`, /scoped API keys cannot use this route/);
    }
  }
  t.same(await callStatus(A, 'a-open'), ['open:1'], 'the open call was not taken');
  const sheet = (await api('GET', '/incidents/1', { key: keyA })).body;
  t.match(sheet, { version: 1, state: 'open', keyword: 'Meldung A', units: [{ callsign: 'RTW-A' }] }, 'sheet 1 untouched');
});

t.test('rank capabilities: dispatch.view reads, dispatch.manage takes and reports, incidents.manage writes sheets', async (t) => {
  const sessions = Object.fromEntries(await Promise.all(['aa', 'view', 'disp', 'sheet', 'crew'].map(async (u) => [u, await signIn(server, A, u)])));
  const expect: Record<string, Record<string, number>> = {
    'GET /calls': { aa: 200, view: 200, disp: 200, sheet: 200, crew: 403 },
    'GET /integrations/ingame/calls': { aa: 200, view: 200, disp: 200, sheet: 200, crew: 403 },
    'GET /incidents': { aa: 200, view: 200, disp: 200, sheet: 200, crew: 403 },
    'GET /incidents/1': { aa: 200, view: 200, disp: 200, sheet: 200, crew: 403 },
    'POST /integrations/ingame/calls': { aa: 200, view: 403, disp: 200, sheet: 403, crew: 403 },
    'POST /calls/{id}/take': { aa: 200, view: 403, disp: 200, sheet: 403, crew: 403 },
    'POST /calls/{id}/dismiss': { aa: 200, view: 403, disp: 200, sheet: 403, crew: 403 },
    'GET /incidents/1/calls': { aa: 200, view: 200, disp: 200, sheet: 200, crew: 403 },
    'POST /incidents': { aa: 200, view: 403, disp: 403, sheet: 200, crew: 403 },
    'POST /incidents/1/entries': { aa: 200, view: 403, disp: 403, sheet: 200, crew: 403 },
    'GET /admin/call-rate-limit': { aa: 200, view: 403, disp: 403, sheet: 403, crew: 403 },
  };
  for (const [route, byUser] of Object.entries(expect)) {
    for (const [user, status] of Object.entries(byUser)) {
      const [method, rawPath] = route.split(' ');
      let path = rawPath;
      let body: object | undefined;
      if (route === 'POST /integrations/ingame/calls') body = { externalId: `s-${user}-${++n}`, title: 'x' };
      if (route === 'POST /calls/{id}/take') path = `/calls/${(await reportA()).externalId}/take`;
      if (route === 'POST /calls/{id}/dismiss') [path, body] = [`/calls/${(await reportA()).externalId}/dismiss`, { reason: 'Doppelt' }];
      if (route === 'POST /incidents') body = { keyword: `by ${user}` };
      if (route === 'POST /incidents/1/entries') body = { text: `by ${user}` };
      const res = await api(method, path, { session: sessions[user], body });
      if (status === 200) t.equal(res.status, 200, `${route} as ${user}`);
      else assertError(t, res, 403, `${route} as ${user}`, /lacks the capability|admin rights/);
    }
  }
  const sheetWrites: [string, string, object | undefined][] = [
    ['PATCH', '/incidents/1', { version: 1, priority: 3 }], ['DELETE', '/incidents/1/units/RTW-A', undefined],
    ['PUT', '/incidents/1/units/RTW-A', undefined], ['POST', '/incidents/1/close', undefined],
  ];
  for (const [method, path, body] of sheetWrites) {
    for (const user of ['view', 'disp', 'crew']) assertError(t, await api(method, path, { session: sessions[user], body }), 403, `${method} ${path} as ${user}`);
    t.equal((await api(method, path, { session: sessions.sheet, body })).status, 200, `${method} ${path} as sheet keeper`);
  }
});

t.test('guild B cannot see or touch A\'s calls and sheets: 404 with a key, 403 with a session', async (t) => {
  await reportA('a-target');
  const bScoped = await scopedKey(server.sql, B, ['calls:call.report', 'calls:read'], 'B game');
  for (const key of [keyB, bScoped]) {
    assertError(t, await api('POST', '/integrations/ingame/calls/a-target/resolve', { key, body: { resolution: 'reached' } }), 404, 'resolve A\'s call');
    const list = await api('GET', '/integrations/ingame/calls', { key });
    t.same(list.body, { count: 0, calls: [] }, 'B sees no calls of A');
  }
  t.same(await callStatus(A, 'a-target'), ['open:1']);

  t.same((await api('GET', '/calls', { key: keyB })).body, { count: 0, calls: [] });
  t.same((await api('GET', '/incidents', { key: keyB })).body, { count: 0, incidents: [], nextCursor: null });
  for (const [method, path, body] of boardRoutes(1, 'a-target').filter(([m, p]) => p.includes('/incidents/') || /\/(take|dismiss|attach|merge)$/.test(p))) {
    assertError(t, await api(method, path, { key: keyB, body }), 404, `key of B: ${method} ${path}`);
  }
  t.same(await callStatus(A, 'a-target'), ['open:1'], 'A\'s call is still open');
  const sheetA = (await api('GET', '/incidents/1', { key: keyA })).body;

  const sameId = await api('POST', '/integrations/ingame/calls', { key: keyB, body: { externalId: 'a-target', title: 'Meldung B' } });
  t.match(sameId.body, { reportCount: 1, title: 'Meldung B' }, 'the same externalId in B is B\'s own call');
  t.same(await callStatus(A, 'a-target'), ['open:1'], 'A\'s count is untouched');
  const sheetB = await api('POST', '/incidents', { key: keyB, body: { keyword: 'Sheet of B' } });
  t.equal(sheetB.body.number, 1, 'B numbers its own sheets from 1');
  t.equal((await api('GET', '/incidents/1', { key: keyB })).body.keyword, 'Sheet of B');
  assertError(t, await api('PUT', '/incidents/1/units/RTW-A', { key: keyB }), 404, 'A\'s unit is unknown in B', /no unit with callsign RTW-A/);
  t.equal((await api('PUT', '/incidents/1/units/RTW-B', { key: keyB })).status, 200, 'B\'s own unit');
  const openA = (await api('POST', '/incidents', { key: keyA, body: { keyword: 'open in A' } })).body.number;
  assertError(t, await api('PUT', `/incidents/${openA}/units/RTW-B`, { key: keyA }), 404, 'and B\'s unit is unknown in A', /no unit with callsign RTW-B/);
  t.same((await api('GET', '/incidents/1', { key: keyA })).body, sheetA, 'A\'s sheet 1 is unchanged');

  const bAdmin = await signIn(server, B, 'bb');
  const intoA = { cookie: bAdmin.cookie, guildId: A };
  for (const [method, path, body] of [...boardRoutes(1, 'a-target'), ['GET', '/integrations/ingame/calls', undefined], ['POST', '/integrations/ingame/calls', { externalId: 'x', title: 'x' }]] as const) {
    assertError(t, await api(method, path, { session: intoA, body }), 403, `session of B with x-guild-id A: ${method} ${path}`, /not a member/);
  }
  const steered = await api('GET', '/calls', { key: keyB, headers: { 'x-guild-id': A } });
  t.same(steered.body.calls.map((c: any) => c.title), ['Meldung B'], 'x-guild-id cannot steer a key into A');
});

t.test('switched-off modules: calls routes need dispatch, sheets need incidents (404)', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key: keyB, body: { modules: { dispatch: false } } })).status, 200);
  for (const [method, path, body] of [
    ['POST', '/integrations/ingame/calls', { externalId: 'm', title: 'x' }], ['GET', '/integrations/ingame/calls', undefined],
    ['POST', '/integrations/ingame/calls/a-target/resolve', { resolution: 'x' }], ['GET', '/calls', undefined], ['POST', '/calls/a-target/take', undefined],
  ] as const) assertError(t, await api(method, path, { key: keyB, body }), 404, `dispatch off: ${method} ${path}`, /module "dispatch" is switched off/);
  t.equal((await api('GET', '/incidents', { key: keyB })).status, 200, 'sheets still work');
  t.equal((await api('PATCH', '/admin/modules', { key: keyB, body: { modules: { dispatch: true, incidents: false } } })).status, 200);
  t.equal((await api('GET', '/calls', { key: keyB })).status, 200);
  for (const [method, path] of [['GET', '/incidents'], ['GET', '/incidents/1'], ['POST', '/incidents/1/close']] as const) {
    assertError(t, await api(method, path, { key: keyB }), 404, `incidents off: ${method} ${path}`, /module "incidents" is switched off/);
  }
  t.equal((await api('GET', '/incidents', { key: keyA })).status, 200, 'A is not affected');
});
