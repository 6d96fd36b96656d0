import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { seedWorld, sessions } from './world.ts';

// Guild B's keys and sessions against guild A's units, statuses, seats, slots and roster:
// every answer is 403 or 404, and guild A is unchanged afterwards.
const A = '670000000000000001';
const B = '670000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, A, [
  { userId: 'a1', nickname: 'Anna', badge: 1, rank: 'leit' },
  { userId: 'both', nickname: 'Beide A', badge: 2, rank: 'leit' },
]);
await seedWorld(server.sql, B, [
  { userId: 'b1', nickname: 'Bert', badge: 1, rank: 'leit', admin: true },
  { userId: 'both', nickname: 'Beide B', badge: 2, rank: 'leit', admin: true },
]);
const keyA = await unscopedKey(server.sql, A);
const keyB = await unscopedKey(server.sql, B);
const gameB = await scopedKey(server.sql, B, ['units:unit.ingame_status']);
const sA = await sessions(server, A, { a1: 'a1' });
const sB = await sessions(server, B, { b1: 'b1', both: 'both' });

await api('POST', '/units', { key: keyA, body: { callsign: 'A-RTW' } });
await api('PUT', '/admin/statuses/Q', { key: keyA, body: { label: 'Nur A', color: '#aa0000', alarm: true } });
await api('POST', '/admin/clock-in', { key: keyA, body: { badge: 1 } });
await api('PUT', '/me/unit', { session: sA.a1, body: { callsign: 'A-RTW' } });
await api('PUT', '/me/dispatcher', { session: sA.a1, body: { slot: 3 } });
await api('PUT', '/me/standby', { session: sA.a1 });
await api('POST', '/admin/clock-in', { key: keyB, body: { badge: 1 } });
const stateOfA = async () => ({
  units: (await api('GET', '/units', { key: keyA })).body,
  statuses: (await api('GET', '/admin/statuses', { key: keyA })).body,
  slots: (await api('GET', '/api/v1/dispatchers', { key: keyA })).body,
  standby: (await api('GET', '/standby', { key: keyA })).body,
});
const before = await stateOfA();

t.test('guild B sees none of guild A\'s objects in its lists', async (t) => {
  t.same((await api('GET', '/units', { key: keyB })).body.units, []);
  t.same((await api('GET', '/api/v1/dispatchers', { key: keyB })).body.slots, []);
  t.same((await api('GET', '/standby', { key: keyB })).body.people, []);
  t.notOk((await api('GET', '/admin/statuses', { key: keyB })).body.statuses.some((x: any) => x.code === 'Q'), 'A\'s own status code');
  t.same((await api('GET', '/me/alarm', { session: sB.b1 })).body, { onDuty: true, alarms: [], unit: null, incident: null });
});

t.test('every guild-A object addressed from guild B: 403 or 404', async (t) => {
  const calls: [string, string, object | undefined][] = [
    ['PATCH', '/units/A-RTW', { label: 'x' }],
    ['DELETE', '/units/A-RTW', undefined],
    ['PUT', '/units/A-RTW/status', { status: '3' }],
    ['PUT', '/units/A-RTW/members/a1', undefined],
    ['DELETE', '/units/A-RTW/members/a1', undefined],
    ['DELETE', '/admin/statuses/Q', undefined],
    ['DELETE', '/admin/dispatchers/3', undefined],
    ['PUT', '/admin/dispatchers/4', { userId: 'a1' }],
    ['DELETE', '/standby/a1', undefined],
  ];
  for (const [method, path, body] of calls) {
    for (const [who, opts] of [['key', { key: keyB }], ['admin session', { session: sB.b1 }]] as const) {
      const res = await api(method, path, { ...opts, body });
      t.ok([403, 404].includes(res.status), `${method} ${path} with a guild-B ${who}: ${res.status}`);
      t.same(Object.keys(res.body), ['error', 'reason']);
    }
  }
  const self = await api('PUT', '/me/unit', { session: sB.b1, body: { callsign: 'A-RTW' } });
  t.equal(self.status, 404, 'PUT /me/unit with A\'s callsign from B');
  t.equal((await api('PUT', '/me/unit-status', { session: sB.b1, body: { callsign: 'A-RTW', status: '3' } })).status, 403, 'PUT /me/unit-status for A\'s unit');
  t.equal((await api('PUT', '/integrations/ingame/unit-status', { key: gameB, body: { badge: 1, status: '0' } })).status, 409, 'B\'s badge 1 is B\'s person (in no unit), never A\'s');
  t.equal((await api('PUT', '/units/A-RTW/status', { key: keyB, body: { status: 'Q' } })).status, 404);
});

t.test('a session of guild A with x-guild-id of B, and a person in both guilds', async (t) => {
  const forged = { cookie: sA.a1.cookie, guildId: B };
  const res = await api('GET', '/units', { session: forged });
  t.ok([401, 403].includes(res.status), `a1 is no member of B: ${res.status}`);
  // "both" is a member of A and B: acting in B never touches A.
  await api('POST', '/admin/clock-in', { key: keyB, body: { badge: 2 } });
  t.equal((await api('PUT', '/me/unit', { session: sB.both, body: { callsign: 'A-RTW' } })).status, 404, 'A\'s unit is unknown in B');
  t.equal((await api('PUT', '/me/dispatcher', { session: sB.both, body: { slot: 3 } })).status, 200, 'slot 3 of B is free (A\'s slot 3 is A\'s)');
  t.equal((await api('PUT', '/me/standby', { session: sB.both })).status, 200);
  t.same((await api('GET', '/standby', { key: keyA })).body.people.map((p: any) => p.userId), ['a1'], 'A\'s roster unchanged');
});

t.test('guild A is unchanged', async (t) => {
  t.same(await stateOfA(), before);
});
