import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { loadDispatchers, loadOnDuty, loadStandby, loadUnits } from '../../server/hub/state/loaders.ts';

// A board that applies every delta of personnel writes must end equal to a fresh snapshot of the
// database: onDuty carries nickname/badge/rank, dispatcher slots and unit members the nickname.
const G = '720000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Ada', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Bo', badge: '2', rank: 'crew' },
  { userId: 'u3', nickname: 'Cy', badge: '3', rank: 'crew' },
  { userId: 'u4', nickname: 'Di', badge: '4', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const rankKey = await scopedKey(server.sql, G, ['ranks:personal.ranks_set']);

// u1 and u2 on duty; u1 holds dispatcher slot 1; both sit in RTW-1; u3 is off duty on stand-by; u4 off duty.
await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
await api('POST', '/admin/clock-in', { key, body: { badge: 2 } });
await server.sql`insert into dispatcher_slots (guild_id, slot, user_id) values (${G}, 1, 'u1')`;
const [unit] = await server.sql`insert into units (guild_id, callsign, label) values (${G}, 'RTW-1', 'Rettungswagen 1') returning id`;
await server.sql`insert into unit_members (guild_id, unit_id, user_id) values (${G}, ${unit.id}, 'u1'), (${G}, ${unit.id}, 'u2')`;
await server.sql`insert into standby (guild_id, user_id) values (${G}, 'u3')`;

const topics = ['onDuty', 'dispatchers', 'units', 'standby', 'access'] as const;
const board = openBoard(server.url, { apiKey: key, topics: [...topics] });
t.teardown(board.close);
await board.until(() => board.state.stats.snapshots === 1);

/** What a fresh snapshot would hold now. */
async function fresh() {
  return {
    onDuty: await loadOnDuty(server.sql, G),
    dispatchers: await loadDispatchers(server.sql, G),
    units: (await loadUnits(server.sql, G)).units,
    standby: await loadStandby(server.sql, G),
  };
}
const held = () => ({ onDuty: board.state.topics.onDuty, dispatchers: board.state.topics.dispatchers, units: board.state.topics.units, standby: board.state.topics.standby });
const eventsSince = (n: number) => server.events.slice(n).filter((e) => e.guildId === G);

t.test('the board starts equal to the snapshot', async (t) => {
  t.same(held(), await fresh());
  t.same((board.state.topics.units as any)['RTW-1'].members.map((m: any) => m.nickname), ['Ada', 'Bo']);
});

t.test('a new nickname patches onDuty, the dispatcher slot and the unit members', async (t) => {
  const res = await api('PATCH', '/personnel/u1', { key, body: { nickname: 'Ada Lovelace' } });
  t.equal(res.status, 200);
  await board.until(() => (board.state.topics.units as any)['RTW-1'].members[0].nickname === 'Ada Lovelace');
  const frame = board.frames.at(-1) as any;
  t.same(Object.keys(frame.topics).sort(), ['dispatchers', 'onDuty', 'units'], 'one frame, no access notice for a nickname');
  t.same(frame.topics.onDuty, [{ op: 'patch', key: 'u1', value: { nickname: 'Ada Lovelace', badge: '01', rank: 'Crew' } }]);
  t.same(frame.topics.dispatchers, [{ op: 'patch', key: '1', value: { nickname: 'Ada Lovelace' } }]);
  t.equal(frame.topics.units[0].op, 'patch');
  t.same(held(), await fresh(), 'board == snapshot');
});

t.test('badge and rank changes patch onDuty; a rank change also notices access', async (t) => {
  await api('PATCH', '/personnel/u2', { key, body: { badge: 22, rank: 'dispatch' } });
  await board.until(() => (board.state.topics.onDuty as any).u2.rank === 'Dispatch');
  const frame = board.frames.at(-1) as any;
  t.same(frame.topics.onDuty, [{ op: 'patch', key: 'u2', value: { nickname: 'Bo', badge: '22', rank: 'Dispatch' } }]);
  t.same(frame.topics.access, [{ op: 'changed', userId: 'u2' }]);
  t.notOk('units' in frame.topics || 'dispatchers' in frame.topics, 'members carry no badge or rank');
  t.same(held(), await fresh(), 'board == snapshot');
});

t.test('the game sets a rank: onDuty patch and access notice', async (t) => {
  const res = await api('PUT', '/integrations/ingame/ranks', { key: rankKey, body: { badge: 1, rank: 'Dispatch' } });
  t.equal(res.status, 200);
  await board.until(() => (board.state.topics.onDuty as any).u1.rank === 'Dispatch');
  t.same((board.frames.at(-1) as any).topics.access, [{ op: 'changed', userId: 'u1' }]);
  t.same(held(), await fresh(), 'board == snapshot');
});

t.test('a person on stand-by (off duty) gets a standby patch only', async (t) => {
  await api('PATCH', '/personnel/u3', { key, body: { nickname: 'Cyrus' } });
  await board.until(() => (board.state.topics.standby as any).u3.nickname === 'Cyrus');
  t.same((board.frames.at(-1) as any).topics, { standby: [{ op: 'patch', key: 'u3', value: { nickname: 'Cyrus' } }] });
  t.same(held(), await fresh(), 'board == snapshot');
});

t.test('an admin flag change notices access only', async (t) => {
  const before = server.events.length;
  await api('PATCH', '/personnel/u3', { key, body: { isAdmin: true } });
  await board.until(() => (board.frames.at(-1) as any).topics?.access?.[0]?.userId === 'u3');
  t.same(Object.keys((board.frames.at(-1) as any).topics), ['access']);
  t.same(eventsSince(before).map((e) => Object.keys(e.deltas)), [['access']]);
  await api('PATCH', '/personnel/u3', { key, body: { isAdmin: false } });
});

t.test('writes that change nothing a board shows emit nothing', async (t) => {
  const before = server.events.length;
  t.equal((await api('PATCH', '/personnel/u4', { key, body: { nickname: 'Dina', badge: 44 } })).status, 200, 'off duty, in no slot, unit or roster');
  t.equal((await api('PATCH', '/personnel/u3', { key, body: { badge: 33 } })).status, 200, 'stand-by shows no badge');
  t.equal((await api('PATCH', '/personnel/u1', { key, body: { orgUnit: 'Wache 1' } })).status, 200, 'orgUnit is not on the board');
  t.equal((await api('PATCH', '/personnel/u1', { key, body: { nickname: 'Ada Lovelace' } })).status, 200, 'the same nickname');
  t.equal((await api('POST', '/personnel/u1/history', { key, body: { kind: 'note', text: 'x' } })).status, 200, 'a history note');
  t.same(eventsSince(before), [], 'no events');
  t.same(held(), await fresh(), 'board == snapshot');
});

t.test('after clock-out, a rename patches nothing live', async (t) => {
  await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  await board.until(() => !('u1' in (board.state.topics.onDuty as any)));
  const before = server.events.length;
  await api('PATCH', '/personnel/u1', { key, body: { nickname: 'Ada L.' } });
  t.same(eventsSince(before), [], 'no longer in onDuty, slots or units');
  t.same(held(), await fresh(), 'board == snapshot');
  t.equal(board.state.stats.gaps, 0);
});
