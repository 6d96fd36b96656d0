import t from 'tap';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { startRedis } from '../helpers/redis.ts';

/**
 * Forgotten shifts: with a maximum shift length, a shift open longer is closed at exactly that
 * length as AUTO_CLOSED — by one of two nodes sweeping the same database, exactly once — with the
 * events of a clock-out (boards on both nodes see it) and the panel refresh.
 */
const H = 3_600_000;
const sweep = { everyMs: 150 };
const redis = await startRedis(t); // two nodes of one deployment: one database, one bus
const one = await startTestServer(t, { REDIS_URL: redis.url }, { autoClose: sweep });
const two = await startTestServer(t, { REDIS_URL: redis.url }, { databaseUrl: one.databaseUrl, autoClose: sweep });
const g = 'auto';
await seedGuild(one.sql, g, [
  { userId: 'late', nickname: 'Late', badge: '7', rank: 'crew' },
  { userId: 'fresh', nickname: 'Fresh', badge: '8', rank: 'crew' },
]);
const key = await unscopedKey(one.sql, g);
const api = client(one);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('maxShiftMs: bounds and null', async (t) => {
  assertError(t, await api('PATCH', '/admin/clock-settings', { key, body: { maxShiftMs: 3_599_999 } }), 400, 'under 1 h', /maxShiftMs/);
  assertError(t, await api('PATCH', '/admin/clock-settings', { key, body: { maxShiftMs: 604_800_001 } }), 400, 'over 7 days', /maxShiftMs/);
  assertError(t, await api('PATCH', '/admin/clock-settings', { key, body: { maxShiftMs: '5h' } }), 400, 'a string', /maxShiftMs/);
  assertError(t, await api('PATCH', '/admin/clock-settings', { key, body: { maxShift: 1 } }), 400, 'unknown field');
  const res = await api('GET', '/admin/clock-settings', { key });
  t.same(res.body, { timeZone: 'Europe/Berlin', maxShiftMs: null, minOnDuty: 0 });
});

t.test('two nodes close a forgotten shift exactly once', async (t) => {
  // Both nodes serve the guild (a node hears other nodes' events only of the guilds it follows).
  const follows = [one, two].map((node) => node.deps.bus.follow(g));
  t.teardown(() => follows.forEach((f) => f.release()));
  await Promise.all(follows.map((f) => f.ready));
  // clocked in for real (the clock-in's events and seat), then the shift is made 3 hours old
  t.equal((await api('POST', '/admin/clock-in', { key, body: { badge: 7 } })).status, 200);
  t.equal((await api('POST', '/admin/clock-in', { key, body: { badge: 8 } })).status, 200);
  const [{ clock_in_at: started }] = await one.sql`update shifts set clock_in_at = now() - interval '3 hours'
    where guild_id = ${g} and user_id = 'late' and clock_out_at is null returning clock_in_at`;
  t.equal(one.panelCalls.filter((x) => x === g).length + two.panelCalls.filter((x) => x === g).length, 2, 'two clock-ins refreshed the panel');
  const set = await api('PATCH', '/admin/clock-settings', { key, body: { maxShiftMs: 2 * H } });
  t.equal(set.status, 200, set.text);
  t.equal(set.body.maxShiftMs, 2 * H);

  const closed = await until('the shift closed', async () => {
    const [row] = await one.sql`select status, clock_in_at, clock_out_at from shifts where guild_id = ${g} and user_id = 'late'`;
    return row.status === 'AUTO_CLOSED' ? row : null;
  });
  t.equal(closed.clock_out_at.getTime() - closed.clock_in_at.getTime(), 2 * H, 'ends at exactly the maximum');
  t.equal(closed.clock_in_at.getTime(), started.getTime());
  await new Promise((r) => setTimeout(r, 600)); // several more sweeps on both nodes
  const audits = await one.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${g} and action = 'shift.auto_close'`;
  t.equal(audits.length, 1, 'one audit row');
  t.same([audits[0].actor_kind, audits[0].actor_id, audits[0].data.userId, audits[0].data.durationMs], ['system', 'auto-close', 'late', 2 * H]);
  const stored = await one.sql`select deltas from events where guild_id = ${g}`;
  t.equal(stored.filter((e) => e.deltas.kind === 'clockOut' && e.deltas.userId === 'late').length, 1, 'one clock-out event');
  for (const node of [one, two]) {
    const seen = node.events.filter((e) => e.guildId === g && (e.deltas.onDuty ?? []).some((op: any) => op.op === 'remove' && op.key === 'late'));
    t.equal(seen.length, 1, 'each node\'s bus delivered the clock-out once');
  }
  t.equal(one.panelCalls.filter((x) => x === g).length + two.panelCalls.filter((x) => x === g).length, 3, 'one more panel refresh');
  const fresh = await one.sql`select status from shifts where guild_id = ${g} and user_id = 'fresh'`;
  t.same(fresh.map((r) => r.status), ['OPEN'], 'a shift under the maximum stays open');
  const status = await api('GET', '/admin/clock-status/7', { key });
  t.same([status.body.clockedIn, status.body.status], [false, 'AUTO_CLOSED']);
  const onDuty = await api('GET', '/admin/on-duty', { key });
  t.same(onDuty.body.people.map((p: any) => p.userId), ['fresh']);
});

t.test('a clock-out racing the sweep: one of them closes it', async (t) => {
  await api('POST', '/admin/clock-in', { key, body: { badge: 7 } });
  await one.sql`update shifts set clock_in_at = now() - interval '5 hours' where guild_id = ${g} and user_id = 'late' and clock_out_at is null`;
  const out = await api('POST', '/admin/clock-out', { key, body: { badge: 7 } });
  t.ok(out.status === 200 || out.status === 409, `clock-out ${out.status}`);
  await new Promise((r) => setTimeout(r, 500));
  const rows = await one.sql`select status from shifts where guild_id = ${g} and user_id = 'late' order by id`;
  t.equal(rows.length, 2);
  t.ok(['CLOSED', 'AUTO_CLOSED'].includes(rows[1].status), rows[1].status);
  t.equal(out.status === 200 ? 'CLOSED' : 'AUTO_CLOSED', rows[1].status, 'the answer matches what happened');
  const ends = await one.sql`select deltas from events where guild_id = ${g}`;
  t.equal(ends.filter((e) => e.deltas.kind === 'clockOut' && e.deltas.userId === 'late').length, 2, 'one clock-out event per shift');
});

t.test('null switches it off', async (t) => {
  const res = await api('PATCH', '/admin/clock-settings', { key, body: { maxShiftMs: null } });
  t.equal(res.body.maxShiftMs, null);
  await api('POST', '/admin/clock-in', { key, body: { badge: 7 } });
  await one.sql`update shifts set clock_in_at = now() - interval '30 hours' where guild_id = ${g} and user_id = 'late' and clock_out_at is null`;
  await new Promise((r) => setTimeout(r, 500));
  const [row] = await one.sql`select status from shifts where guild_id = ${g} and user_id = 'late' and clock_out_at is null`;
  t.equal(row?.status, 'OPEN');
});
