import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// A dispatcher takes a call: the call becomes taken and exactly one incident sheet is made of it.
// Resolving from the game. Both end the open call; a later report of the id opens a new one once the
// call is resolved or its sheet closed (what happens in between: after-take.test.ts).
const G = '572000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: 'd1', nickname: 'Dora Dispatch' }]);
await insertRank(server.sql, G, { id: 'dispatcher', name: 'Disponent', position: 5, capabilities: ['dispatch.view', 'dispatch.manage', 'timeclock.own.use'] });
await server.sql`update people set rank_id = 'dispatcher' where guild_id = ${G} and user_id = 'd1'`;
const key = await unscopedKey(server.sql, G);
await api('PUT', '/admin/call-rate-limit', { key, body: { perMinute: 6000, burst: 1000 } });
const dora = await signIn(server, G, 'd1');
if ((await api('POST', '/me/clock-in', { session: dora, body: {} })).status !== 200) throw new Error('set-up: clock-in failed'); // taking needs duty

const report = (externalId: string, extra: object = {}) =>
  api('POST', '/integrations/ingame/calls', { key, body: { externalId, title: 'Herzinfarkt', ...extra } });
const take = (externalId: string, o: { session?: typeof dora; body?: object } = {}) =>
  api('POST', `/calls/${encodeURIComponent(externalId)}/take`, o.session ? { session: o.session, body: o.body ?? {} } : { key, body: o.body });
const sheetsOf = async (callId: string) =>
  (await server.sql`select number from incidents where guild_id = ${G} and call_id = ${callId}::bigint`).map((r) => r.number as number);

t.test('taking a call: it becomes taken and one linked incident sheet records who and when', async (t) => {
  const reported = await report('qb:911:1', { kind: 'panik', location: { x: 10, y: 20, street: 'Vespucci Blvd' }, message: 'Hilfe' });
  await report('qb:911:1', { kind: 'panik' });
  const before = Date.now();
  const res = await take('qb:911:1', { session: dora });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), ['call', 'incident']);
  const { call, incident } = res.body;
  t.match(call, {
    id: reported.body.id, externalId: 'qb:911:1', status: 'taken', reportCount: 2, kind: 'panik', priority: 1,
    takenBy: { kind: 'session', id: 'd1', name: 'Dora Dispatch' }, incidentNumber: incident.number, resolvedAt: null, resolution: null,
  });
  t.ok(Math.abs(Date.parse(call.takenAt) - before) < 10_000, 'takenAt is now');
  t.match(incident, {
    number: 1, keyword: 'Herzinfarkt', location: { x: 10, y: 20, street: 'Vespucci Blvd' }, priority: 1, state: 'open', version: 1,
    call: { id: reported.body.id, externalId: 'qb:911:1' }, closedAt: null, createdBy: { kind: 'session', id: 'd1', name: 'Dora Dispatch' }, units: [],
  });
  t.equal(incident.createdAt, call.takenAt, 'the sheet is created at the moment the call is taken');
  t.match(incident.entries, [{ kind: 'created', number: 1, text: /qb:911:1/, by: { kind: 'session', id: 'd1', name: 'Dora Dispatch' } }]);
  t.equal(incident.entries.length, 1);

  t.same((await api('GET', '/incidents/1', { key })).body, incident, 'GET returns the same sheet');
  t.notOk((await api('GET', '/calls', { key })).body.calls.some((c: any) => c.externalId === 'qb:911:1'), 'no longer listed as open');
  t.same(await sheetsOf(call.id), [1], 'exactly one sheet for the call');
  const [row] = await server.sql`select status, taken_by_kind, taken_by_id, incident_number from calls where guild_id = ${G} and id = ${call.id}::bigint`;
  t.same(row, { status: 'taken', taken_by_kind: 'session', taken_by_id: 'd1', incident_number: 1 });
  const audit = await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = 'calls.take'`;
  t.same(audit.map((a) => ({ ...a })), [{ actor_kind: 'session', actor_id: 'd1', data: { externalId: 'qb:911:1', callId: call.id, incidentNumber: 1 } }]);
});

t.test('taking it again is 409; an unknown id is 404', async (t) => {
  assertError(t, await take('qb:911:1', { session: dora }), 409, 'again', /already taken \(incident sheet 1\)/);
  assertError(t, await take('never-reported'), 404, 'unknown', /no call with externalId never-reported/);
  t.equal((await server.sql`select count(*)::int as n from incidents where guild_id = ${G}`)[0].n, 1, 'no new sheet');
});

t.test('a report of a taken id whose sheet is closed opens a new call, which can be taken into a new sheet', async (t) => {
  t.equal((await api('POST', '/incidents/1/close', { key })).status, 200);
  const again = await report('qb:911:1');
  t.equal(again.status, 200);
  t.match(again.body, { status: 'open', reportCount: 1, incidentNumber: null, takenBy: null });
  const second = await take('qb:911:1');
  t.equal(second.status, 200);
  t.match(second.body, { call: { id: again.body.id, takenBy: { kind: 'key', name: 'test' } }, incident: { number: 2, createdBy: { kind: 'key', name: 'test' } } });
});

t.test('keyword of the new sheet: the call title, or 1..120 given in the body', async (t) => {
  await report('kw-1');
  const res = await take('kw-1', { body: { keyword: 'RD 2 – Herz' } });
  t.equal(res.status, 200);
  t.equal(res.body.incident.keyword, 'RD 2 – Herz');
  await report('kw-2');
  t.equal((await take('kw-2', { body: { keyword: 'k'.repeat(120) } })).body.incident.keyword, 'k'.repeat(120));
  await report('kw-3');
  for (const [body, message] of [
    [{ keyword: 'k'.repeat(121) }, /keyword has at most 120/], [{ keyword: '' }, /keyword/], [{ keyword: '  ' }, /keyword must not be blank/],
    [{ keyword: 5 }, /keyword/], [{ status: 'taken' }, /unknown field status/], [{ incidentNumber: 9 }, /unknown field incidentNumber/],
    [{ takenBy: 'x' }, /unknown field takenBy/], [{ externalId: 'kw-3' }, /given in the path/],
  ] as const) {
    assertError(t, await take('kw-3', { body }), 400, JSON.stringify(body), message);
  }
  t.equal((await api('GET', '/calls', { key })).body.calls.filter((c: any) => c.externalId === 'kw-3').length, 1, 'still open after refused takes');
});

t.test('path externalId follows the same rules', async (t) => {
  assertError(t, await take('a'.repeat(81)), 400, '81 chars', /at most 80/);
  assertError(t, await take('a b'), 400, 'a space', /may contain only/);
  assertError(t, await take('ä'), 400, 'an umlaut', /may contain only/);
  assertError(t, await api('POST', '/calls/%E0%A4%A/take', { key }), 400, 'broken percent-encoding');
  await report('a'.repeat(80));
  t.equal((await take('a'.repeat(80))).status, 200, '80 chars');
});

t.test('two concurrent takes of one call: exactly one 200 and one 409, exactly one sheet', async (t) => {
  for (let round = 0; round < 5; round++) {
    const id = `race-${round}`;
    const call = (await report(id)).body;
    const results = await Promise.all([take(id, { session: dora }), take(id)]);
    t.same(results.map((r) => r.status).sort(), [200, 409], `round ${round}`);
    t.match(results.find((r) => r.status === 409)!.body.error, /already taken/);
    t.equal((await sheetsOf(call.id)).length, 1, 'one sheet');
  }
  const call = (await report('race-many')).body;
  const many = await Promise.all(Array.from({ length: 6 }, () => take('race-many')));
  t.same(many.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409], 'six at once: one wins');
  t.equal((await sheetsOf(call.id)).length, 1);
});

t.test('sheet numbers are unique and gapless per guild, also when calls are taken at once', async (t) => {
  const ids = Array.from({ length: 8 }, (_, i) => `many-${i}`);
  for (const id of ids) await report(id);
  const results = await Promise.all(ids.map((id) => take(id)));
  t.same(results.map((r) => r.status), Array(8).fill(200));
  const numbers = (await server.sql`select number from incidents where guild_id = ${G} order by number`).map((r) => r.number);
  t.same(numbers, Array.from({ length: numbers.length }, (_, i) => i + 1), '1, 2, 3 … without gaps or repeats');
});

t.test('resolving from the game: {resolution} 1..40; 404 when no call ever had the id', async (t) => {
  const open = (await report('res-1', { kind: 'hinweis' })).body;
  const resolve = (id: string, body: unknown) => api('POST', `/integrations/ingame/calls/${encodeURIComponent(id)}/resolve`, { key, body });
  for (const [body, message] of [
    [{}, /resolution/], [{ resolution: '' }, /resolution must not be empty/], [{ resolution: 'r'.repeat(41) }, /resolution has at most 40/],
    [{ resolution: 5 }, /resolution/], [{ resolution: 'reached', status: 'resolved' }, /unknown field status/],
    [{ resolution: 'reached', externalId: 'res-1' }, /given in the path/], [{ resolution: 'a\u0000' }, /NUL/],
  ] as const) {
    assertError(t, await resolve('res-1', body), 400, JSON.stringify(body), message);
  }
  assertError(t, await api('POST', '/integrations/ingame/calls/res-1/resolve', { key }), 400, 'no body');
  const res = await resolve('res-1', { resolution: 'r'.repeat(40) });
  t.equal(res.status, 200);
  t.match(res.body, { id: open.id, status: 'resolved', resolution: 'r'.repeat(40), takenAt: null, incidentNumber: null });
  t.ok(Date.parse(res.body.resolvedAt) > 0);
  const retried = await resolve('res-1', { resolution: 'reached' });
  t.equal(retried.status, 200, 'resolved already: the game\'s retry gets the call as stored');
  t.same(retried.body, res.body);
  assertError(t, await resolve('nothing', { resolution: 'reached' }), 404, 'never reported', /no call with externalId nothing/);
  assertError(t, await resolve('a b', { resolution: 'reached' }), 400, 'bad path id');
  assertError(t, await take('res-1'), 409, 'a resolved call cannot be taken', /res-1 is resolved/);
  const reopened = await report('res-1');
  t.match(reopened.body, { status: 'open', reportCount: 1 }, 'a report after resolve opens a new call');
  t.not(reopened.body.id, open.id);
  t.equal((await resolve('res-1', { resolution: 'reached' })).body.id, reopened.body.id, 'resolve acts on the open one');
  const audits = await server.sql`select data from audit_log where guild_id = ${G} and action = 'calls.resolve' order by id`;
  t.same(audits.map((a) => a.data.externalId), ['res-1', 'res-1']);
});

t.test('a report racing a take: the call ends up taken with both reports, whichever ran first; no new open call', async (t) => {
  for (let round = 0; round < 4; round++) {
    const id = `rt-${round}`;
    await report(id);
    const [rep, tk] = await Promise.all([report(id), take(id)]);
    t.equal(rep.status, 200);
    t.equal(tk.status, 200);
    const rows = await server.sql`select status, report_count from calls where guild_id = ${G} and external_id = ${id} order by id`;
    t.same(rows.map((r) => `${r.status}:${r.report_count}`), ['taken:2'], 'one call, taken, with both reports');
    t.equal((await api('GET', '/calls', { key })).body.calls.filter((c: any) => c.externalId === id).length, 0, 'nothing open');
  }
});
