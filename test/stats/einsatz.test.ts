import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import type { Sql } from '../../server/store/db.ts';

// GET /stats/einsatz: exact figures of a hand-built set of calls, sheets and unit alarms in the week
// of 2026-03-23 (Europe/Berlin; its Sunday, 29 March, is the 23-hour day of the switch to summer
// time), local-day bounds, the previous period, alltime, the parameter rules, and a call taken and
// closed through the real routes.
const A = '580000000000000001';
const B = '580000000000000002';
const R = '580000000000000003';
const server = await startTestServer(t);
const api = client(server);
for (const g of [A, B, R]) await seedGuild(server.sql, g);
const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);
const keyR = await unscopedKey(server.sql, R);

const at = (s: string) => new Date(s);
let seq = 0;
async function insertCall(sql: Sql, guildId: string, c: { kind?: string; priority?: number; status: string; created: string; taken?: string; reports?: number }) {
  const [row] = await sql`insert into calls (guild_id, external_id, status, kind, priority, title, report_count, created_at, updated_at, taken_at, resolved_at)
    values (${guildId}, ${`ext-${++seq}`}, ${c.status}, ${c.kind ?? 'notruf'}, ${c.priority ?? 2}, 'Meldung', ${c.reports ?? 1}, ${at(c.created)}, ${at(c.created)},
      ${c.taken ? at(c.taken) : null}, ${c.status === 'resolved' ? at(c.created) : null}) returning id`;
  return row.id as string;
}
async function insertSheet(sql: Sql, guildId: string, number: number, s: { priority: number; created: string; closed?: string; callId?: string }) {
  await sql`insert into incidents (guild_id, number, keyword, priority, state, call_id, created_by_kind, created_by_id, created_at, updated_at, closed_at)
    values (${guildId}, ${number}, 'Einsatz', ${s.priority}, ${s.closed ? 'closed' : 'open'}, ${s.callId ?? null}, 'system', 'test',
      ${at(s.created)}, ${at(s.created)}, ${s.closed ? at(s.closed) : null})`;
}
async function insertEntry(sql: Sql, guildId: string, number: number, kind: string, text: string, when: string) {
  await sql`insert into incident_entries (guild_id, number, kind, text, by_kind, by_id, at) values (${guildId}, ${number}, ${kind}, ${text}, 'system', 'test', ${at(when)})`;
}

// Calls of guild A. Week 2026-03-23 … 29 is [2026-03-22T23:00Z, 2026-03-29T22:00Z).
const c1 = await insertCall(server.sql, A, { status: 'taken', created: '2026-03-23T00:10:00+01:00', taken: '2026-03-23T00:12:00+01:00' }); // take 120 s
const c2 = await insertCall(server.sql, A, { kind: 'panik', priority: 1, status: 'resolved', created: '2026-03-24T10:00:00+01:00', taken: '2026-03-24T10:00:30+01:00', reports: 3 }); // 30 s
await insertCall(server.sql, A, { kind: 'alarm', priority: 1, status: 'resolved', created: '2026-03-25T12:00:00+01:00', reports: 2 }); // resolved without take
await insertCall(server.sql, A, { kind: 'hinweis', priority: 3, status: 'open', created: '2026-03-26T08:00:00+01:00' });
const c6 = await insertCall(server.sql, A, { status: 'taken', created: '2026-03-28T20:00:00+01:00', taken: '2026-03-28T20:05:00+01:00' }); // 300 s
await insertCall(server.sql, A, { kind: 'hinweis', priority: 3, status: 'open', created: '2026-03-29T00:00:00+01:00' }); // first instant of the DST day
await insertCall(server.sql, A, { status: 'open', created: '2026-03-29T23:30:00+02:00' }); // 23:30 local on the last day: inside
await insertCall(server.sql, A, { priority: 1, status: 'open', created: '2026-03-30T00:10:00+02:00' }); // 00:10 the next day: next week
await insertCall(server.sql, A, { status: 'taken', created: '2026-03-22T23:59:50+01:00', taken: '2026-03-23T00:00:40+01:00' }); // reported the week before, taken in it after 50 s
await insertCall(server.sql, A, { kind: 'panik', priority: 1, status: 'taken', created: '2026-03-18T10:00:00+01:00', taken: '2026-03-18T10:01:00+01:00', reports: 2 }); // previous week, 60 s

// Sheets of guild A.
await insertSheet(server.sql, A, 1, { priority: 2, created: '2026-03-23T00:12:00+01:00', callId: c1 });
await insertSheet(server.sql, A, 2, { priority: 1, created: '2026-03-24T10:00:30+01:00', closed: '2026-03-24T11:00:30+01:00', callId: c2 }); // 1 h
await insertSheet(server.sql, A, 3, { priority: 3, created: '2026-03-26T09:00:00+01:00', closed: '2026-03-29T10:00:00+02:00' }); // 72 h across the switch
await insertSheet(server.sql, A, 4, { priority: 2, created: '2026-03-18T10:00:00+01:00', closed: '2026-03-23T10:00:00+01:00' }); // 120 h, closed in the week
await insertSheet(server.sql, A, 5, { priority: 2, created: '2026-03-28T20:05:00+01:00', callId: c6 });
await insertSheet(server.sql, A, 6, { priority: 1, created: '2026-03-30T00:20:00+02:00' });

// Unit alarms (the sheets' timelines).
await insertEntry(server.sql, A, 1, 'unit_assigned', 'rtw 1 alarmiert', '2026-03-23T00:13:00+01:00');
await insertEntry(server.sql, A, 1, 'unit_assigned', 'HLF 20 alarmiert', '2026-03-23T00:14:00+01:00');
await insertEntry(server.sql, A, 2, 'unit_assigned', 'RTW 1 alarmiert', '2026-03-24T10:01:00+01:00');
await insertEntry(server.sql, A, 2, 'unit_released', 'RTW 1 aus dem Einsatz entlassen', '2026-03-24T10:20:00+01:00');
await insertEntry(server.sql, A, 2, 'unit_assigned', 'RTW 1 alarmiert', '2026-03-24T10:30:00+01:00');
await insertEntry(server.sql, A, 3, 'unit_assigned', 'HLF 20 alarmiert', '2026-03-26T09:05:00+01:00');
await insertEntry(server.sql, A, 5, 'unit_assigned', 'NEF 3 alarmiert', '2026-03-28T20:06:00+01:00');
await insertEntry(server.sql, A, 5, 'note', 'Zweiter RTW alarmiert', '2026-03-28T20:07:00+01:00');
await insertEntry(server.sql, A, 6, 'unit_assigned', 'RTW 1 alarmiert', '2026-03-30T00:21:00+02:00');
await insertEntry(server.sql, A, 4, 'unit_assigned', 'ELW 1 alarmiert', '2026-03-18T10:05:00+01:00');

// Guild B has its own call and sheet in the same week.
await insertCall(server.sql, B, { status: 'taken', created: '2026-03-24T12:00:00+01:00', taken: '2026-03-24T12:00:01+01:00' });
await insertSheet(server.sql, B, 1, { priority: 1, created: '2026-03-24T12:00:01+01:00', closed: '2026-03-24T12:00:02+01:00' });
await insertEntry(server.sql, B, 1, 'unit_assigned', 'B-1 alarmiert', '2026-03-24T12:00:01+01:00');

const stats = (query: string, key = keyA) => api('GET', `/stats/einsatz${query}`, { key });

const week = {
  period: 'weekly',
  range: { from: '2026-03-22T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', firstDay: '2026-03-23', lastDay: '2026-03-29', timeZone: 'Europe/Berlin' },
  calls: {
    total: 7, reports: 10, byKind: { notruf: 3, panik: 1, alarm: 1, hinweis: 2 }, byPriority: { 1: 2, 2: 3, 3: 2 },
    taken: 3, resolvedWithoutTake: 1, open: 3, dismissed: 0, dismissedByReason: { Fehlalarm: 0, Doppelt: 0, Erledigt: 0, other: 0 },
  },
  // 30 s, 50 s, 120 s, 300 s: median between 50 and 120; p90 at 0.9 × 3 = 2.7 → 120 + 0.7 × 180 s
  takeTime: { count: 4, avgMs: 125_000, medianMs: 85_000, p90Ms: 246_000, maxMs: 300_000 },
  incidents: {
    opened: 4, fromCalls: 3, stillOpen: 2, byPriority: { 1: 1, 2: 2, 3: 1 }, closed: 3, openNow: 3,
    // 1 h, 72 h, 120 h: p90 at 1.8 → 72 h + 0.8 × 48 h
    duration: { count: 3, avgMs: 231_600_000, medianMs: 259_200_000, p90Ms: 397_440_000, maxMs: 432_000_000 },
  },
  units: { involved: 3, assignments: 6, top: [{ callsign: 'HLF 20', incidents: 2 }, { callsign: 'RTW 1', incidents: 2 }, { callsign: 'NEF 3', incidents: 1 }] },
  headline: { calls: 7, reports: 10, taken: 4, takeMedianMs: 85_000, incidentsOpened: 4, incidentsClosed: 3, durationMedianMs: 259_200_000, unitsInvolved: 3 },
  previous: {
    range: { from: '2026-03-15T23:00:00.000Z', to: '2026-03-22T23:00:00.000Z', firstDay: '2026-03-16', lastDay: '2026-03-22', timeZone: 'Europe/Berlin' },
    headline: { calls: 2, reports: 3, taken: 1, takeMedianMs: 60_000, incidentsOpened: 1, incidentsClosed: 0, durationMedianMs: null, unitsInvolved: 1 },
  },
};

t.test('a week: exact calls, take times, sheets, units and the previous week', async (t) => {
  const res = await stats('?period=weekly&date=2026-03-26');
  t.equal(res.status, 200);
  t.same(res.body, week);
  t.same((await stats('?period=weekly&date=2026-03-29')).body, week, 'any day of the week picks it, the DST Sunday too');
  const custom = await stats('?period=custom&from=2026-03-23&to=2026-03-29');
  t.same({ ...custom.body, period: 'weekly' }, week, 'the same days as a custom range give the same figures');
  t.equal(custom.body.period, 'custom');
});

t.test('local days: 23:30 on the last day is inside, 00:10 the next day is not; the DST day has 23 hours', async (t) => {
  const sunday = (await stats('?period=daily&date=2026-03-29')).body;
  t.same(sunday.range, { from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', firstDay: '2026-03-29', lastDay: '2026-03-29', timeZone: 'Europe/Berlin' });
  t.equal(Date.parse(sunday.range.to) - Date.parse(sunday.range.from), 23 * 3_600_000, '23 hours');
  t.same(sunday.calls.byKind, { notruf: 1, panik: 0, alarm: 0, hinweis: 1 }, '00:00 and 23:30 local');
  t.match(sunday.incidents, { opened: 0, closed: 1, duration: { count: 1, avgMs: 259_200_000, medianMs: 259_200_000, p90Ms: 259_200_000, maxMs: 259_200_000 } });
  t.same(sunday.takeTime, { count: 0, avgMs: null, medianMs: null, p90Ms: null, maxMs: null }, 'no take: null figures');
  t.match(sunday.previous, { range: { firstDay: '2026-03-28', lastDay: '2026-03-28' }, headline: { calls: 1, taken: 1, takeMedianMs: 300_000, incidentsOpened: 1, unitsInvolved: 1 } });

  const monday = (await stats('?period=daily&date=2026-03-30')).body;
  t.match(monday, { calls: { total: 1, byPriority: { 1: 1, 2: 0, 3: 0 } }, incidents: { opened: 1, byPriority: { 1: 1 } }, units: { involved: 1, top: [{ callsign: 'RTW 1', incidents: 1 }] } });
  t.equal(monday.range.from, '2026-03-29T22:00:00.000Z', 'Monday starts at 00:00 summer time');

  const autumn = (await stats('?period=daily&date=2026-10-25')).body.range;
  t.equal(Date.parse(autumn.to) - Date.parse(autumn.from), 25 * 3_600_000, 'the day back to winter time has 25 hours');
});

t.test('a month, alltime and a range with nothing in it', async (t) => {
  const march = (await stats('?period=monthly&date=2026-03-01')).body;
  t.match(march, { range: { firstDay: '2026-03-01', lastDay: '2026-03-31' }, calls: { total: 10, reports: 14 }, incidents: { opened: 6, closed: 3 }, units: { involved: 4, assignments: 8 } });
  t.match(march.previous, { range: { firstDay: '2026-02-01', lastDay: '2026-02-28' }, headline: { calls: 0 } });

  const all = (await stats('?period=alltime')).body;
  t.equal(all.range.from, null);
  t.equal(all.range.firstDay, null);
  t.ok(Math.abs(Date.parse(all.range.to) - Date.now()) < 60_000, 'alltime runs to now');
  t.equal(all.previous, null, 'alltime has no previous period');
  t.match(all, { calls: { total: 10 }, takeTime: { count: 5 }, incidents: { opened: 6, closed: 3, openNow: 3 } });

  const empty = (await stats('?period=custom&from=2025-01-01&to=2025-12-31')).body;
  t.same(empty.calls, { total: 0, reports: 0, byKind: { notruf: 0, panik: 0, alarm: 0, hinweis: 0 }, byPriority: { 1: 0, 2: 0, 3: 0 }, taken: 0, resolvedWithoutTake: 0, open: 0, dismissed: 0, dismissedByReason: { Fehlalarm: 0, Doppelt: 0, Erledigt: 0, other: 0 } });
  t.same(empty.units, { involved: 0, assignments: 0, top: [] });
  t.same(empty.incidents.duration, { count: 0, avgMs: null, medianMs: null, p90Ms: null, maxMs: null });
  t.equal(empty.incidents.openNow, 3, 'open now, whatever the period');
  t.match(empty.previous.range, { firstDay: '2024-01-02', lastDay: '2024-12-31' }, 'the 365 days before (2024 has 366)');
});

t.test('units: at most 20 listed, all counted', async (t) => {
  await insertSheet(server.sql, A, 7, { priority: 2, created: '2026-01-10T10:00:00+01:00', closed: '2026-01-10T12:00:00+01:00' });
  await insertSheet(server.sql, A, 8, { priority: 2, created: '2026-01-10T11:00:00+01:00', closed: '2026-01-10T12:00:00+01:00' });
  for (let i = 1; i <= 25; i++) await insertEntry(server.sql, A, 7, 'unit_assigned', `U${String(i).padStart(2, '0')} alarmiert`, '2026-01-10T10:01:00+01:00');
  await insertEntry(server.sql, A, 8, 'unit_assigned', 'U25 alarmiert', '2026-01-10T11:01:00+01:00');
  const { units } = (await stats('?period=daily&date=2026-01-10')).body;
  t.equal(units.involved, 25);
  t.equal(units.assignments, 26);
  t.equal(units.top.length, 20);
  t.same(units.top.slice(0, 3), [{ callsign: 'U25', incidents: 2 }, { callsign: 'U01', incidents: 1 }, { callsign: 'U02', incidents: 1 }]);
});

t.test('units: assignments ("zugewiesen") and alarms (unit_alarmed) both count, older "alarmiert" assignments too', async (t) => {
  await insertSheet(server.sql, A, 9, { priority: 2, created: '2026-01-12T10:00:00+01:00', closed: '2026-01-12T12:00:00+01:00' });
  await insertEntry(server.sql, A, 9, 'unit_assigned', 'RTW 9 zugewiesen', '2026-01-12T10:01:00+01:00');
  await insertEntry(server.sql, A, 9, 'unit_alarmed', 'RTW 9 alarmiert', '2026-01-12T10:02:00+01:00');
  await insertEntry(server.sql, A, 9, 'unit_alarmed', 'NEF 9 alarmiert', '2026-01-12T10:03:00+01:00');
  await insertEntry(server.sql, A, 9, 'unit_released', 'KTW 9 zu Einsatz 10 umalarmiert', '2026-01-12T10:04:00+01:00');
  const { units } = (await stats('?period=daily&date=2026-01-12')).body;
  t.equal(units.involved, 2, 'RTW 9 and NEF 9; a release is no assignment');
  t.equal(units.assignments, 3, 'the assignment and each alarm');
  t.same(units.top, [{ callsign: 'NEF 9', incidents: 1 }, { callsign: 'RTW 9', incidents: 1 }]);
});

t.test('guild B sees only its own figures, A never B\'s', async (t) => {
  const b = (await stats('?period=weekly&date=2026-03-26', keyB)).body;
  t.match(b, { calls: { total: 1, taken: 1 }, takeTime: { count: 1, maxMs: 1000 }, incidents: { opened: 1, closed: 1, openNow: 0 }, units: { involved: 1, top: [{ callsign: 'B-1', incidents: 1 }] } });
  t.match((await stats('?period=alltime', keyB)).body, { calls: { total: 1 }, incidents: { opened: 1 } });
  t.same((await stats('?period=weekly&date=2026-03-26')).body, week, 'A unchanged by B');
});

t.test('parameters: every invalid one is a 400 with its reason', async (t) => {
  t.equal((await stats('?period=custom&from=2025-03-30&to=2026-03-30')).status, 200, '366 days');
  t.equal((await stats('?period=custom&from=2026-03-29&to=2026-03-29')).status, 200, 'one day');
  t.equal((await stats('')).body.period, 'weekly', 'weekly by default');
  const bad: [string, RegExp][] = [
    ['?period=custom&from=2025-03-30&to=2026-03-31', /at most 366 days/],
    ['?period=custom&from=2026-03-29&to=2026-03-28', /from must not be after to/],
    ['?period=custom&from=2026-03-01', /needs both from and to/],
    ['?period=custom&to=2026-03-01', /needs both from and to/],
    ['?period=custom', /needs both from and to/],
    ['?period=daily&date=2026-02-30', /date must be a date YYYY-MM-DD that exists/],
    ['?period=custom&from=2026-02-30&to=2026-03-01', /from must be a date/],
    ['?period=daily&date=26.03.2026', /date must be a date/],
    ['?period=hourly', /period must be daily, weekly, monthly, alltime or custom/],
    ['?period=weekly&from=2026-03-01&to=2026-03-02', /only to period=custom/],
    ['?period=alltime&date=2026-03-01', /date does not apply to period=alltime/],
    ['?period=custom&from=2026-03-01&to=2026-03-02&date=2026-03-01', /date does not apply to period=custom/],
    ['?limit=5', /limit/],
    ['?rank=crew', /rank/],
  ];
  for (const [query, message] of bad) assertError(t, await stats(query), 400, query, message);
});

t.test('a call reported, taken, alarmed and closed through the routes is counted', async (t) => {
  await server.sql`insert into units (guild_id, callsign) values (${R}, 'RTW 7')`;
  const reported = await api('POST', '/integrations/ingame/calls', { key: keyR, body: { externalId: 'qb:1', title: 'Unfall', kind: 'notruf', priority: 1 } });
  t.equal(reported.status, 200);
  await api('POST', '/integrations/ingame/calls', { key: keyR, body: { externalId: 'qb:1', title: 'Unfall' } });
  const taken = await api('POST', '/calls/qb:1/take', { key: keyR });
  t.equal(taken.status, 200);
  const number = taken.body.incident.number;
  t.equal((await api('PUT', `/incidents/${number}/units/rtw%207`, { key: keyR })).status, 200);
  t.equal((await api('POST', `/incidents/${number}/close`, { key: keyR, body: {} })).status, 200);
  const [sheet] = await server.sql`select created_at, closed_at from incidents where guild_id = ${R} and number = ${number}`;

  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(reported.body.createdAt));
  const res = await stats(`?period=daily&date=${day}`, keyR);
  t.equal(res.status, 200);
  // Times in answers are whole ms; the stored ones have µs, so a duration may differ by 1 ms from the answers' difference.
  const near = (actual: number, expected: number) => Math.abs(actual - expected) <= 1;
  const takeMs = Date.parse(taken.body.call.takenAt) - Date.parse(reported.body.createdAt);
  const openMs = (sheet.closed_at as Date).getTime() - (sheet.created_at as Date).getTime();
  t.same(res.body.calls, { total: 1, reports: 2, byKind: { notruf: 1, panik: 0, alarm: 0, hinweis: 0 }, byPriority: { 1: 1, 2: 0, 3: 0 }, taken: 1, resolvedWithoutTake: 0, open: 0, dismissed: 0, dismissedByReason: { Fehlalarm: 0, Doppelt: 0, Erledigt: 0, other: 0 } });
  const { takeTime, incidents } = res.body;
  t.equal(takeTime.count, 1);
  t.ok(near(takeTime.maxMs, takeMs), `take time ${takeTime.maxMs} ms ≈ ${takeMs} ms`);
  t.same([takeTime.avgMs, takeTime.medianMs, takeTime.p90Ms], [takeTime.maxMs, takeTime.maxMs, takeTime.maxMs], 'one take: every figure is it');
  t.match(incidents, { opened: 1, fromCalls: 1, stillOpen: 0, byPriority: { 1: 1, 2: 0, 3: 0 }, closed: 1, openNow: 0, duration: { count: 1 } });
  t.ok(near(incidents.duration.maxMs, openMs), `open ${incidents.duration.maxMs} ms ≈ ${openMs} ms`);
  t.equal(incidents.duration.medianMs, incidents.duration.maxMs);
  t.same(res.body.units, { involved: 1, assignments: 1, top: [{ callsign: 'RTW 7', incidents: 1 }] });
});
