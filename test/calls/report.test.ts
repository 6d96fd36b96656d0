import t from 'tap';
import type { Test } from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';

// POST /integrations/ingame/calls: every field rule of spec §2 "Call from the game" and §8.
const G = '570000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, []);
const key = await unscopedKey(server.sql, G);
// Many reports from one key below: lift the per-key rate limit (tested in limits.test.ts).
await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 6000, burst: 1000 } });

let n = 0;
const fresh = () => `t-${++n}`;
const report = (body: Record<string, unknown>) => api('POST', '/integrations/ingame/calls', { key, body: { externalId: fresh(), title: 'Notruf', ...body } });
const callRows = (externalId: string) => server.sql`select status, report_count from calls where guild_id = ${G} and external_id = ${externalId}`;

async function accepts(t: Test, body: Record<string, unknown>, label: string) {
  const res = await report(body);
  t.equal(res.status, 200, `${label}: 200`);
  return res;
}

async function refuses(t: Test, body: Record<string, unknown>, label: string, message?: RegExp) {
  const externalId = typeof body.externalId === 'string' ? body.externalId : fresh();
  if (typeof body.externalId !== 'string' && 'externalId' in body) throw new Error('use api() for non-string ids');
  const res = await api('POST', '/integrations/ingame/calls', { key, body: { externalId, title: 'Notruf', ...body } });
  assertError(t, res, 400, label, message);
  if (!externalId.includes('\u0000')) t.equal((await callRows(externalId)).length, 0, `${label}: nothing stored`);
}

t.test('a new report opens a call; the answer is the call object', async (t) => {
  const before = Date.now();
  const res = await api('POST', '/integrations/ingame/calls', {
    key,
    body: {
      externalId: 'esx:call:1', source: 'esx_phone', kind: 'notruf', priority: 2, title: 'Verkehrsunfall',
      message: 'Zwei PKW', location: { x: 215.5, y: -810.25, street: 'Alta St', postal: '8012', text: 'vor dem Pillbox' },
      caller: { name: 'Max Muster', phone: '555-0100' },
    },
  });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), [
    'attachedAt', 'caller', 'createdAt', 'dismissReason', 'dismissedAt', 'dismissedBy', 'externalId', 'id', 'incidentNumber', 'kind', 'location',
    'message', 'priority', 'reportCount', 'resolution', 'resolvedAt', 'source', 'status', 'takenAt', 'takenBy', 'title', 'updatedAt',
  ]);
  t.match(res.body, {
    id: /^\d+$/, externalId: 'esx:call:1', status: 'open', kind: 'notruf', priority: 2, title: 'Verkehrsunfall', message: 'Zwei PKW',
    location: { x: 215.5, y: -810.25, street: 'Alta St', postal: '8012', text: 'vor dem Pillbox' },
    caller: { name: 'Max Muster', phone: '555-0100' }, source: 'esx_phone', reportCount: 1,
    takenAt: null, takenBy: null, incidentNumber: null, attachedAt: null, resolvedAt: null, resolution: null, dismissedAt: null, dismissedBy: null, dismissReason: null,
  });
  t.ok(Date.parse(res.body.createdAt) >= before - 5000 && Date.parse(res.body.createdAt) <= Date.now() + 5000, 'createdAt is now');
  t.equal(res.body.updatedAt, res.body.createdAt);
  t.same(await callRows('esx:call:1'), [{ status: 'open', report_count: 1 }]);
});

t.test('defaults: kind notruf, priority 2, and 1 for panik; optional fields null', async (t) => {
  const plain = await accepts(t, {}, 'title only');
  t.match(plain.body, { kind: 'notruf', priority: 2, message: null, location: null, caller: null, source: null });
  for (const [kind, priority] of [['notruf', 2], ['panik', 1], ['alarm', 2], ['hinweis', 2]] as const) {
    const res = await accepts(t, { kind }, `kind ${kind}`);
    t.equal(res.body.kind, kind);
    t.equal(res.body.priority, priority, `${kind} defaults to priority ${priority}`);
  }
  const calmPanic = await accepts(t, { kind: 'panik', priority: 3 }, 'panik with an explicit priority');
  t.equal(calmPanic.body.priority, 3, 'an explicit priority wins over the panik default');
});

t.test('externalId: charset A-Z a-z 0-9 . _ : - and 1..80', async (t) => {
  for (const id of ['a'.repeat(79), 'a'.repeat(80), 'AZaz09._:-', 'x', '0', '...', 'fivem:server-1_call.42']) {
    const res = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'x' } });
    t.equal(res.status, 200, `${id.length} chars ${id.slice(0, 20)}: 200`);
    t.equal(res.body.externalId, id, 'kept verbatim');
  }
  await refuses(t, { externalId: 'a'.repeat(81) }, '81 chars', /externalId has at most 80/);
  await refuses(t, { externalId: '' }, 'empty', /externalId/);
  for (const bad of ['a b', 'a/b', 'ä', 'a#b', 'a?b', 'a@b', 'a+b', 'a%b', 'a,b', 'a\nb', 'ß', '💥', 'a\u0000b']) {
    await refuses(t, { externalId: bad }, `externalId ${JSON.stringify(bad)}`, /externalId may contain only/);
  }
  for (const bad of [123, null, true, ['a'], { id: 'a' }]) {
    assertError(t, await api('POST', '/integrations/ingame/calls', { key, body: { externalId: bad, title: 'x' } }), 400, `externalId ${JSON.stringify(bad)}`);
  }
  assertError(t, await api('POST', '/integrations/ingame/calls', { key, body: { title: 'x' } }), 400, 'missing externalId', /externalId/);
  const upper = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'CASE', title: 'x' } });
  const lower = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'case', title: 'x' } });
  t.not(upper.body.id, lower.body.id, 'externalIds are case-sensitive: two calls');
  t.equal(lower.body.reportCount, 1);
});

t.test('title: required, 1..120, not blank', async (t) => {
  for (const len of [1, 119, 120]) {
    const res = await accepts(t, { title: 't'.repeat(len) }, `title ${len}`);
    t.equal(res.body.title.length, len);
  }
  await refuses(t, { title: 't'.repeat(121) }, 'title 121', /title has at most 120/);
  await refuses(t, { title: '' }, 'title empty', /^title: title must not be empty$/);
  await refuses(t, { title: '   ' }, 'title blank', /title must not be blank/);
  for (const bad of [1, null, false, ['t'], { t: 1 }]) await refuses(t, { title: bad }, `title ${JSON.stringify(bad)}`, /title/);
  const res = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: fresh() } });
  assertError(t, res, 400, 'missing title', /title/);
  const umlauts = await accepts(t, { title: 'ü'.repeat(120) }, 'title of 120 umlauts');
  t.equal(umlauts.body.title, 'ü'.repeat(120));
});

t.test('message: at most 500', async (t) => {
  for (const len of [0, 499, 500]) {
    const res = await accepts(t, { message: 'm'.repeat(len) }, `message ${len}`);
    t.equal(res.body.message, 'm'.repeat(len));
  }
  await refuses(t, { message: 'm'.repeat(501) }, 'message 501', /message has at most 500/);
  for (const bad of [5, null, ['m'], {}]) await refuses(t, { message: bad }, `message ${JSON.stringify(bad)}`, /message/);
});

t.test('caller: {name ≤ 60, phone ≤ 30}', async (t) => {
  for (const len of [0, 59, 60]) await accepts(t, { caller: { name: 'n'.repeat(len) } }, `caller name ${len}`);
  for (const len of [0, 29, 30]) await accepts(t, { caller: { phone: '5'.repeat(len) } }, `caller phone ${len}`);
  const both = await accepts(t, { caller: { name: 'Max', phone: '555' } }, 'name and phone');
  t.same(both.body.caller, { name: 'Max', phone: '555' });
  const empty = await accepts(t, { caller: {} }, 'empty caller');
  t.same(empty.body.caller, {});
  await refuses(t, { caller: { name: 'n'.repeat(61) } }, 'caller name 61', /caller name has at most 60/);
  await refuses(t, { caller: { phone: '5'.repeat(31) } }, 'caller phone 31', /caller phone has at most 30/);
  await refuses(t, { caller: { name: 'Max', email: 'x@y' } }, 'unknown caller field', /unknown field email/);
  for (const bad of ['Max', 5, null, ['Max']]) await refuses(t, { caller: bad }, `caller ${JSON.stringify(bad)}`, /caller/);
  await refuses(t, { caller: { name: 5 } }, 'caller name a number', /caller/);
  await refuses(t, { caller: { phone: 5550100 } }, 'caller phone a number', /caller/);
});

t.test('priority: integer 1..3', async (t) => {
  for (const p of [1, 2, 3]) t.equal((await accepts(t, { priority: p }, `priority ${p}`)).body.priority, p);
  for (const bad of [0, 4, -1, 1.5, 2.0001, '2', null, true, [], 1e9]) {
    await refuses(t, { priority: bad }, `priority ${JSON.stringify(bad)}`, /priority/);
  }
});

t.test('kind: notruf | panik | alarm | hinweis', async (t) => {
  for (const bad of ['fire', 'PANIK', 'Notruf', '', 'panik ', 1, null, ['panik']]) {
    await refuses(t, { kind: bad }, `kind ${JSON.stringify(bad)}`, /kind must be one of notruf, panik, alarm, hinweis/);
  }
});

t.test('location: text ≤ 200, or {x, y, street ≤ 120, postal ≤ 20, text ≤ 200}', async (t) => {
  for (const loc of ['Pillbox Hill', 'l'.repeat(199), 'l'.repeat(200)]) {
    t.equal((await accepts(t, { location: loc }, `text location ${loc.length}`)).body.location, loc);
  }
  const objects = [
    { x: 0, y: 0 }, { x: -1234.5, y: 6789.25 }, { x: 100000, y: -100000 }, { street: 'Alta St' }, { postal: '8012' }, { text: 'Dach' },
    { x: 1, y: 2, street: 's'.repeat(120), postal: 'p'.repeat(20), text: 't'.repeat(200) },
  ];
  for (const loc of objects) t.same((await accepts(t, { location: loc }, `location ${JSON.stringify(loc).slice(0, 60)}`)).body.location, loc);
  const bad: [unknown, RegExp][] = [
    ['l'.repeat(201), /location has at most 200/],
    ['', /location must not be empty/],
    ['   ', /location must not be blank/],
    [{}, /at least one of/],
    [{ x: 1 }, /both x and y/],
    [{ y: 1, street: 'a' }, /both x and y/],
    [{ x: 100001, y: 0 }, /x must be at most 100000/],
    [{ x: 0, y: -100001 }, /y must be at least -100000/],
    [{ x: '1', y: 2 }, /location/],
    [{ x: 1, y: 2, z: 30 }, /unknown field z/],
    [{ street: 's'.repeat(121) }, /street has at most 120/],
    [{ postal: 'p'.repeat(21) }, /postal has at most 20/],
    [{ text: 't'.repeat(201) }, /location text has at most 200/],
    [{ street: '' }, /street must not be empty/],
    [42, /location must be a string or an object/],
    [null, /location/],
    [['Pillbox'], /location/],
    [true, /location/],
  ];
  for (const [loc, message] of bad) await refuses(t, { location: loc }, `location ${JSON.stringify(loc).slice(0, 40)}`, message);
});

t.test('source: 1..60', async (t) => {
  for (const len of [1, 59, 60]) t.equal((await accepts(t, { source: 's'.repeat(len) }, `source ${len}`)).body.source, 's'.repeat(len));
  await refuses(t, { source: 's'.repeat(61) }, 'source 61', /source has at most 60/);
  await refuses(t, { source: '' }, 'source empty', /source/);
  await refuses(t, { source: 7 }, 'source a number', /source/);
});

t.test('server-owned fields are refused, not bound', async (t) => {
  const owned = {
    reportCount: 5, status: 'taken', id: '99', guildId: '570000000000000002', createdAt: '2020-01-01T00:00:00Z', updatedAt: '2020-01-01T00:00:00Z',
    takenAt: '2020-01-01T00:00:00Z', takenBy: { kind: 'key', id: '1' }, incidentNumber: 3, resolvedAt: null, resolution: 'reached', version: 2,
  };
  for (const [field, value] of Object.entries(owned)) {
    await refuses(t, { [field]: value }, `field ${field}`, new RegExp(`unknown field ${field}`));
  }
  // also on a re-report of an open call: the count is not settable
  const id = fresh();
  await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'x' } });
  const res = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'x', reportCount: 100 } });
  assertError(t, res, 400, 'reportCount on a re-report', /unknown field reportCount/);
  t.same(await callRows(id), [{ status: 'open', report_count: 1 }], 'count unchanged');
});

t.test('NUL characters are refused in every text field (400, never a database error)', async (t) => {
  const nul = 'a\u0000b';
  for (const body of [
    { title: nul }, { message: nul }, { source: nul }, { location: nul }, { location: { street: nul } }, { location: { postal: nul } },
    { location: { text: nul } }, { caller: { name: nul } }, { caller: { phone: nul } },
  ]) await refuses(t, body, `NUL in ${JSON.stringify(body).slice(0, 30)}`, /NUL/);
});

t.test('lone UTF-16 surrogates are refused in every text field; real emoji pass', async (t) => {
  for (const body of [
    { title: 'x\ud800' }, { message: '\udc00' }, { source: 'a\udbffb' }, { location: 'a\ud800' }, { location: { street: '\ud83d' } },
    { location: { text: 'x\udfff' } }, { caller: { name: '\udc00x' } }, { caller: { phone: '5\ud800' } },
  ]) await refuses(t, body, `surrogate in ${Object.keys(body)[0]}`, /valid Unicode/);
  const emoji = await accepts(t, { title: '🚑 Notruf 💥', location: { text: '🏥 Pillbox' }, caller: { name: 'Jörg 😷' } }, 'emoji');
  t.match(emoji.body, { title: '🚑 Notruf 💥', location: { text: '🏥 Pillbox' }, caller: { name: 'Jörg 😷' } }, 'kept intact');
});

t.test('bodies that are not a call object: 400; no query string', async (t) => {
  for (const raw of ['[]', '"x"', '1', 'null', '{', '{"externalId":"a",}']) {
    assertError(t, await api('POST', '/integrations/ingame/calls', { key, raw }), 400, `body ${raw}`);
  }
  assertError(t, await api('POST', '/integrations/ingame/calls', { key }), 400, 'no body');
  assertError(t, await api('POST', '/integrations/ingame/calls?externalId=a&title=b', { key }), 400, 'fields in the query');
  const res = await api('POST', '/integrations/ingame/calls', { key, raw: '{"externalId":"p","title":"x","__proto__":{"reportCount":9}}' });
  assertError(t, res, 400, '__proto__ key');
});

t.test('the same open externalId updates the call and counts the report', async (t) => {
  const id = fresh();
  const first = await api('POST', '/integrations/ingame/calls', {
    key, body: { externalId: id, title: 'Brand', kind: 'alarm', priority: 3, message: 'Rauch', location: 'Sandy Shores', caller: { name: 'A' }, source: 'alarm_script' },
  });
  t.equal(first.body.reportCount, 1);
  await new Promise((r) => setTimeout(r, 20));

  const second = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'Brand, Feuer sichtbar' } });
  t.equal(second.status, 200);
  t.match(second.body, {
    id: first.body.id, status: 'open', reportCount: 2, title: 'Brand, Feuer sichtbar',
    kind: 'alarm', priority: 3, message: 'Rauch', location: 'Sandy Shores', caller: { name: 'A' }, source: 'alarm_script',
  }, 'fields left out keep their value');
  t.equal(second.body.createdAt, first.body.createdAt, 'createdAt stays');
  t.ok(Date.parse(second.body.updatedAt) > Date.parse(first.body.updatedAt), 'updatedAt moves');

  const third = await api('POST', '/integrations/ingame/calls', {
    key, body: { externalId: id, title: 'Brand', message: 'Person im Gebäude', location: { x: 1, y: 2 }, caller: { phone: '555' }, kind: 'panik' },
  });
  t.match(third.body, { reportCount: 3, kind: 'panik', priority: 1, message: 'Person im Gebäude', location: { x: 1, y: 2 }, caller: { phone: '555' } },
    'fields sent replace; a panik without priority becomes priority 1');
  const fourth = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'Brand', priority: 2 } });
  t.match(fourth.body, { reportCount: 4, kind: 'panik', priority: 2 }, 'an explicit priority replaces it');
  const fifth = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'Brand', kind: 'notruf' } });
  t.match(fifth.body, { reportCount: 5, kind: 'notruf', priority: 2 }, 'a kind without priority keeps the priority');
  t.same(await callRows(id), [{ status: 'open', report_count: 5 }], 'still one call');

  const refused = await api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: 'x'.repeat(121) } });
  assertError(t, refused, 400, 'an invalid re-report');
  t.same(await callRows(id), [{ status: 'open', report_count: 5 }], 'an invalid re-report counts nothing');
});

t.test('10 concurrent reports of a new externalId: one call, reportCount 10', async (t) => {
  for (let round = 0; round < 3; round++) {
    const id = `burst-${round}`;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      api('POST', '/integrations/ingame/calls', { key, body: { externalId: id, title: `Meldung ${i}` } })));
    t.same(results.map((r) => r.status), Array(10).fill(200), `round ${round}: all 200`);
    t.same(results.map((r) => r.body.reportCount).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'each report got its own count');
    t.equal(new Set(results.map((r) => r.body.id)).size, 1, 'all answers are the same call');
    t.same(await callRows(id), [{ status: 'open', report_count: 10 }], 'one open call with reportCount 10');
  }
});

t.test('open calls are listed for the board and for scope calls:read', async (t) => {
  const list = await api('GET', '/calls', { key });
  t.equal(list.status, 200);
  const [{ n }] = await server.sql`select count(*)::int as n from calls where guild_id = ${G} and status = 'open'`;
  t.equal(list.body.count, n);
  t.equal(list.body.calls.length, n);
  const priorities = list.body.calls.map((c: any) => c.priority);
  t.same(priorities, [...priorities].sort((a: number, b: number) => a - b), 'most urgent first');
  t.ok(list.body.calls.every((c: any) => c.status === 'open'));
  const ingame = await api('GET', '/integrations/ingame/calls', { key });
  t.same(ingame.body, list.body, 'the game list is the same');
  assertError(t, await api('GET', '/calls?status=taken', { key }), 400, 'unknown query parameter');
});
