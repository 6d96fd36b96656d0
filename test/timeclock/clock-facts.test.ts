import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { eventsAfter } from '../../server/hub/snapshot.ts';
import { decodeDeltas } from '../../server/store/event-codec.ts';
import { readClockOut } from '../../server/domains/timeclock/events.ts';
import { closeShift, openShift } from '../../server/domains/timeclock/store.ts';

// The clock statements store facts, not deltas (domains/timeclock/events.ts), as a named, versioned
// JSON object; rows written before it (a positional array) still read. What a board applies live and
// what the log replays must be the same ops, whatever the names contain.
const G = '555000000000000077';
const server = await startTestServer(t);
const api = client(server);
const awkward = 'Zoë "Zero" \\ 50% 💥 %1$s <b>';
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: awkward, badge: '3', rank: 'crew' },
  { userId: 'u2', nickname: 'No Rank', badge: null },
]);
await server.sql`insert into ranks (guild_id, id, name, position, capabilities) values (${G}, 'odd', ${'Rang "A" \\ ü'}, 9, '{}')`;
await server.sql`update people set rank_id = 'odd' where guild_id = ${G} and user_id = 'u1'`;
const key = await unscopedKey(server.sql, G);

t.test('the facts decode to the deltas the bus carried, for awkward names, a null badge and a null rank', async (t) => {
  const e0 = server.events.length;
  const inRes = await api('POST', '/admin/clock-in', { key, body: { badge: 3 } });
  t.equal(inRes.status, 200);
  t.equal(inRes.body.nickname, awkward, 'the answer carries the name unchanged');
  const [slotRow] = await server.sql`insert into dispatcher_slots (guild_id, slot, user_id) values (${G}, 7, 'u1') returning slot`;
  const [unit] = await server.sql`insert into units (guild_id, callsign) values (${G}, ${'RTW "1"'}) returning id`;
  await server.sql`insert into unit_members (guild_id, unit_id, user_id) values (${G}, ${unit.id}, 'u1')`;
  const outRes = await api('POST', '/admin/clock-out', { key, body: { badge: '03' } });
  t.equal(outRes.status, 200);
  t.same([outRes.body.clearedDispatcherSlots, outRes.body.leftUnits], [[slotRow.slot], ['RTW "1"']]);

  const published = server.events.slice(e0).filter((e) => e.guildId === G);
  t.equal(published.length, 2, 'one event each');
  t.same(published[0].deltas.onDuty, [{ op: 'upsert', key: 'u1', value: {
    userId: 'u1', nickname: awkward, badge: '03', rank: 'Rang "A" \\ ü', since: Date.parse(inRes.body.clockInAt),
  } }]);
  const replayed = await eventsAfter(server.sql, G, published[0].seq - 1);
  t.same(replayed.map((e) => e.seq), published.map((e) => e.seq), 'the log holds both, in order');
  t.same(replayed.map((e) => e.deltas), published.map((e) => e.deltas), 'and replays them to the very same deltas');
});

t.test('a person without badge or rank: nulls in the facts and in the deltas', async (t) => {
  const e0 = server.events.length;
  const { opened } = await openShift(server.sql, G, { userId: 'u2' }, null);
  t.ok(opened);
  t.same([opened!.badge, opened!.rank], [null, null]);
  const [logged] = await server.sql`select deltas from events where guild_id = ${G} order by seq desc limit 1`;
  t.same(logged.deltas, { v: 1, kind: 'clockIn', userId: 'u2', nickname: 'No Rank', badge: null, rank: null, clockInAt: logged.deltas.clockInAt },
    'stored as named facts, version 1');
  t.equal(Date.parse(logged.deltas.clockInAt), opened!.clockInAt.getTime(), 'with the clock-in time');
  t.same(decodeDeltas(logged.deltas).onDuty, [{ op: 'upsert', key: 'u2', value: { userId: 'u2', nickname: 'No Rank', badge: null, rank: null, since: opened!.clockInAt.getTime() } }]);
  t.equal(server.events.length, e0, 'the store writes; publishing is the service\'s job');
  const closed = await closeShift(server.sql, G, { userId: 'u2' }, null);
  t.same(closed.closed?.slots, [], 'no slots');
  const [out] = await server.sql`select deltas from events where guild_id = ${G} order by seq desc limit 1`;
  t.same(Object.keys(out.deltas), ['v', 'kind', 'userId', 'nickname', 'badge', 'clockInAt', 'clockOutAt', 'slots', 'callsigns'], 'clock-out: named facts too');
  t.same([out.deltas.v, out.deltas.kind, out.deltas.slots, out.deltas.callsigns], [1, 'clockOut', [], []]);
  t.same(closed.event?.deltas.overview, [{ op: 'add', field: 'onDuty', by: -1 }], 'no dispatcher count change without slots');
});

t.test('rows written before the named payload (positional facts) still replay to the same deltas', async (t) => {
  const g = '555000000000000079';
  await seedGuild(server.sql, g, [{ userId: 'old', nickname: 'Old Row', badge: '5' }]);
  const inAt = '2026-11-20T08:00:00.123456+00:00';
  const outAt = '2026-11-20T16:30:00+00:00';
  const row = (seq: number, topics: string[], facts: unknown[]) =>
    server.sql`insert into events (guild_id, seq, topics, deltas) values (${g}, ${seq}, ${topics}, ${server.sql.json(facts as never)}::json)`;
  await server.sql`update event_streams set seq = 2 where guild_id = ${g}`;
  await row(1, ['alarm', 'dispatchers', 'onDuty', 'overview', 'standby'], ['clockIn', 'old', 'Old Row', '05', null, inAt]);
  await row(2, ['access', 'alarm', 'dispatchers', 'einsatzEntries', 'onDuty', 'overview', 'units'], ['clockOut', 'old', 'Old Row', '05', inAt, outAt, [4], ['RTW 2']]);
  const duty = (onDuty: boolean) => ({ op: 'duty', userId: 'old', onDuty });
  const replayed = await eventsAfter(server.sql, g, 0);
  t.same(replayed.map((e) => e.deltas), [{
    onDuty: [{ op: 'upsert', key: 'old', value: { userId: 'old', nickname: 'Old Row', badge: '05', rank: null, since: Date.UTC(2026, 10, 20, 8, 0, 0, 123) } }],
    overview: [{ op: 'add', field: 'onDuty', by: 1 }], dispatchers: [duty(true)], alarm: [duty(true)], standby: [duty(true)],
  }, {
    onDuty: [{ op: 'remove', key: 'old' }],
    overview: [{ op: 'add', field: 'onDuty', by: -1 }, { op: 'add', field: 'dispatchers', by: -1 }],
    dispatchers: [duty(false), { op: 'remove', key: '4' }],
    units: [duty(false), { op: 'unlink', key: 'RTW 2', field: 'members', id: 'old' }],
    alarm: [duty(false)], access: [{ op: 'changed', userId: 'old' }], einsatzEntries: [{ op: 'membersLeft', userId: 'old', callsigns: ['RTW 2'] }],
  }], 'the old clock-in and clock-out rows decode as they always did');
  const key = await unscopedKey(server.sql, g);
  const inRes = await api('POST', '/admin/clock-in', { key, body: { badge: 5 } });
  t.equal(inRes.status, 200, 'and the log goes on after them');
  const all = await eventsAfter(server.sql, g, 0);
  t.same(all.map((e) => e.seq), [1, 2, 3], 'the next event takes the next number');
  t.same(all[2].deltas.onDuty, [{ op: 'upsert', key: 'old', value: { userId: 'old', nickname: 'Old Row', badge: '05', rank: null, since: Date.parse(inRes.body.clockInAt) } }]);
});

t.test('decodeDeltas: deltas pass through, facts of each kind decode, an unknown kind is an error', async (t) => {
  const deltas = { units: [{ op: 'upsert', key: 'RTW-1', value: {} }] };
  t.equal(decodeDeltas(deltas), deltas, 'an object is the deltas themselves');
  const inFacts = ['clockIn', 'u9', 'N', '09', null, '2026-11-24T03:21:05.123456+00:00'] as const;
  const duty = (onDuty: boolean) => ({ op: 'duty', userId: 'u9', onDuty });
  t.same(decodeDeltas(inFacts), {
    onDuty: [{ op: 'upsert', key: 'u9', value: { userId: 'u9', nickname: 'N', badge: '09', rank: null, since: Date.UTC(2026, 10, 24, 3, 21, 5, 123) } }],
    overview: [{ op: 'add', field: 'onDuty', by: 1 }], dispatchers: [duty(true)], alarm: [duty(true)], standby: [duty(true)],
  }, 'clock-in facts decode to its ops');
  t.equal((decodeDeltas(inFacts).onDuty![0].value as { since: number }).since, Date.UTC(2026, 10, 24, 3, 21, 5, 123), 'µs dropped like a Date');
  const outFacts = ['clockOut', 'u9', 'N', '09', '2026-11-24T03:21:05+00:00', '2026-11-24T04:00:00+00:00', [2, 5], ['A', 'B']] as const;
  t.same(decodeDeltas(outFacts), {
    onDuty: [{ op: 'remove', key: 'u9' }],
    overview: [{ op: 'add', field: 'onDuty', by: -1 }, { op: 'add', field: 'dispatchers', by: -2 }],
    dispatchers: [duty(false), { op: 'remove', key: '2' }, { op: 'remove', key: '5' }],
    units: [duty(false), { op: 'unlink', key: 'A', field: 'members', id: 'u9' }, { op: 'unlink', key: 'B', field: 'members', id: 'u9' }],
    alarm: [duty(false)], access: [{ op: 'changed', userId: 'u9' }], einsatzEntries: [{ op: 'membersLeft', userId: 'u9', callsigns: ['A', 'B'] }],
  }, 'clock-out facts decode to its ops, one per freed slot and left unit');
  t.same(readClockOut([...outFacts] as never), {
    userId: 'u9', nickname: 'N', badge: '09', clockInAt: new Date('2026-11-24T03:21:05Z'), clockOutAt: new Date('2026-11-24T04:00:00Z'), slots: [2, 5], callsigns: ['A', 'B'],
  }, 'and read back as the clock-out the route answers with');
  t.throws(() => decodeDeltas(['shiftSwap', 'u9']), /unknown kind "shiftSwap"/);
  t.throws(() => decodeDeltas(['constructor']), /unknown kind/, 'no prototype keys');

  const named = { v: 1, kind: 'clockIn', userId: 'u9', nickname: 'N', badge: '09', rank: null, clockInAt: inFacts[5] };
  t.same(decodeDeltas(named), decodeDeltas(inFacts), 'the named clock-in decodes to the same ops as the positional one');
  const namedOut = { v: 1, kind: 'clockOut', userId: 'u9', nickname: 'N', badge: '09', clockInAt: outFacts[4], clockOutAt: outFacts[5], slots: [2, 5], callsigns: ['A', 'B'] };
  t.same(decodeDeltas(namedOut), decodeDeltas(outFacts), 'and the named clock-out');
  t.throws(() => decodeDeltas({ ...named, v: 2 }), /clockIn facts of version 2/, 'a version this server does not know is an error, not a guess');
  t.throws(() => decodeDeltas({ v: 1, kind: 'shiftSwap' }), /unknown kind "shiftSwap"/);
  t.throws(() => decodeDeltas({ v: 1, kind: 'constructor' }), /unknown kind/, 'no prototype keys');
});

t.test('deleting a guild deletes its events (the cascade the foreign key had)', async (t) => {
  const other = '555000000000000078';
  await seedGuild(server.sql, other, [{ userId: 'x1', nickname: 'X', badge: '1' }]);
  const otherKey = await unscopedKey(server.sql, other);
  t.equal((await api('POST', '/admin/clock-in', { key: otherKey, body: { badge: 1 } })).status, 200);
  const count = async (g: string) => (await server.sql`select count(*)::int as n from events where guild_id = ${g}`)[0].n as number;
  const mine = await count(G);
  t.equal(await count(other), 1);
  await server.sql`delete from guilds where id = ${other}`;
  t.equal(await count(other), 0, 'gone with its stream');
  t.equal(await count(G), mine, 'other guilds keep theirs');
});
