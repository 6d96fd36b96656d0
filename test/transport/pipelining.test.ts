import t from 'tap';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { RawConnection, rawRequest } from '../helpers/raw-http.ts';

/*
 * HTTP/1.1 pipelining on every door. uWS (this build, and by design) closes a connection on which a
 * request arrives while the answer to an earlier one is still pending. What the server guarantees:
 * a request is either answered, in order, or has not run at all, so a client can retry what was
 * not answered (RFC 9112 §9.3.2) without doing anything twice.
 */
const G = '559000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'u1', nickname: 'Kai', badge: '1', rank: 'crew' },
  { userId: 'u2', nickname: 'Lena', badge: '2', rank: 'crew' },
  { userId: 'u3', nickname: 'Mia', badge: '3', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const auth = { authorization: `Bearer ${key}` };
const clockIn = (badge: number) => rawRequest('POST', '/api/v1/admin/clock-in', { headers: auth, body: { badge } });
const clockOut = (badge: number) => rawRequest('POST', '/api/v1/admin/clock-out', { headers: auth, body: { badge } });
const clockStatus = (badge: number) => rawRequest('GET', `/api/v1/admin/clock-status/${badge}`, { headers: auth });
const onDuty = async () => (await api('GET', '/admin/on-duty', { key })).body.people.map((p: { userId: string }) => p.userId).sort();
const shiftCount = async () => Number((await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`)[0].n);

/**
 * Runs `during` while every statement on `shifts` waits for a lock this test holds: the server has
 * read the first request and is inside it (the waiting backend is seen) before `during` writes more.
 */
async function withShiftsLocked(during: () => Promise<void>): Promise<void> {
  const tx = await server.sql.reserve();
  try {
    await tx`begin`;
    await tx`lock table shifts in access exclusive mode`;
    await during();
  } finally {
    await tx`commit`;
    tx.release();
  }
}
async function serverWaitsOnLock(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [{ n }] = await server.sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    if (n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the server never waited on the lock');
}

t.test('a request sent while the answer before it is pending is answered after it, in order, on a connection that stays usable', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  await withShiftsLocked(async () => {
    await conn.write(clockIn(1));
    await serverWaitsOnLock();
    await conn.write(clockStatus(1)); // arrives while clock-in is pending
    await new Promise((r) => setTimeout(r, 150));
    t.equal(conn.pending.length, 0, 'nothing is answered before the first request is');
    t.notOk(conn.closed, 'the connection is not closed on the request that arrived early');
  });
  const first = await conn.read();
  t.equal(first.status, 200, 'clock-in answered');
  t.match(JSON.parse(first.text), { badgeNumber: '01', userId: 'u1', status: 'OPEN' });
  const second = await conn.read();
  t.equal(second.status, 200, 'then clock-status');
  t.match(JSON.parse(second.text), { badgeNumber: '01', clockedIn: true, status: 'OPEN' }, 'it ran after the clock-in it followed');
  await conn.write(clockOut(1));
  t.match(JSON.parse((await conn.read()).text), { userId: 'u1' }, 'the connection goes on serving');
});

t.test('the same behind a request without a body: a write sent while a read is pending runs after it', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  await withShiftsLocked(async () => {
    await conn.write(clockStatus(1));
    await serverWaitsOnLock();
    await conn.write(clockIn(1)); // arrives while clock-status is pending
    await new Promise((r) => setTimeout(r, 150));
    t.equal(conn.pending.length, 0, 'nothing is answered before the first request is');
    t.notOk(conn.closed, 'the connection is not closed on the request that arrived early');
  });
  const first = await conn.read();
  t.equal(first.status, 200, 'clock-status answered');
  t.match(JSON.parse(first.text), { badgeNumber: '01', clockedIn: false }, 'it ran before the clock-in that followed it');
  const second = await conn.read();
  t.equal(second.status, 200, 'then clock-in');
  t.match(JSON.parse(second.text), { badgeNumber: '01', userId: 'u1', status: 'OPEN' });
  await conn.write(clockOut(1));
  t.match(JSON.parse((await conn.read()).text), { userId: 'u1' }, 'the connection goes on serving');
});

t.test('requests pipelined in one write behind a database request: none of them runs; each retried is answered once', async (t) => {
  const before = await shiftCount();
  const conn = await RawConnection.open(server.port, t);
  await conn.write(clockIn(2) + clockIn(3) + clockStatus(2));
  t.ok(await conn.closedWithin(3000), 'uWS closes the connection on the second request');
  await new Promise((r) => setTimeout(r, 200)); // a clock-in that had started would have committed by now
  t.equal(await shiftCount(), before, 'no shift was opened: the clock-in whose answer could not be delivered did not run');
  t.same(await onDuty(), [], 'nobody is on duty');
  // The client retries what was not answered, one request at a time: each runs exactly once.
  const retry = await RawConnection.open(server.port, t);
  for (const [request, expect] of [[clockIn(2), { userId: 'u2', status: 'OPEN' }], [clockIn(3), { userId: 'u3', status: 'OPEN' }], [clockStatus(2), { clockedIn: true }]] as const) {
    await retry.write(request);
    const res = await retry.read();
    t.equal(res.status, 200);
    t.match(JSON.parse(res.text), expect);
  }
  t.same(await onDuty(), ['u2', 'u3']);
  for (const b of [2, 3]) await api('POST', '/admin/clock-out', { key, body: { badge: b } });
});

t.test('behind requests answered without waiting (404, health, a 400, HEAD), pipelined requests are all answered in order', async (t) => {
  t.equal((await api('GET', '/health')).status, 200, 'health keeps its first answer and sends it from then on without waiting');
  const conn = await RawConnection.open(server.port, t);
  await conn.write(
    rawRequest('GET', '/api/v1/health')
    + rawRequest('GET', '/api/v1/nope')
    + rawRequest('HEAD', '/api/v1/health')
    + rawRequest('GET', '/api/v1/health?x=1')
    + rawRequest('HEAD', '/api/v1/nope')
    + rawRequest('PUT', '/api/v1/admin/clock-in', { headers: auth, body: { badge: 1 } })
    + clockStatus(1),
  );
  const answers = [];
  for (const head of [false, false, true, false, true, false, false]) answers.push(await conn.read({ head }));
  t.same(answers.map((a) => a.status), [200, 404, 200, 400, 404, 404, 200]);
  t.same(JSON.parse(answers[0].text), { ok: true });
  t.same(JSON.parse(answers[1].text), { error: 'no route GET /api/v1/nope', reason: 'not_found' });
  t.equal(answers[2].text, '', 'HEAD has no body');
  t.equal(answers[2].headers['content-length'], '11', 'HEAD tells the length of the GET body');
  t.match(JSON.parse(answers[3].text), { error: /unknown query parameter x/ });
  t.equal(answers[4].text, '');
  t.same(JSON.parse(answers[5].text), { error: 'no route PUT /api/v1/admin/clock-in', reason: 'not_found' });
  t.match(JSON.parse(answers[6].text), { badgeNumber: '01', clockedIn: false });
  t.equal(conn.pending.length, 0, 'nothing else came');
});

t.test('the other doors: /trpc, /auth/session, /auth/login, /auth/logout answer a request sent while one is pending, and run nothing they cannot answer', async (t) => {
  const session = await signIn(server, G, 'u1');
  const trpcStatus = rawRequest('GET', `/trpc/timeclock.clockStatus?input=${encodeURIComponent(JSON.stringify({ json: { badge: 1 } }))}`, { headers: auth });
  const trpcClockIn = rawRequest('POST', '/trpc/timeclock.clockIn', { headers: { ...auth, 'content-type': 'application/json' }, raw: JSON.stringify({ json: { badge: 1 } }) });
  const sessionReq = rawRequest('GET', '/auth/session', { headers: { cookie: session.cookie } });

  await t.test('/trpc: a mutation pipelined in one write with a query does not run', async (t) => {
    const conn = await RawConnection.open(server.port, t);
    await conn.write(trpcClockIn + trpcStatus);
    t.ok(await conn.closedWithin(3000));
    await new Promise((r) => setTimeout(r, 200));
    t.same(await onDuty(), [], 'the clock-in did not run');
  });

  await t.test('/trpc and /auth/session: a request sent while the answer before it is pending', async (t) => {
    const conn = await RawConnection.open(server.port, t);
    await withShiftsLocked(async () => {
      await conn.write(trpcClockIn);
      await serverWaitsOnLock();
      await conn.write(sessionReq);
      await new Promise((r) => setTimeout(r, 100));
    });
    const first = await conn.read();
    t.equal(first.status, 200);
    t.match(JSON.parse(first.text), { result: { data: { json: { userId: 'u1', status: 'OPEN' } } } });
    const second = await conn.read();
    t.equal(second.status, 200);
    t.match(JSON.parse(second.text), { userId: 'u1', guilds: [{ guildId: G }] });
    await conn.write(trpcStatus);
    t.match(JSON.parse((await conn.read()).text), { result: { data: { json: { clockedIn: true } } } }, 'the connection goes on serving');
    await api('POST', '/admin/clock-out', { key, body: { badge: 1 } });
  });

  await t.test('/auth/login: a one-time link pipelined with another request stays unused, and signs in when opened again', async (t) => {
    const link = new URL(await createLoginLink(server.sql, server.url, G, 'u2'));
    const conn = await RawConnection.open(server.port, t);
    await conn.write(rawRequest('GET', link.pathname) + sessionReq);
    t.ok(await conn.closedWithin(3000));
    await new Promise((r) => setTimeout(r, 200));
    const again = await RawConnection.open(server.port, t);
    await again.write(rawRequest('GET', link.pathname));
    const res = await again.read();
    t.equal(res.status, 302, 'the link was not used up by the request that got no answer');
    t.match(res.headers['set-cookie'], /dt_session=/);
  });

  await t.test('/auth/logout pipelined with another request: the session is not ended', async (t) => {
    const conn = await RawConnection.open(server.port, t);
    await conn.write(rawRequest('POST', '/auth/logout', { headers: { cookie: session.cookie } }) + sessionReq);
    t.ok(await conn.closedWithin(3000));
    await new Promise((r) => setTimeout(r, 200));
    const res = await api('GET', '/auth/session', { session });
    t.equal(res.status, 200, 'still signed in');
  });
});
