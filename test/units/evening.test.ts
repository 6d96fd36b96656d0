import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { dbSnapshot, seedWorld, sessions } from './world.ts';

// An evening through the API: a board subscribed before the first write, having applied every delta,
// ends equal to a fresh load from PostgreSQL and to a board opened afterwards.
const G = '680000000000000001';
const server = await startTestServer(t);
const api = client(server);
const crew = Array.from({ length: 6 }, (_, i) => ({ userId: `c${i + 1}`, nickname: `Crew ${i + 1}`, badge: i + 1, rank: 'crew' }));
await seedWorld(server.sql, G, [...crew, { userId: 'leit1', nickname: 'Lena', badge: 20, rank: 'leit' }]);
const key = await unscopedKey(server.sql, G);
const game = await scopedKey(server.sql, G, ['units:unit.ingame_status']);
const s = await sessions(server, G, { ...Object.fromEntries(crew.map((c) => [c.userId, c.userId])), leit: 'leit1' } as Record<string, string>);
const hot = ['units', 'alarm', 'onDuty', 'dispatchers', 'standby', 'overview'] as const;

t.test('board = fresh snapshot after an evening of writes', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: [...hot] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const ok = async (p: Promise<{ status: number; text: string }>, label: string) => {
    const res = await p;
    t.equal(res.status, 200, `${label}${res.status === 200 ? '' : `: ${res.text}`}`);
  };
  const all = (label: string, ps: Promise<{ status: number; text: string }>[]) => Promise.all(ps.map((p, i) => ok(p, `${label} ${i}`)));

  await all('units', ['RTW-1', 'RTW-2', 'NEF-1', 'HLF-1'].map((callsign) => api('POST', '/units', { session: s.leit, body: { callsign, orgUnit: 'Wache 1' } })));
  await all('clock-in', [...crew.map((c) => api('POST', '/me/clock-in', { session: s[c.userId] })), api('POST', '/admin/clock-in', { key, body: { badge: 20 } })]);
  await ok(api('PUT', '/me/dispatcher', { session: s.leit }), 'dispatcher');
  await all('stand-by', [api('PUT', '/me/standby', { session: s.c5 }), api('PUT', '/me/standby', { session: s.c6 })]);
  await all('seats', [
    api('PUT', '/me/unit', { session: s.c1, body: { callsign: 'RTW-1' } }),
    api('PUT', '/me/unit', { session: s.c3, body: { callsign: 'RTW-2' } }),
    api('PUT', '/me/unit', { session: s.c4, body: { callsign: 'NEF-1' } }),
  ]);
  await ok(api('PUT', '/units/RTW-1/members/c2', { session: s.leit }), 'seat by dispatcher');
  await all('statuses', [
    api('PUT', '/me/unit-status', { session: s.c1, body: { callsign: 'RTW-1', status: '0' } }),
    api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 3, status: 3 } }),
    api('PUT', '/units/NEF-1/status', { key, body: { status: '4' } }),
    api('PUT', '/units/HLF-1/status', { key, body: { status: '6' } }),
  ]);
  await ok(api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: true } }), 'alarm flag on 4');
  await ok(api('PUT', '/me/unit', { session: s.c2, body: { callsign: 'HLF-1' } }), 'move');
  await ok(api('PATCH', '/units/RTW-2', { key, body: { label: 'Zweiter' } }), 'relabel');
  await ok(api('PUT', '/me/unit-status', { session: s.c1, body: { callsign: 'RTW-1', status: '8' } }), 'out of alarm');
  await ok(api('POST', '/me/clock-out', { session: s.c3 }), 'clock-out of a seated crew');
  await ok(api('POST', '/admin/clock-out', { key, body: { badge: 20 } }), 'clock-out of the dispatcher');
  await ok(api('DELETE', '/standby/c5', { key }), 'stand-by removed');
  await ok(api('PUT', '/admin/statuses/4', { key, body: { label: 'Am Einsatzort', color: '#ef6c00', alarm: false } }), 'alarm flag off 4');
  await ok(api('POST', '/units', { key, body: { callsign: 'KTW-1' } }), 'late unit');
  await ok(api('DELETE', '/units/KTW-1', { key }), 'and gone');

  const head = (await server.sql`select seq::int as seq from event_streams where guild_id = ${G}`)[0].seq;
  await board.until(() => board.state.seq === head);
  t.equal(board.state.stats.gaps, 0);
  const snap = await dbSnapshot(server.deps.db, G);
  for (const topic of hot) t.same(board.state.topics[topic], snap[topic], `${topic}: the board equals a fresh load`);
  const late = openBoard(server.url, { apiKey: key, topics: [...hot] });
  t.teardown(late.close);
  await late.until(() => late.state.seq === head);
  t.same(late.state.topics, board.state.topics, 'and a board opened now');

  t.match(snap.overview, { units: 4, onDuty: 5, dispatchers: 0, standby: 1, alarms: 0 }, 'the counters tell the evening');
  t.same((board.state.topics.units!['RTW-1'] as any).members.map((m: any) => m.id), ['c1']);
  t.same((board.state.topics.units!['HLF-1'] as any).members.map((m: any) => m.id), ['c2']);
  t.same((board.state.topics.units!['RTW-2'] as any).members, [], 'c3 left with the clock-out');
});
