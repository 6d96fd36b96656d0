import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { eventsAfter } from '../../server/hub/snapshot.ts';

const G = '555000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Ben Bravo', badge: '12', rank: 'dispatch' },
  { userId: 'u3', nickname: 'Cem Charlie', badge: '7' },
]);
const key = await unscopedKey(server.sql, G);

t.test('clock-in: 1, "1" and "01" are one badge; answers use two digits', async (t) => {
  const e0 = server.events.length;
  const res = await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
  t.equal(res.status, 200);
  t.match(res.body, { badgeNumber: '01', userId: 'u1', nickname: 'Anna Alpha', status: 'OPEN' });
  t.ok(!Number.isNaN(Date.parse(res.body.clockInAt)), 'clockInAt is a timestamp');
  t.same(Object.keys(res.body).sort(), ['badgeNumber', 'clockInAt', 'nickname', 'status', 'userId']);
  const duty = { op: 'duty', userId: 'u1', onDuty: true };
  t.same(server.events.slice(e0).filter((e) => e.guildId === G).map((e) => e.deltas), [{
    onDuty: [{ op: 'upsert', key: 'u1', value: { userId: 'u1', nickname: 'Anna Alpha', badge: '01', rank: 'Crew', since: Date.parse(res.body.clockInAt) } }],
    overview: [{ op: 'add', field: 'onDuty', by: 1 }],
    dispatchers: [duty], alarm: [duty], standby: [duty],
  }], 'one event with exactly these deltas; since = clockInAt in epoch ms');

  for (const badge of ['1', '01', 1]) {
    const again = await api('POST', '/admin/clock-in', { key, body: { badge } });
    t.equal(again.status, 409, `badge ${JSON.stringify(badge)} is the same person: 409`);
    t.same(Object.keys(again.body), ['error', 'reason', 'params']);
  }
});

t.test('clock-status of an on-duty badge', async (t) => {
  for (const b of ['1', '01', '001']) {
    const res = await api('GET', `/admin/clock-status/${b}`, { key });
    t.equal(res.status, 200);
    t.match(res.body, { badgeNumber: '01', clockedIn: true, status: 'OPEN' });
    t.ok(Date.parse(res.body.since) > 0);
  }
});

t.test('on-duty lists everyone clocked in', async (t) => {
  await api('POST', '/admin/clock-in', { key, body: { badge: '12' } });
  const res = await api('GET', '/admin/on-duty', { key });
  t.equal(res.status, 200);
  t.equal(res.body.count, 2);
  t.same(res.body.people.map((p: any) => p.badgeNumber).sort(), ['01', '12']);
  t.match(res.body.people[0], { userId: String, nickname: String, clockInAt: String, durationMs: Number });
});

t.test('clock-out closes the shift, frees dispatcher slots and unit seats', async (t) => {
  await server.sql`insert into dispatcher_slots (guild_id, slot, user_id) values (${G}, 1, 'u1'), (${G}, 3, 'u1')`;
  const [unit] = await server.sql`insert into units (guild_id, callsign) values (${G}, 'RTW-1') returning id`;
  await server.sql`insert into unit_members (guild_id, unit_id, user_id) values (${G}, ${unit.id}, 'u1')`;

  const e0 = server.events.length;
  const res = await api('POST', '/admin/clock-out', { key, body: { badge: '01' } });
  t.equal(res.status, 200);
  t.match(res.body, { badgeNumber: '01', userId: 'u1', status: 'CLOSED', clearedDispatcherSlots: [1, 3], leftUnits: ['RTW-1'] });
  t.ok(res.body.durationMs >= 0);

  // Exactly these ops, on the bus and when the log is replayed (it stores the clock-out's facts).
  const deltas = {
    onDuty: [{ op: 'remove', key: 'u1' }],
    overview: [{ op: 'add', field: 'onDuty', by: -1 }, { op: 'add', field: 'dispatchers', by: -2 }],
    dispatchers: [{ op: 'duty', userId: 'u1', onDuty: false }, { op: 'remove', key: '1' }, { op: 'remove', key: '3' }],
    units: [{ op: 'duty', userId: 'u1', onDuty: false }, { op: 'unlink', key: 'RTW-1', field: 'members', id: 'u1' }],
    alarm: [{ op: 'duty', userId: 'u1', onDuty: false }],
    access: [{ op: 'changed', userId: 'u1' }],
    einsatzEntries: [{ op: 'membersLeft', userId: 'u1', callsigns: ['RTW-1'] }],
  };
  const published = server.events.slice(e0).filter((e) => e.guildId === G);
  t.equal(published.length, 1, 'one event');
  t.same(published[0].deltas, deltas, 'the bus carries the deltas');
  const [replayed] = await eventsAfter(server.sql, G, published[0].seq - 1, 1);
  t.same(replayed.deltas, deltas, 'the event log replays to the same deltas');
  const [logged] = await server.sql`select seq::int, topics, deltas from events where guild_id = ${G} and seq = ${published[0].seq}`;
  const facts = logged.deltas;
  t.same([facts.v, facts.kind, facts.userId, facts.nickname, facts.badge, facts.slots, facts.callsigns], [1, 'clockOut', 'u1', 'Anna Alpha', '01', [1, 3], ['RTW-1']], 'the log stores the facts, named');
  t.equal(Date.parse(facts.clockInAt), Date.parse(res.body.clockInAt), 'with the answered clock-in time');
  t.equal(Date.parse(facts.clockOutAt), Date.parse(res.body.clockOutAt), 'and clock-out time');
  t.same(logged.topics, Object.keys(deltas).sort(), 'topics sorted, one per delta');
  const slots = await server.sql`select * from dispatcher_slots where guild_id = ${G} and user_id = 'u1'`;
  const seats = await server.sql`select * from unit_members where guild_id = ${G} and user_id = 'u1'`;
  t.equal(slots.length, 0, 'dispatcher slots cleared');
  t.equal(seats.length, 0, 'unit membership cleared');

  const status = await api('GET', '/admin/clock-status/1', { key });
  t.match(status.body, { badgeNumber: '01', clockedIn: false, status: 'CLOSED' });
  t.ok(Date.parse(status.body.since) > 0, 'since = last clock-out');

  const again = await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  t.equal(again.status, 409, 'clock-out when off duty is a conflict');
});

t.test('a badge nobody has: 404 on every route', async (t) => {
  for (const [method, path, body] of [['POST', '/admin/clock-in', { badge: 99 }], ['POST', '/admin/clock-out', { badge: '99' }], ['GET', '/admin/clock-status/99', undefined]] as const) {
    const res = await api(method, path, { key, body });
    t.equal(res.status, 404, `${method} ${path}`);
    t.match(res.body, { error: /badge 99/ });
  }
});

t.test('never clocked in: status OFF_DUTY, since the person was added', async (t) => {
  const res = await api('GET', '/admin/clock-status/7', { key });
  const [added] = await server.sql`select created_at from people where guild_id = ${G} and badge = '07'`;
  t.same(res.body, { badgeNumber: '07', clockedIn: false, status: 'OFF_DUTY', since: added.created_at.toISOString() });
});

t.test('clock-out touches only that person; without slots or seats its deltas carry the duty notices alone', async (t) => {
  // u2 (badge 12) is on duty from above and holds nothing; u3 clocks in and holds a slot and a seat.
  t.equal((await api('POST', '/admin/clock-in', { key, body: { badge: 7 } })).status, 200);
  await server.sql`insert into dispatcher_slots (guild_id, slot, user_id) values (${G}, 2, 'u3')`;
  const [unit] = await server.sql`insert into units (guild_id, callsign) values (${G}, 'RTW-2') returning id`;
  await server.sql`insert into unit_members (guild_id, unit_id, user_id) values (${G}, ${unit.id}, 'u3')`;

  const e0 = server.events.length;
  const res = await api('POST', '/admin/clock-out', { key, body: { badge: 12 } });
  t.equal(res.status, 200);
  t.match(res.body, { badgeNumber: '12', userId: 'u2', status: 'CLOSED', clearedDispatcherSlots: [], leftUnits: [] });
  const duty = { op: 'duty', userId: 'u2', onDuty: false };
  t.same(server.events.slice(e0).filter((e) => e.guildId === G).map((e) => e.deltas), [{
    onDuty: [{ op: 'remove', key: 'u2' }],
    overview: [{ op: 'add', field: 'onDuty', by: -1 }],
    dispatchers: [duty],
    units: [duty],
    alarm: [duty],
    access: [{ op: 'changed', userId: 'u2' }],
    einsatzEntries: [{ op: 'membersLeft', userId: 'u2', callsigns: [] }],
  }], 'one event; no remove, unlink or dispatcher count for what the person did not hold');

  const onDuty = await api('GET', '/admin/on-duty', { key });
  t.same(onDuty.body.people.map((p: any) => p.userId), ['u3'], 'the other person is still on duty');
  const [{ slots }] = await server.sql`select count(*)::int as slots from dispatcher_slots where guild_id = ${G} and user_id = 'u3'`;
  const [{ seats }] = await server.sql`select count(*)::int as seats from unit_members where guild_id = ${G} and user_id = 'u3'`;
  t.same([slots, seats], [1, 1], "and keeps their slot and seat");

  const out = await api('POST', '/admin/clock-out', { key, body: { badge: 7 } }); // later tests start with u3 off duty
  t.match(out.body, { userId: 'u3', clearedDispatcherSlots: [2], leftUnits: ['RTW-2'] });
});

t.test('bad badges are 400 with {error}', async (t) => {
  const bad = [-1, 1.5, 'abc', '-1', '1.5', '', ' 1', '1e3', null, true, [], {}, 1e12, '0x1', '1234567'];
  for (const badge of bad) {
    const res = await api('POST', '/admin/clock-in', { key, body: { badge } });
    t.equal(res.status, 400, `badge ${JSON.stringify(badge)}`);
    t.same(Object.keys(res.body), ['error', 'reason']);
    t.type(res.body.error, 'string');
  }
  for (const b of ['-1', '1.5', 'abc', '%20']) {
    const res = await api('GET', `/admin/clock-status/${b}`, { key });
    t.equal(res.status, 400, `path badge ${b}`);
  }
  const missing = await api('POST', '/admin/clock-in', { key, body: {} });
  t.equal(missing.status, 400);
  t.match(missing.body.error, /badge/);
  const none = await api('POST', '/admin/clock-in', { key });
  t.equal(none.status, 400, 'no body at all');
});

t.test('unknown keys, wrong shapes, malformed JSON, wrong content type', async (t) => {
  const extra = await api('POST', '/admin/clock-in', { key, body: { badge: 3, guildId: 'x' } });
  t.equal(extra.status, 400);
  t.match(extra.body.error, /unknown field guildId/);
  for (const raw of ['[1]', '"x"', '1', 'null']) {
    const res = await api('POST', '/admin/clock-in', { key, raw });
    t.equal(res.status, 400, `body ${raw}`);
  }
  for (const raw of ['{', '{"badge":1,}', 'badge=1', '\u0000']) {
    const res = await api('POST', '/admin/clock-in', { key, raw });
    t.equal(res.status, 400, `malformed ${JSON.stringify(raw)}`);
    t.equal(res.body.error, 'body is not valid JSON');
  }
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const res = await api('POST', '/admin/clock-in', { key, raw: '{"badge":1}', contentType });
    t.equal(res.status, 415, contentType);
  }
  const charset = await api('POST', '/admin/clock-in', { key, raw: '{"badge":7}', contentType: 'application/json; charset=utf-8' });
  t.equal(charset.status, 200, 'application/json with charset is JSON');
  await api('POST', '/admin/clock-out', { key, body: { badge: 7 } });
});

t.test('oversize bodies: 413, the server keeps running', async (t) => {
  const big = JSON.stringify({ badge: 1, pad: 'x'.repeat(1024 * 1024) });
  const res = await api('POST', '/admin/clock-in', { key, raw: big });
  t.equal(res.status, 413);
  t.match(res.body, { error: /larger than/ });
  const exact = '{"badge":1}' + ' '.repeat(1024 * 1024 - 11);
  const atLimit = await api('POST', '/admin/clock-in', { key, raw: exact });
  t.equal(atLimit.status, 200, 'exactly 1 MiB is accepted');
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  const health = await api('GET', '/health');
  t.same(health.body, { ok: true });
});

t.test('prototype keys are refused with their own message, not merged', async (t) => {
  const cases: [string, RegExp][] = [
    ['{"badge":1,"__proto__":{"admin":true}}', /^body must not contain the key __proto__$/],
    ['{"\\u005f_proto__":{"admin":true},"badge":1}', /^body must not contain the key __proto__$/],
    ['{"badge":1,"x":{"__proto__":{"admin":true}}}', /^body must not contain the key __proto__$/],
    ['{"badge":1,"constructor":{"prototype":{"admin":true}}}', /^body must not contain constructor\.prototype$/],
  ];
  for (const [raw, message] of cases) assertError(t, await api('POST', '/admin/clock-in', { key, raw }), 400, raw, message);
  assertError(t, await api('GET', '/admin/clock-status/1?__proto__=x', { key }), 400, 'in the query', /__proto__/);
  t.equal(({} as any).admin, undefined);
  t.equal((await api('GET', '/admin/clock-status/1', { key })).body.clockedIn, false, 'nothing was clocked in');
});

t.test('two concurrent clock-ins of one badge: exactly one 200 and one 409', async (t) => {
  for (let round = 0; round < 5; round++) {
    const results = await Promise.all([
      api('POST', '/admin/clock-in', { key, body: { badge: 12 === 12 ? '7' : '7' } }),
      api('POST', '/admin/clock-in', { key, body: { badge: 7 } }),
    ]);
    t.same(results.map((r) => r.status).sort(), [200, 409], `round ${round}`);
    const open = await server.sql`select count(*)::int as n from shifts where guild_id = ${G} and user_id = 'u3' and clock_out_at is null`;
    t.equal(open[0].n, 1, 'one open shift');
    await api('POST', '/admin/clock-out', { key, body: { badge: 7 } });
  }
});
