import t from 'tap';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

/**
 * The heatmap on a hand-built Wednesday, 2026-06-10 in Europe/Berlin (UTC+2): Anna 08–12, Ben
 * 09:30–11, Cem 11–14 local (Ben hands over to Cem at 11:00 sharp). Minimum 2 on duty.
 */
const H = 3_600_000;
const server = await startTestServer(t);
const api = client(server);
const g = 'heat';
await seedGuild(server.sql, g, ['a', 'b', 'c'].map((u, i) => ({ userId: u, nickname: u.toUpperCase(), badge: String(i + 1), rank: 'crew' })));
await seedGuild(server.sql, 'other', [{ userId: 'a', nickname: 'A', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, g);
await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values
  (${g}, 'a', '2026-06-10T06:00:00Z', '2026-06-10T10:00:00Z', 'CLOSED'),
  (${g}, 'b', '2026-06-10T07:30:00Z', '2026-06-10T09:00:00Z', 'CLOSED'),
  (${g}, 'c', '2026-06-10T09:00:00Z', '2026-06-10T12:00:00Z', 'CLOSED'),
  ('other', 'a', '2026-06-10T00:00:00Z', '2026-06-10T20:00:00Z', 'CLOSED')`;

t.test('the staffing minimum is a setting of its own', async (t) => {
  t.same((await api('GET', '/stats/staffing', { key })).body, { minOnDuty: 0, timeZone: 'Europe/Berlin' });
  assertError(t, await api('PUT', '/stats/staffing', { key, body: { minOnDuty: -1 } }), 400, '-1', /minOnDuty/);
  assertError(t, await api('PUT', '/stats/staffing', { key, body: { minOnDuty: 1001 } }), 400, '1001', /minOnDuty/);
  assertError(t, await api('PUT', '/stats/staffing', { key, body: {} }), 400, 'missing');
  const set = await api('PUT', '/stats/staffing', { key, body: { minOnDuty: 2 } });
  t.same(set.body, { minOnDuty: 2, timeZone: 'Europe/Berlin' });
  const [audit] = await server.sql`select data from audit_log where guild_id = ${g} and action = 'stats.staffing_set'`;
  t.same(audit.data, { minOnDuty: 2 });
});

t.test('a day: head counts, dips and the handover that is not one', async (t) => {
  const res = await api('GET', '/stats/heatmap?period=daily&date=2026-06-10', { key });
  t.equal(res.status, 200, res.text);
  t.equal(res.body.minOnDuty, 2);
  t.equal(res.body.cells.length, 168);
  const wed = (hour: number) => res.body.cells.find((c: any) => c.weekday === 3 && c.hour === hour);
  t.same(wed(8), { weekday: 3, hour: 8, hours: 1, avgOnDuty: 1, maxOnDuty: 1, understaffedHours: 1 });
  t.same(wed(9), { weekday: 3, hour: 9, hours: 1, avgOnDuty: 1.5, maxOnDuty: 2, understaffedHours: 1 }, 'below 2 until 09:30');
  t.same(wed(10), { weekday: 3, hour: 10, hours: 1, avgOnDuty: 2, maxOnDuty: 2, understaffedHours: 0 });
  t.same(wed(11), { weekday: 3, hour: 11, hours: 1, avgOnDuty: 2, maxOnDuty: 2, understaffedHours: 0 }, 'Ben leaves as Cem arrives: no dip');
  t.same(wed(12), { weekday: 3, hour: 12, hours: 1, avgOnDuty: 1, maxOnDuty: 1, understaffedHours: 1 });
  t.equal(res.body.cells.filter((c: any) => c.hours > 0).length, 24, 'only Wednesday\'s 24 hours were measured');
  t.same(res.body.totals, { hours: 24, staffMs: 8.5 * H, understaffedHours: 22, understaffedRuns: 2 });
  t.same(res.body.understaffed, [
    { from: '2026-06-09T22:00:00.000Z', to: '2026-06-10T08:00:00.000Z', lowest: 0, shortMs: 9.5 * H },
    { from: '2026-06-10T10:00:00.000Z', to: '2026-06-10T22:00:00.000Z', lowest: 0, shortMs: 12 * H },
  ]);
});

t.test('minOnDuty of the query; 0 is no minimum; filters', async (t) => {
  const one = await api('GET', '/stats/heatmap?period=daily&date=2026-06-10&minOnDuty=1', { key });
  t.equal(one.body.totals.understaffedHours, 18, 'only the empty hours');
  const none = await api('GET', '/stats/heatmap?period=daily&date=2026-06-10&minOnDuty=0', { key });
  t.same([none.body.totals.understaffedHours, none.body.understaffed], [0, []]);
  const anna = await api('GET', '/stats/heatmap?period=daily&date=2026-06-10&rank=crew', { key });
  t.equal(anna.body.totals.staffMs, 8.5 * H);
  assertError(t, await api('GET', '/stats/heatmap?minOnDuty=1001', { key }), 400, 'minOnDuty 1001');
  assertError(t, await api('GET', '/stats/heatmap?limit=5', { key }), 400, 'limit is the leaderboard\'s');
});

t.test('a week: the future is not measured', async (t) => {
  const res = await api('GET', '/stats/heatmap?period=weekly&date=2026-06-10', { key });
  t.equal(res.body.totals.hours, 168);
  t.ok(res.body.cells.every((c: any) => c.hours === 1));
  const now = await api('GET', '/stats/heatmap', { key });
  t.ok(now.body.totals.hours <= 168 && now.body.totals.hours >= 1, `this week so far: ${now.body.totals.hours} h`);
  const crew = await signIn(server, g, 'a');
  assertError(t, await api('GET', '/stats/heatmap', { session: crew }), 403, 'not for crew');
});
