import t from 'tap';
import { startTestServer, client } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import type { Sql } from '../../server/store/db.ts';

/**
 * Exact duty time on a hand-built week in Europe/Berlin: the week of Monday 2026-03-23, whose
 * Sunday (29 March) springs forward at 02:00 — so the week has 167 hours and that Sunday 23.
 * Week: [2026-03-22T23:00Z, 2026-03-29T22:00Z).
 */
const H = 3_600_000;
const server = await startTestServer(t);
const api = client(server);
const g = 'stats-lb';
await seedGuild(server.sql, g, [
  { userId: 'a', nickname: 'Anna', badge: '1', rank: 'crew' },
  { userId: 'b', nickname: 'Ben', badge: '2', rank: 'dispatch' },
  { userId: 'c', nickname: 'Cem', badge: '3', rank: 'crew' },
  { userId: 'd', nickname: 'Dora', badge: '4', rank: 'crew' },
]);
await server.sql`update people set org_unit = 'Wache 1' where guild_id = ${g} and user_id in ('a', 'c')`;
const key = await unscopedKey(server.sql, g);

async function shift(sql: Sql, userId: string, from: string, to: string | null, status = to ? 'CLOSED' : 'OPEN') {
  await sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values (${g}, ${userId}, ${from}, ${to}, ${status})`;
}
// Anna: Sunday 22:00 CET before the week → Monday 02:00 (2 h inside), Saturday 20:00–23:00 CET (3 h)
await shift(server.sql, 'a', '2026-03-22T21:00:00Z', '2026-03-23T01:00:00Z');
await shift(server.sql, 'a', '2026-03-28T19:00:00Z', '2026-03-28T22:00:00Z');
// Ben: Sunday 01:00 CET → 04:00 CEST across the DST gap (2 h), Sunday 23:00 CEST → Monday 01:00 CEST (1 h inside)
await shift(server.sql, 'b', '2026-03-29T00:00:00Z', '2026-03-29T02:00:00Z');
await shift(server.sql, 'b', '2026-03-29T21:00:00Z', '2026-03-29T23:00:00Z');
// Cem forgot to clock out: Friday 10:00Z → Tuesday 10:00Z, 96 h, 35 h of them inside the week (the long-shift index)
await shift(server.sql, 'c', '2026-03-20T10:00:00Z', '2026-03-24T10:00:00Z', 'AUTO_CLOSED');
// the week before: Dora 4 h on Wednesday 18 March
await shift(server.sql, 'd', '2026-03-18T08:00:00Z', '2026-03-18T12:00:00Z');

const q = (path: string) => api('GET', path, { key });

t.test('a DST week: exact totals, rows best first, boundary-crossing and long shifts', async (t) => {
  const res = await q('/stats/leaderboard?period=weekly&date=2026-03-25');
  t.equal(res.status, 200, res.text);
  t.same(res.body.range, { from: '2026-03-22T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', firstDay: '2026-03-23', lastDay: '2026-03-29', timeZone: 'Europe/Berlin' });
  t.same(res.body.totals, { totalMs: 43 * H, totalShifts: 5, activeCount: 3 });
  t.same(res.body.rows.map((r: any) => [r.place, r.userId, r.badgeNumber, r.nickname, r.totalMs, r.shiftCount]), [
    [1, 'c', '03', 'Cem', 35 * H, 1], [2, 'a', '01', 'Anna', 5 * H, 2], [3, 'b', '02', 'Ben', 3 * H, 2],
  ]);
  t.equal(res.body.trend.unit, 'day');
  t.same(res.body.trend.series.map((p: any) => p.totalMs), [24 * H + 2 * H, 11 * H, 0, 0, 0, 3 * H, 3 * H], 'by local day; Sunday has 23 hours');
  t.same(res.body.trend.series.map((p: any) => p.label), ['Mo 23.03.', 'Di 24.03.', 'Mi 25.03.', 'Do 26.03.', 'Fr 27.03.', 'Sa 28.03.', 'So 29.03.']);
  // the week before: Cem Fri 20 10:00Z → Sun 22 23:00Z = 61 h, Anna 2 h, Dora 4 h
  t.same(res.body.trend.previous, { totalMs: 67 * H, totalShifts: 3, activeCount: 3, firstDay: '2026-03-16', lastDay: '2026-03-22' });
  t.equal(res.body.trend.changeMs, 43 * H - 67 * H);
  t.equal(res.body.trend.changePct, -35.8);
});

t.test('the previous week, the DST day and its 23 hours, October\'s 25', async (t) => {
  const prev = await q('/stats/leaderboard?period=weekly&date=2026-03-16');
  // Cem: Fri 20 10:00Z → Sun 22 23:00Z = 61 h; Anna: Sun 22 21:00Z → 23:00Z = 2 h; Dora 4 h
  t.same(prev.body.totals, { totalMs: 67 * H, totalShifts: 3, activeCount: 3 });
  const day = await q('/stats/leaderboard?period=daily&date=2026-03-29');
  t.same(day.body.range, { from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z', firstDay: '2026-03-29', lastDay: '2026-03-29', timeZone: 'Europe/Berlin' });
  t.same(day.body.totals, { totalMs: 3 * H, totalShifts: 2, activeCount: 1 });
  t.equal(day.body.trend.series.length, 23, '23 local hours');
  t.same(day.body.trend.series.slice(0, 4).map((p: any) => p.label), ['00:00', '01:00', '03:00', '04:00'], '02:00 does not exist');
  const autumn = await q('/stats/leaderboard?period=daily&date=2026-10-25');
  t.equal(autumn.body.trend.series.length, 25, '25 local hours');
  t.equal(autumn.body.range.from, '2026-10-24T22:00:00.000Z');
  t.equal(autumn.body.range.to, '2026-10-25T23:00:00.000Z');
});

t.test('monthly, custom, alltime: whole shifts inside, limit cuts rows not totals', async (t) => {
  const month = await q('/stats/leaderboard?period=monthly&date=2026-03-31');
  t.same(month.body.range.firstDay, '2026-03-01');
  t.same(month.body.range.lastDay, '2026-03-31');
  // every shift lies in March: Anna 4 + 3, Ben 2 + 2, Cem 96, Dora 4
  t.same(month.body.totals, { totalMs: 111 * H, totalShifts: 6, activeCount: 4 });
  t.equal(month.body.trend.series.length, 31);
  t.equal(month.body.trend.previous.firstDay, '2026-02-01');
  const custom = await q('/stats/leaderboard?period=custom&from=2026-03-23&to=2026-03-23');
  t.same(custom.body.totals, { totalMs: 26 * H, totalShifts: 2, activeCount: 2 }, 'one day: Anna 2 h + Cem 24 h');
  t.same(custom.body.trend.previous.firstDay, '2026-03-22', 'the same number of days right before');
  const limited = await q('/stats/leaderboard?period=weekly&date=2026-03-25&limit=1');
  t.equal(limited.body.rows.length, 1);
  t.same(limited.body.totals, { totalMs: 43 * H, totalShifts: 5, activeCount: 3 });
  const all = await q('/stats/leaderboard?period=alltime&limit=500');
  t.equal(all.body.range.from, null);
  t.same(all.body.totals, { totalMs: 111 * H, totalShifts: 6, activeCount: 4 });
  t.equal(all.body.trend.previous, null);
  t.equal(all.body.trend.unit, 'month');
  t.equal(all.body.trend.series[0].label, 'Mär 2026', 'from the month of the first shift');
  t.equal(all.body.trend.series[0].totalMs, 111 * H);
});

t.test('filters: rank and organisation unit (as people are now)', async (t) => {
  const crew = await q('/stats/leaderboard?period=weekly&date=2026-03-25&rank=crew');
  t.same(crew.body.rows.map((r: any) => r.userId), ['c', 'a']);
  t.same(crew.body.filter, { rank: 'crew', orgUnit: null });
  const unit = await q('/stats/leaderboard?period=monthly&date=2026-03-01&orgUnit=' + encodeURIComponent('Wache 1'));
  t.same(unit.body.totals, { totalMs: 103 * H, totalShifts: 3, activeCount: 2 });
  const nobody = await q('/stats/leaderboard?rank=unknown-rank');
  t.same(nobody.body.rows, []);
  t.same(nobody.body.totals, { totalMs: 0, totalShifts: 0, activeCount: 0 });
});

t.test('open shifts count up to now', async (t) => {
  const before = Date.now();
  await server.sql`insert into shifts (guild_id, user_id, clock_in_at) values (${g}, 'd', now() - interval '90 minutes')`;
  const res = await q('/stats/leaderboard?period=alltime');
  const after = Date.now();
  const dora = res.body.rows.find((r: any) => r.userId === 'd');
  t.ok(dora.totalMs >= 4 * H + 90 * 60_000 && dora.totalMs <= 4 * H + 90 * 60_000 + (after - before) + 1000, `open shift up to now: ${dora.totalMs}`);
  t.equal(dora.shiftCount, 2);
  const me = await q('/stats/user/d?period=alltime&detail=true');
  t.equal(me.body.totals.onDutyNow, true);
  t.equal(me.body.shifts[0].clockOutAt, null);
  t.equal(me.body.shifts[0].status, 'OPEN');
  await server.sql`delete from shifts where guild_id = ${g} and user_id = 'd' and clock_out_at is null`;
});

t.test('one person: totals, average, longest, by weekday, detail', async (t) => {
  const anna = await q('/stats/user/a?period=weekly&date=2026-03-25&detail=true');
  t.equal(anna.status, 200, anna.text);
  t.same(anna.body.totals, { totalMs: 5 * H, shiftCount: 2, averageShiftMs: 2.5 * H, longestShiftMs: 3 * H, onDutyNow: false });
  t.same(anna.body.byWeekday.map((d: any) => d.totalMs), [2 * H, 0, 0, 0, 0, 3 * H, 0]);
  t.same(anna.body.shifts.map((s: any) => [s.clockInAt, s.durationMs, s.inPeriodMs]), [
    ['2026-03-28T19:00:00.000Z', 3 * H, 3 * H], ['2026-03-22T21:00:00.000Z', 4 * H, 2 * H],
  ]);
  const cem = await q('/stats/user/c?period=weekly&date=2026-03-25');
  t.same(cem.body.byWeekday.map((d: any) => d.totalMs), [24 * H, 11 * H, 0, 0, 0, 0, 0], 'Tuesday ends at 11:00 CET');
  t.equal(cem.body.shifts, undefined, 'no detail without detail=true');
  t.same(cem.body.trend.previous.totalMs, 61 * H);
  // the person's numbers equal their leaderboard row, whatever the period
  for (const period of ['daily&date=2026-03-29', 'weekly&date=2026-03-25', 'monthly&date=2026-03-10', 'alltime', 'custom&from=2026-03-01&to=2026-03-24']) {
    const board = await q(`/stats/leaderboard?limit=500&period=${period}`);
    for (const row of board.body.rows) {
      const one = await q(`/stats/user/${row.userId}?period=${period}`);
      t.equal(one.body.totals.totalMs, row.totalMs, `${period} ${row.userId}`);
      t.equal(one.body.totals.shiftCount, row.shiftCount, `${period} ${row.userId} shifts`);
    }
  }
  const unknown = await q('/stats/user/nobody');
  t.equal(unknown.status, 404);
});

t.test('the guild\'s time zone moves the days', async (t) => {
  const res = await api('PATCH', '/admin/clock-settings', { key, body: { timeZone: 'America/New_York' } });
  t.equal(res.status, 200, res.text);
  t.equal(res.body.timeZone, 'America/New_York');
  const day = await q('/stats/leaderboard?period=daily&date=2026-03-28');
  // 28 March in New York (EDT, UTC−4): [04:00Z, 04:00Z next day): Anna 3 h, Ben's 00:00–02:00Z on the 29th
  t.equal(day.body.range.from, '2026-03-28T04:00:00.000Z');
  t.same(day.body.totals, { totalMs: 5 * H, totalShifts: 2, activeCount: 2 });
  const bad = await api('PATCH', '/admin/clock-settings', { key, body: { timeZone: 'Mars/Olympus' } });
  t.equal(bad.status, 400);
  t.match(bad.body.error, /time zone/);
  await api('PATCH', '/admin/clock-settings', { key, body: { timeZone: 'Europe/Berlin' } });
});

t.test('long forgotten shifts of every length count with their part inside (the index tiers)', async (t) => {
  const l = 'stats-long';
  await seedGuild(server.sql, l, [{ userId: 'x', nickname: 'X', badge: '1', rank: 'crew' }, { userId: 'y', nickname: 'Y', badge: '2', rank: 'crew' }]);
  const keyL = await unscopedKey(server.sql, l);
  // the week of Monday 2026-05-04 (CEST): [2026-05-03T22:00Z, 2026-05-10T22:00Z)
  await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values
    (${l}, 'x', '2026-04-20T00:00:00Z', '2026-05-05T22:00:00Z', 'CLOSED'),
    (${l}, 'y', '2026-05-09T12:00:00Z', '2026-05-12T12:00:00Z', 'CLOSED'),
    (${l}, 'y', '2026-05-01T00:00:00Z', '2026-05-11T00:00:00Z', 'CLOSED')`;
  // x: 16 days, 2 of them inside; y: 3 days (34 h inside) and 10 days (all 7 days of the week inside)
  const week = await api('GET', '/stats/leaderboard?period=weekly&date=2026-05-06', { key: keyL });
  t.same(week.body.rows.map((r: any) => [r.userId, r.totalMs, r.shiftCount]), [['y', 34 * H + 168 * H, 2], ['x', 48 * H, 1]]);
  const series = week.body.trend.series.map((p: any) => p.totalMs);
  t.same(series, [48 * H, 48 * H, 24 * H, 24 * H, 24 * H, 24 * H + 10 * H, 48 * H], 'per day, across the tiers');
  const later = await api('GET', '/stats/leaderboard?period=daily&date=2026-05-11', { key: keyL });
  t.same(later.body.totals, { totalMs: 24 * H + 2 * H, totalShifts: 2, activeCount: 1 }, 'Monday 11 May: all of y\'s 3-day shift, 2 h of the 10-day one');
});
