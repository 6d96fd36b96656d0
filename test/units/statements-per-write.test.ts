import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { freshDatabase } from '../helpers/db.ts';
import { scopedKey, unscopedKey } from '../helpers/fixtures.ts';
import { startWireCounter, type WireStatement } from '../helpers/pg-wire-counter.ts';
import { seedWorld, sessions } from './world.ts';

// What one REST write costs the database in statements and round trips, counted on the wire
// between the server and PostgreSQL (test/helpers/pg-wire-counter.ts): a unit status change by each
// of its three doors, and a call report and resolve from the game. Each is one statement, or one
// pipelined transaction (BEGIN, the guild's call lock, the statement, COMMIT) for the calls, whose
// reports, takes and resolves run one at a time per guild.
const G = '640000000000000077';
const database = await freshDatabase();
const wire = await startWireCounter(database.url);
t.teardown(async () => {
  await wire.close();
  await database.drop();
});
// The auto-close sweep stays out of the counted window (the hub's own checks are filtered below).
const server = await startTestServer(t, {}, { databaseUrl: wire.url, autoClose: { everyMs: 3_600_000 } });
const api = client(server);
await seedWorld(server.sql, G, [{ userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const game = await scopedKey(server.sql, G, ['units:unit.ingame_status', 'calls:call.report']);
const s = await sessions(server, G, { crew: 'crew1' });
await api('POST', '/units', { key, body: { callsign: 'RTW-1' } });
await api('POST', '/admin/clock-in', { key, body: { badge: 1 } });
await api('PUT', '/me/unit', { session: s.crew, body: { callsign: 'RTW-1' } });

/** Statements that are not the request's (the hub's position check and lease renewals run on timers). */
const background = /pg_try_advisory|from event_streams where guild_id = any|gateway_lease|from guilds where|select 1$/i;

/** The statements and round trips the server spent on `request`, once its caches are warm (it runs once before). */
async function cost(request: () => Promise<{ status: number }>) {
  t.equal((await request()).status, 200, 'warm-up write answered 200');
  const from = wire.statements.length;
  const trips = wire.roundTrips;
  const res = await request();
  t.equal(res.status, 200, 'counted write answered 200');
  const sent = wire.statements.slice(from).filter((x) => !background.test(x.text));
  return { statements: sent.length, roundTrips: tripsOn(sent, trips), sent: sent.map(describe) };
}

/**
 * Round trips since `fromTrip` on the connections that carried `sent`: the hub's timers run on
 * other connections of the pool at any moment, and their trips are not the request's.
 */
function tripsOn(sent: WireStatement[], fromTrip: number): number {
  const connections = new Set(sent.map((x) => x.conn));
  return wire.tripConnections.slice(fromTrip).filter((conn) => connections.has(conn)).length;
}

const describe = (x: WireStatement) => `${x.app}#${x.conn}: ${x.text.replace(/\s+/g, ' ').slice(0, 90)}`;

let flip = 0;
const nextStatus = () => (flip++ % 2 ? '1' : '2');

t.test('a unit status change is one statement, by each door', async (t) => {
  const doors = {
    'PUT /units/{callsign}/status': () => api('PUT', '/units/RTW-1/status', { key, body: { status: nextStatus() } }),
    'PUT /me/unit-status': () => api('PUT', '/me/unit-status', { session: s.crew, body: { callsign: 'RTW-1', status: nextStatus() } }),
    'PUT /integrations/ingame/unit-status': () => api('PUT', '/integrations/ingame/unit-status', { key: game, body: { badge: 1, status: nextStatus() } }),
  };
  for (const [door, request] of Object.entries(doors)) {
    const c = await cost(request);
    t.equal(c.statements, 1, `${door}: one statement (sent: ${JSON.stringify(c.sent, null, 1)})`);
  }
  // FMS 3 acknowledges alarms: with none pending it is the same one statement.
  const c = await cost(() => api('PUT', '/units/RTW-1/status', { key, body: { status: flip++ % 2 ? '3' : '4' } }));
  t.equal(c.statements, 1, `an acknowledging status with no alarm pending: one statement (sent: ${JSON.stringify(c.sent, null, 1)})`);
});

let call = 0;
t.test('a call report and its resolve are one pipelined transaction each', async (t) => {
  const report = await cost(() => api('POST', '/integrations/ingame/calls', { key: game, body: { externalId: `c-${++call}`, title: 'Notruf' } }));
  const resolve = await cost(async () => {
    await api('POST', '/integrations/ingame/calls', { key: game, body: { externalId: `r-${++call}`, title: 'Notruf' } });
    const from = wire.statements.length;
    const trips = wire.roundTrips;
    const res = await api('POST', `/integrations/ingame/calls/r-${call}/resolve`, { key: game, body: { resolution: 'reached' } });
    const sent = wire.statements.slice(from).filter((x) => !background.test(x.text));
    resolveOnly = { statements: sent.map(describe), roundTrips: tripsOn(sent, trips) };
    return res;
  });
  void resolve;
  // BEGIN, the call lock, the statement, COMMIT: one statement of the call's own.
  t.equal(report.statements, 4, `report: BEGIN, lock, one statement, COMMIT (sent: ${JSON.stringify(report.sent, null, 1)})`);
  t.ok(report.roundTrips <= 2, `report: at most two round trips (BEGIN's answer lets COMMIT go), got ${report.roundTrips}`);
  t.equal(resolveOnly.statements.length, 4, `resolve: BEGIN, lock, one statement, COMMIT (sent: ${JSON.stringify(resolveOnly.statements, null, 1)})`);
  t.ok(resolveOnly.roundTrips <= 2, `resolve: at most two round trips, got ${resolveOnly.roundTrips}`);
});
let resolveOnly = { statements: [] as string[], roundTrips: 0 };
