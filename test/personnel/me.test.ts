import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';

// GET /me/personal/activity and /me/personal/history: your own file, personal.sheet.view, session only.
const G = '730000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await insertRank(server.sql, G, { id: 'viewer', name: 'Viewer', position: 3, capabilities: ['personal.sheet.view', 'timeclock.own.use'] });
for (const p of [
  { userId: 'me', nickname: 'Mia Me', badge: '01', rankId: 'viewer', isAdmin: false },
  { userId: 'other', nickname: 'Otto Other', badge: '02', rankId: 'viewer', isAdmin: false },
  { userId: 'crew', nickname: 'Cora Crew', badge: '03', rankId: 'crew', isAdmin: false },
  { userId: 'boss', nickname: 'Bea Boss', badge: '04', rankId: null, isAdmin: true },
]) await insertPerson(server.sql, G, p);
const key = await unscopedKey(server.sql, G);
const as = { me: await signIn(server, G, 'me'), other: await signIn(server, G, 'other'), crew: await signIn(server, G, 'crew'), boss: await signIn(server, G, 'boss') };

const H = 3600_000;
// Mia: a 2 h shift 3 days ago, a 1 h shift 10 days ago, a 30 min auto-closed shift 40 days ago.
await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values
  (${G}, 'me', now() - interval '3 days', now() - interval '3 days' + interval '2 hours', 'CLOSED'),
  (${G}, 'me', now() - interval '10 days', now() - interval '10 days' + interval '1 hour', 'CLOSED'),
  (${G}, 'me', now() - interval '40 days', now() - interval '40 days' + interval '30 minutes', 'AUTO_CLOSED'),
  (${G}, 'other', now() - interval '1 day', now() - interval '1 day' + interval '5 hours', 'CLOSED')`;

t.test('activity: totals, windows and last shifts of your own shifts only', async (t) => {
  const res = await api('GET', '/me/personal/activity', { session: as.me });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body).sort(), ['currentShift', 'firstShiftAt', 'lastShifts', 'onDuty', 'totals', 'userId']);
  t.match(res.body, { userId: 'me', onDuty: false, currentShift: null });
  t.same(res.body.totals, { totalMs: 3.5 * H, shiftCount: 3, last7DaysMs: 2 * H, last30DaysMs: 3 * H });
  t.same(res.body.lastShifts.map((s: any) => [s.durationMs, s.status]), [[2 * H, 'CLOSED'], [H, 'CLOSED'], [0.5 * H, 'AUTO_CLOSED']], 'newest first');
  t.ok(Date.parse(res.body.firstShiftAt) < Date.now() - 39 * 24 * H);

  const clockIn = await api('POST', '/me/clock-in', { session: as.me });
  t.equal(clockIn.status, 200);
  const on = await api('GET', '/me/personal/activity', { session: as.me });
  t.match(on.body, { onDuty: true, currentShift: { clockInAt: clockIn.body.clockInAt } });
  t.ok(on.body.currentShift.durationMs >= 0);
  t.equal(on.body.totals.shiftCount, 3, 'the open shift is not counted as completed');
  await api('POST', '/me/clock-out', { session: as.me });
  const after = await api('GET', '/me/personal/activity', { session: as.me });
  t.equal(after.body.totals.shiftCount, 4);
  t.equal(after.body.lastShifts.length, 4);

  const others = await api('GET', '/me/personal/activity', { session: as.other });
  t.same(others.body.totals, { totalMs: 5 * H, shiftCount: 1, last7DaysMs: 5 * H, last30DaysMs: 5 * H }, 'each sees their own');
  const admin = await api('GET', '/me/personal/activity', { session: as.boss });
  t.same(admin.body, { userId: 'boss', onDuty: false, currentShift: null, totals: { totalMs: 0, shiftCount: 0, last7DaysMs: 0, last30DaysMs: 0 }, firstShiftAt: null, lastShifts: [] }, 'no shifts yet');
});

t.test('activity lists at most the 10 last shifts', async (t) => {
  await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status)
    select ${G}, 'other', now() - (n || ' days')::interval - interval '2 hours', now() - (n || ' days')::interval - interval '1 hour', 'CLOSED'
    from generate_series(2, 13) n`;
  const res = await api('GET', '/me/personal/activity', { session: as.other });
  t.equal(res.body.lastShifts.length, 10);
  t.equal(res.body.totals.shiftCount, 13);
});

t.test('history: your own entries, paged', async (t) => {
  await api('PATCH', '/personnel/me', { key, body: { rank: 'crew' } });
  await api('PATCH', '/personnel/me', { key, body: { rank: 'viewer' } });
  await api('POST', '/personnel/me/history', { key, body: { kind: 'commendation', text: 'Gute Arbeit' } });
  await api('POST', '/personnel/other/history', { key, body: { kind: 'warning', text: 'Not for Mia' } });
  const res = await api('GET', '/me/personal/history', { session: as.me });
  t.equal(res.status, 200);
  t.equal(res.body.userId, 'me');
  t.same(res.body.entries.map((e: any) => e.kind), ['commendation', 'promotion', 'demotion']);
  t.match(res.body.entries[1], { rankChange: { from: 'Crew', to: 'Viewer' }, by: { kind: 'key', name: 'test' } });
  const page = await api('GET', '/me/personal/history?limit=2', { session: as.me });
  t.equal(page.body.entries.length, 2);
  const rest = await api('GET', `/me/personal/history?limit=2&before=${page.body.nextBefore}`, { session: as.me });
  t.same(rest.body.entries.map((e: any) => e.kind), ['demotion']);
  t.equal(rest.body.nextBefore, null);
  for (const q of ['limit=0', 'limit=201', 'before=abc', 'userId=other']) {
    assertError(t, await api('GET', `/me/personal/history?${q}`, { session: as.me }), 400, q);
  }
  t.same((await api('GET', '/me/personal/history', { session: as.other })).body.entries.map((e: any) => e.text), ['Not for Mia']);
});

t.test('personal.sheet.view needed; API keys get 403; admins pass', async (t) => {
  for (const path of ['/me/personal/activity', '/me/personal/history']) {
    assertError(t, await api('GET', path, { session: as.crew }), 403, `crew ${path}`, /personal\.sheet\.view/);
    assertError(t, await api('GET', path, { key }), 403, `unscoped key ${path}`, /session/);
    for (const scope of specScopes) assertError(t, await api('GET', path, { key: await scopedKey(server.sql, G, [scope]) }), 403, `scope ${scope} ${path}`);
    t.equal((await api('GET', path, { session: as.boss })).status, 200, `admin ${path}`);
    assertError(t, await api('GET', path), 401, `no credential ${path}`);
  }
});
