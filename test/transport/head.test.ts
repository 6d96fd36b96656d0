import t, { type Test } from 'tap';
import { appRouter } from '../../server/trpc/app-router.ts';
import { restRoutes } from '../../server/transport/routes.ts';
import { startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { RawConnection, rawRequest, type RawResponse } from '../helpers/raw-http.ts';

/*
 * HEAD answers what GET would (status and headers, Content-Length the length of the GET body)
 * without a body, on every door; a HEAD of anything else is the 404 a GET of it gets, also
 * without a body. Read off a raw connection, which must stay usable after every HEAD.
 */
const G = '557000000000000001';
const server = await startTestServer(t);
await seedGuild(server.sql, G, [{ userId: 'u1', nickname: 'Kai', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, G);
const session = await signIn(server, G, 'u1');
const auth = { authorization: `Bearer ${key}` };
const values: Record<string, string> = { guildId: G, badge: '1', userId: 'u1', number: '1', callsign: 'RTW-1', id: '1', code: '1', slot: '1', externalId: 'x' };

/** HEAD, then GET, then HEAD again of the same path on one connection: each answer must parse where the one before ended. */
async function headAndGet(t: Test, conn: RawConnection, path: string, headers: Record<string, string>): Promise<{ head: RawResponse; get: RawResponse }> {
  await conn.write(rawRequest('HEAD', path, { headers }));
  const head = await conn.read({ head: true });
  await conn.write(rawRequest('GET', path, { headers }));
  const get = await conn.read();
  await conn.write(rawRequest('HEAD', path, { headers }));
  await conn.read({ head: true });
  t.equal(conn.pending.length, 0, `${path}: no stray bytes after the HEAD answers`);
  return { head, get };
}

function sameAsGet(t: Test, what: string, { head, get }: { head: RawResponse; get: RawResponse }) {
  t.equal(head.status, get.status, `${what}: HEAD has the GET's status (${get.status})`);
  t.equal(head.headers['content-type'], get.headers['content-type'], `${what}: and its content type`);
  t.equal(head.headers['content-length'], String(get.body.length), `${what}: Content-Length is the GET body's length`);
  t.equal(head.body.length, 0, `${what}: no body`);
}

t.test('HEAD of every GET route of the REST door: the GET\'s status and headers, no body, and the connection goes on', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  const routes = restRoutes(appRouter).filter((r) => r.method === 'GET');
  t.ok(routes.length > 20, `${routes.length} GET routes`);
  const statuses = new Set<number>();
  for (const route of routes) {
    const path = route.fullPath.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x');
    const result = await headAndGet(t, conn, path, route.meta.sessionOnly ? { cookie: session.cookie, 'x-guild-id': G } : auth);
    sameAsGet(t, `${route.method} ${route.fullPath}`, result);
    statuses.add(result.get.status);
  }
  t.ok(statuses.has(200) && statuses.has(404), `answers of several kinds were compared: ${[...statuses].join(', ')}`);
  const health = await headAndGet(t, conn, '/api/v1/health', {});
  t.equal(health.head.headers['content-length'], '11', 'health, answered without waiting: 11 bytes');
});

t.test('HEAD on the other doors', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  const trpc = `/trpc/timeclock.onDuty`;
  sameAsGet(t, 'HEAD /trpc query', await headAndGet(t, conn, trpc, auth));
  sameAsGet(t, 'HEAD /auth/session', await headAndGet(t, conn, '/auth/session', { cookie: session.cookie }));
  sameAsGet(t, 'HEAD /auth/session signed out', await headAndGet(t, conn, '/auth/session', {}));
  const root = await headAndGet(t, conn, '/', {});
  t.equal(root.head.status, 302);
  t.equal(root.head.headers.location, '/dispatch');
  for (const path of ['/api/v1/admin/clock-in', '/api/v1/nope', '/nope', '/trpc']) {
    const r = await headAndGet(t, conn, path, auth);
    t.same([r.head.status, r.get.status], [404, 404], `HEAD ${path}: 404, as its GET`);
    t.equal(r.head.body.length, 0);
  }
});

t.test('HEAD of a one-time login link does not use it up: 405 with Allow: GET, no body', async (t) => {
  const { createLoginLink } = await import('../../server/auth/login-links.ts');
  const link = new URL(await createLoginLink(server.sql, server.url, G, 'u1'));
  const conn = await RawConnection.open(server.port, t);
  await conn.write(rawRequest('HEAD', link.pathname));
  const head = await conn.read({ head: true });
  t.equal(head.status, 405);
  t.equal(head.headers.allow, 'GET');
  t.equal(head.body.length, 0);
  await conn.write(rawRequest('GET', link.pathname));
  const get = await conn.read();
  t.equal(get.status, 302, 'the link still signs in');
  t.match(get.headers['set-cookie'], /dt_session=/);
});
