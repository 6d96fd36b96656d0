import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

const G = '700000000000000001';
const S = '700000000000000002'; // a guild of its own for the sequence-number checks
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora Crew', badge: '3', rank: 'crew' },
  { userId: 'boss', nickname: 'Bea Boss', badge: '4', admin: true },
  { userId: 'badge5', nickname: 'Bo Badge', badge: '5', rank: 'crew' },
]);
const crew = Array.from({ length: 8 }, (_, i) => ({ userId: `p${i + 1}`, nickname: `Person ${i + 1}`, badge: String(11 + i), rank: 'crew' }));
await seedGuild(server.sql, S, crew);
const key = await unscopedKey(server.sql, G);
const keyS = await unscopedKey(server.sql, S);
const cora = await signIn(server, G, 'crew1');

const CLOCK_IN_TOPICS = ['alarm', 'dispatchers', 'onDuty', 'overview', 'standby'];
const CLOCK_OUT_TOPICS = ['access', 'alarm', 'dispatchers', 'einsatzEntries', 'onDuty', 'overview', 'units'];
const CLOCK_IN_FIELDS = ['badgeNumber', 'clockInAt', 'nickname', 'status', 'userId'];
const CLOCK_OUT_FIELDS = ['badgeNumber', 'clearedDispatcherSlots', 'clockInAt', 'clockOutAt', 'durationMs', 'leftUnits', 'nickname', 'status', 'userId'];

/** What one write caused: the bus events of guild `g` (their topics, merged) and the panel refreshes it added. */
async function observe<T>(g: string, write: () => Promise<T>) {
  const e0 = server.events.length;
  const p0 = server.panelCalls.length;
  const result = await write();
  await new Promise((r) => setImmediate(r));
  const events = server.events.slice(e0).filter((e) => e.guildId === g);
  return {
    result,
    events: events.length,
    topics: events.flatMap((e) => Object.keys(e.deltas)).sort(),
    panel: server.panelCalls.slice(p0),
  };
}

const audit = async (action: string) =>
  server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${G} and action = ${action} order by id`;

t.test('/me/clock-in: the badge routes\' answer shape, audit shift.clock_in, spec topics, panel refresh', async (t) => {
  const { result: res, topics, panel, events } = await observe(G, () => api('POST', '/me/clock-in', { session: cora }));
  t.equal(res.status, 200);
  t.equal(events, 1, 'one event for the one transaction');
  t.same(Object.keys(res.body).sort(), CLOCK_IN_FIELDS);
  t.match(res.body, { badgeNumber: '03', userId: 'crew1', nickname: 'Cora Crew', status: 'OPEN' });
  t.ok(Math.abs(Date.parse(res.body.clockInAt) - Date.now()) < 60_000, 'clockInAt is now');
  t.same(topics, CLOCK_IN_TOPICS, 'deltas for exactly the spec topics');
  t.same(panel, [G], 'the panel of this guild is refreshed once');
  const rows = await audit('shift.clock_in');
  t.equal(rows.length, 1);
  t.same(rows[0], { actor_kind: 'session', actor_id: 'crew1', data: { userId: 'crew1' } });
  const status = await api('GET', '/admin/clock-status/3', { key });
  t.match(status.body, { clockedIn: true, status: 'OPEN', since: res.body.clockInAt }, 'the badge routes see the same shift');
});

t.test('a second /me/clock-in: 409 {error}, no event, no panel refresh, no audit row', async (t) => {
  const { result: res, topics, panel } = await observe(G, () => api('POST', '/me/clock-in', { session: cora }));
  assertError(t, res, 409);
  t.same(topics, [], 'no event');
  t.same(panel, [], 'no panel refresh');
  t.equal((await audit('shift.clock_in')).length, 1, 'no new audit row');
  const badge = await observe(G, () => api('POST', '/admin/clock-in', { key, body: { badge: 3 } }));
  assertError(t, badge.result, 409, 'the badge route agrees');
  t.same(badge.panel, []);
});

t.test('/me/clock-out: shape, audit shift.clock_out, spec topics, panel refresh', async (t) => {
  const before = (await api('GET', '/admin/clock-status/3', { key })).body.since;
  const { result: res, topics, panel, events } = await observe(G, () => api('POST', '/me/clock-out', { session: cora }));
  t.equal(res.status, 200);
  t.equal(events, 1, 'one event for the one transaction');
  t.same(Object.keys(res.body).sort(), CLOCK_OUT_FIELDS);
  t.match(res.body, { badgeNumber: '03', userId: 'crew1', nickname: 'Cora Crew', status: 'CLOSED', clearedDispatcherSlots: [], leftUnits: [] });
  t.equal(res.body.clockInAt, before, 'closes the shift that was open');
  t.equal(res.body.durationMs, Date.parse(res.body.clockOutAt) - Date.parse(res.body.clockInAt));
  t.same(topics, CLOCK_OUT_TOPICS, 'deltas for exactly the spec topics');
  t.same(panel, [G]);
  const rows = await audit('shift.clock_out');
  t.equal(rows.length, 1);
  t.same(rows[0], { actor_kind: 'session', actor_id: 'crew1', data: { userId: 'crew1', durationMs: res.body.durationMs } });
  t.match((await api('GET', '/admin/clock-status/3', { key })).body, { clockedIn: false, status: 'CLOSED' });
});

t.test('/me/clock-out while off duty: 409 {error}, no event, no panel refresh, no audit row', async (t) => {
  const { result: res, topics, panel } = await observe(G, () => api('POST', '/me/clock-out', { session: cora }));
  assertError(t, res, 409);
  t.same(topics, []);
  t.same(panel, []);
  t.equal((await audit('shift.clock_out')).length, 1);
});

t.test('self clock-out frees the caller\'s dispatcher slots and unit seat', async (t) => {
  await api('POST', '/me/clock-in', { session: cora });
  await server.sql`insert into dispatcher_slots (guild_id, slot, user_id) values (${G}, 2, 'crew1')`;
  const [unit] = await server.sql`insert into units (guild_id, callsign) values (${G}, 'RTW-2') returning id`;
  await server.sql`insert into unit_members (guild_id, unit_id, user_id) values (${G}, ${unit.id}, 'crew1')`;
  const res = await api('POST', '/me/clock-out', { session: cora });
  t.match(res.body, { clearedDispatcherSlots: [2], leftUnits: ['RTW-2'] });
  const left = await server.sql`select (select count(*) from dispatcher_slots where guild_id = ${G}) + (select count(*) from unit_members where guild_id = ${G}) as n`;
  t.equal(Number(left[0].n), 0);
});

t.test('self routes take an optional empty object; anything else is 400', async (t) => {
  t.equal((await api('POST', '/me/clock-in', { session: cora, body: {} })).status, 200, 'empty object');
  assertError(t, await api('POST', '/me/clock-out', { session: cora, body: { badge: 5 } }), 400, 'no badge on the self route');
  assertError(t, await api('POST', '/me/clock-out', { session: cora, body: { userId: 'badge5' } }), 400, 'no user id either');
  t.equal((await api('POST', '/me/clock-out', { session: cora })).body.userId, 'crew1', 'the caller, nobody else');
});

t.test('badge routes refresh the panel but write no audit rows', async (t) => {
  const auditBefore = (await server.sql`select count(*)::int as n from audit_log where guild_id = ${G}`)[0].n;
  const inRes = await observe(G, () => api('POST', '/admin/clock-in', { key, body: { badge: 5 } }));
  t.equal(inRes.result.status, 200);
  t.same(inRes.topics, CLOCK_IN_TOPICS);
  t.same(inRes.panel, [G]);
  const outRes = await observe(G, () => api('POST', '/admin/clock-out', { key, body: { badge: 5 } }));
  t.equal(outRes.result.status, 200);
  t.same(outRes.topics, CLOCK_OUT_TOPICS);
  t.same(outRes.panel, [G]);
  const boss = await signIn(server, G, 'boss');
  const bySession = await observe(G, () => api('POST', '/admin/clock-in', { session: boss, body: { badge: 5 } }));
  t.equal(bySession.result.status, 200, 'an admin session on the badge route');
  await api('POST', '/admin/clock-out', { session: boss, body: { badge: 5 } });
  const auditAfter = (await server.sql`select count(*)::int as n from audit_log where guild_id = ${G}`)[0].n;
  t.equal(auditAfter, auditBefore, 'no audit row for /admin/clock-in or /admin/clock-out');
  const unknown = await observe(G, () => api('POST', '/admin/clock-in', { key, body: { badge: 99 } }));
  assertError(t, unknown.result, 404, 'unknown badge');
  t.same(unknown.panel, [], 'no panel refresh for a 404');
  t.same(unknown.topics, [], 'no event for a 404');
});

t.test('the guild\'s event seq numbers stay contiguous across many concurrent clock-ins and -outs', async (t) => {
  const sessions = await Promise.all(crew.map((p) => signIn(server, S, p.userId)));
  const e0 = server.events.length;
  const p0 = server.panelCalls.length;
  const byRoute = (i: number, dir: 'in' | 'out', viaSession: boolean) => viaSession
    ? api('POST', `/me/clock-${dir}`, { session: sessions[i] })
    : api('POST', `/admin/clock-${dir}`, { key: keyS, body: { badge: crew[i].badge } });
  const rounds = 4;
  for (let round = 0; round < rounds; round++) {
    for (const dir of ['in', 'out'] as const) {
      const calls = crew.map((_, i) => byRoute(i, dir, (i + round) % 2 === 0));
      calls.push(byRoute(0, dir, round % 2 === 1), byRoute(1, dir, round % 2 === 0)); // duplicates: one of each pair loses
      const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
      t.same(statuses, [...Array(8).fill(200), 409, 409], `round ${round} clock-${dir}`);
    }
  }
  await new Promise((r) => setImmediate(r));
  const writes = 2 * rounds * crew.length; // successful clock-ins plus clock-outs; the 409s leave no trace
  const events = server.events.slice(e0).filter((e) => e.guildId === S);
  const seqs = events.map((e) => e.seq).sort((a, b) => a - b);
  t.same(seqs, Array.from({ length: writes }, (_, i) => i + 1), `seq 1..${writes}: no gap, no repeat`);
  t.equal(new Set(events.map((e) => e.epoch)).size, 1, 'one epoch');
  const shapes = events.map((e) => Object.keys(e.deltas).sort().join(','));
  t.equal(shapes.filter((k) => k === CLOCK_IN_TOPICS.join(',')).length, writes / 2, 'every clock-in event carries the clock-in topics');
  t.equal(shapes.filter((k) => k === CLOCK_OUT_TOPICS.join(',')).length, writes / 2, 'every clock-out event carries the clock-out topics');
  const stored = await server.sql`select seq::int as seq, topics from events where guild_id = ${S} order by seq`;
  t.same(stored.map((r) => r.seq), seqs, 'the event log holds the same seqs');
  const bySeq = new Map(events.map((e) => [e.seq, Object.keys(e.deltas).sort()]));
  t.ok(stored.every((r) => JSON.stringify([...r.topics].sort()) === JSON.stringify(bySeq.get(r.seq))), 'and the same topics per seq');
  t.equal(server.panelCalls.slice(p0).filter((g) => g === S).length, writes, 'one panel refresh per successful write');
});
