import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// GET /stats/filters (ranks, organisation units, time zone) and the access rules it shares with
// GET /stats/einsatz: admin or stats.leaderboard.view, unscoped keys, no scoped key, 404 with module
// stats off, and nothing of one guild in another's answers.
const A = '581000000000000001';
const B = '581000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [
  { userId: 'crew', nickname: 'Carla Crew', rank: 'crew' },
  { userId: 'lead', nickname: 'Lena Leitung' },
  { userId: 'boss', nickname: 'Bernd Boss', admin: true },
  { userId: 'p4', nickname: 'Paula' }, { userId: 'p5', nickname: 'Peter' }, { userId: 'p6', nickname: 'Pia' }, { userId: 'p7', nickname: 'Paul' },
]);
await insertRank(server.sql, A, { id: 'stats', name: 'Wachleitung', position: 5, capabilities: ['stats.leaderboard.view'] });
await server.sql`update people set rank_id = 'stats' where guild_id = ${A} and user_id = 'lead'`;
const orgUnits: [string, string | null][] = [
  ['crew', 'Rettungsdienst'], ['lead', 'Feuerwache 10'], ['boss', 'Feuerwache 2'], ['p4', 'Ärztlicher Dienst'], ['p5', ''], ['p6', '   '], ['p7', 'Rettungsdienst'],
];
for (const [userId, org] of orgUnits) await server.sql`update people set org_unit = ${org} where guild_id = ${A} and user_id = ${userId}`;
await server.sql`insert into units (guild_id, callsign, org_unit) values (${A}, 'RTW 1', 'Rettungsdienst'), (${A}, 'FuStW 1', 'Polizei'), (${A}, 'ELW 1', '')`;

await seedGuild(server.sql, B, [{ userId: 'b1', nickname: 'Bea' }]);
await insertRank(server.sql, B, { id: 'b-only', name: 'Nur B', position: 9, capabilities: [] });
await server.sql`update people set org_unit = 'Wache B' where guild_id = ${B}`;
await server.sql`update guilds set time_zone = 'America/New_York' where id = ${B}`;

const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);
const routes = ['/stats/filters', '/stats/einsatz'];

t.test('filters: ranks highest first, distinct non-empty org units of people and units in German order, the zone', async (t) => {
  const res = await api('GET', '/stats/filters', { key: keyA });
  t.equal(res.status, 200);
  t.same(res.body, {
    ranks: [
      { id: 'stats', name: 'Wachleitung', position: 5 }, { id: 'dispatch', name: 'Dispatch', position: 2 },
      { id: 'crew', name: 'Crew', position: 1 }, { id: 'none', name: 'Guest', position: 0 },
    ],
    orgUnits: ['Ärztlicher Dienst', 'Feuerwache 2', 'Feuerwache 10', 'Rettungsdienst'], // 'Polizei' is only a unit's: no person matches it
    timeZone: 'Europe/Berlin',
  });
  assertError(t, await api('GET', '/stats/filters?rank=crew', { key: keyA }), 400, 'a parameter', /unknown query parameter rank/);
});

t.test('cross-guild: each key sees its own guild only, in its own zone', async (t) => {
  const b = await api('GET', '/stats/filters', { key: keyB });
  t.same(b.body, {
    ranks: [{ id: 'b-only', name: 'Nur B', position: 9 }, { id: 'dispatch', name: 'Dispatch', position: 2 }, { id: 'crew', name: 'Crew', position: 1 }, { id: 'none', name: 'Guest', position: 0 }],
    orgUnits: ['Wache B'],
    timeZone: 'America/New_York',
  });
  const day = (await api('GET', '/stats/einsatz?period=daily&date=2026-07-01', { key: keyB })).body.range;
  t.same(day, { from: '2026-07-01T04:00:00.000Z', to: '2026-07-02T04:00:00.000Z', firstDay: '2026-07-01', lastDay: '2026-07-01', timeZone: 'America/New_York' }, 'days of B\'s zone');
  t.equal((await api('GET', '/stats/einsatz?period=daily&date=2026-07-01', { key: keyA })).body.range.from, '2026-06-30T22:00:00.000Z', 'days of A\'s zone');
});

t.test('access to both routes', async (t) => {
  const crew = await signIn(server, A, 'crew');
  const lead = await signIn(server, A, 'lead');
  const boss = await signIn(server, A, 'boss');
  const wrongScope = await scopedKey(server.sql, A, ['calls:read', 'employees:read']);
  for (const path of routes) {
    assertError(t, await api('GET', path), 401, `${path} without credential`);
    assertError(t, await api('GET', path, { session: crew }), 403, `${path} member without the capability`, /stats\.leaderboard\.view/);
    t.equal((await api('GET', path, { session: lead })).status, 200, `${path} rank with stats.leaderboard.view`);
    t.equal((await api('GET', path, { session: boss })).status, 200, `${path} admin`);
    t.equal((await api('GET', path, { key: keyA })).status, 200, `${path} unscoped key`);
    assertError(t, await api('GET', path, { key: wrongScope }), 403, `${path} scoped key`, /scoped API keys cannot use this route/);
    assertError(t, await api('GET', path, { session: { ...lead, guildId: B } }), 403, `${path} session naming a guild it is not a member of`);
  }
});

t.test('module stats off: both routes 404 (before access is decided), on again: 200', async (t) => {
  const crew = await signIn(server, A, 'crew');
  t.equal((await api('PATCH', '/admin/modules', { key: keyA, body: { modules: { stats: false } } })).status, 200);
  for (const path of routes) {
    assertError(t, await api('GET', path, { key: keyA }), 404, `${path} off`, /module "stats" is switched off/);
    assertError(t, await api('GET', path, { session: crew }), 404, `${path} off, member without the capability`);
  }
  assertError(t, await api('GET', '/stats/einsatz?period=bogus', { key: keyA }), 404, 'off, with a bad parameter');
  t.equal((await api('GET', '/stats/filters', { key: keyB })).status, 200, 'guild B keeps its module');
  t.equal((await api('PATCH', '/admin/modules', { key: keyA, body: { modules: { stats: true } } })).status, 200);
  for (const path of routes) t.equal((await api('GET', path, { key: keyA })).status, 200, `${path} on again`);
});
