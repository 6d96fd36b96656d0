import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey, type Asserts } from '../helpers/fixtures.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';

/*
 * Request smuggling (issue 27, item 4): a request whose framing can be read two ways (Content-Length
 * given twice or as a list, Transfer-Encoding other than one "chunked", both at once) is refused
 * with 400 {error} and the connection is closed; no byte after its headers is run as a request,
 * whether the hidden request arrives in the same write or in a later one. The hidden request here
 * is an authenticated clock-in: it must not open a shift, and neither must the request hiding it.
 */
const G = '557000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((b) => ({ userId: `u${b}`, nickname: `Person ${b}`, badge: String(b), rank: 'crew' })));
const key = await unscopedKey(server.sql, G);
const shiftCount = async () => Number((await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`)[0].n);

/** Header lines of an authenticated JSON request, without any framing header. */
const head = (method: string, path: string, extra: string[] = []) =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Content-Type: application/json', ...extra].join('\r\n') + '\r\n\r\n';
const restBody = (badge: number) => JSON.stringify({ badge });
const trpcBody = (badge: number) => JSON.stringify({ json: { badge } });
/** A well-framed clock-in: what the attacker hides behind the refused request. */
const hiddenClockIn = (badge: number) => head('POST', '/api/v1/admin/clock-in', [`Content-Length: ${restBody(badge).length}`]) + restBody(badge);
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

interface Outcome { answer: RawResponse | null; closed: boolean }

/**
 * Writes `first`, then (when given) `later` in a write of its own once the server has answered
 * `first` or closed the connection; waits for the close and returns what was answered.
 */
async function send(first: string, later?: string): Promise<Outcome> {
  const conn = await RawConnection.open(server.port, t);
  await conn.write(first);
  let answer: RawResponse | null = null;
  if (later !== undefined) {
    answer = await conn.read({ timeoutMs: 2000 }).catch(() => null); // null: closed without an answer
    await conn.write(later).catch(() => {}); // a write after the close may fail: what matters is what ran
  }
  const closed = await conn.closedWithin(2000);
  if (!answer && conn.pending.length) answer = await conn.read({ timeoutMs: 100 });
  return { answer, closed };
}

/** The refusal as promised: closed, and what was answered (if uWS let anything be answered) is exactly 400 {error}. */
function assertRefused(t: Asserts & { ok(...args: any[]): unknown }, outcome: Outcome, what: string, message: RegExp, answered: boolean) {
  t.ok(outcome.closed, `${what}: the connection is closed`);
  if (answered) t.ok(outcome.answer, `${what}: answered`);
  if (outcome.answer) {
    t.equal(outcome.answer.status, 400, `${what}: 400`);
    t.same(Object.keys(JSON.parse(outcome.answer.text)), ['error', 'reason'], `${what}: body is {error}`);
    t.match(JSON.parse(outcome.answer.text).error, message, `${what}: the error names the problem`);
  }
}

/** Outer requests whose framing is ambiguous, each carrying `badge` and (where it has one) a declared end before `rest`. */
const cases: { name: string; message: RegExp; request: (path: string, body: string, hidden: string) => [string, string] }[] = [
  { name: 'Content-Length twice, the second covering the hidden request', message: /Content-Length is given 2 times/,
    request: (path, body, hidden) => [head('POST', path, [`Content-Length: ${body.length}`, `Content-Length: ${body.length + hidden.length}`]) + body, hidden] },
  { name: 'Content-Length twice, equal', message: /Content-Length is given 2 times/,
    request: (path, body, hidden) => [head('POST', path, [`Content-Length: ${body.length}`, `Content-Length: ${body.length}`]) + body, hidden] },
  { name: 'Content-Length as a list', message: /Content-Length/,
    request: (path, body, hidden) => [head('POST', path, [`Content-Length: ${body.length}, ${body.length + hidden.length}`]) + body, hidden] },
  { name: 'Content-Length empty (uWS reads 0)', message: /Content-Length must be a number/,
    request: (path, body, hidden) => [head('POST', path, ['Content-Length: ']), body + hidden] },
  { name: 'Content-Length with a sign', message: /Content-Length/,
    request: (path, body, hidden) => [head('POST', path, [`Content-Length: +${body.length}`]) + body, hidden] },
  { name: 'Transfer-Encoding and Content-Length', message: /not both/,
    request: (path, body, hidden) => [head('POST', path, ['Transfer-Encoding: chunked', `Content-Length: ${body.length}`]) + chunked(body), hidden] },
  { name: 'Transfer-Encoding: gzip, chunked (uWS decodes it as chunked)', message: /Transfer-Encoding "gzip, chunked" is not supported/,
    request: (path, body, hidden) => [head('POST', path, ['Transfer-Encoding: gzip, chunked']) + chunked(body), hidden] },
  { name: 'Transfer-Encoding: identity', message: /Transfer-Encoding "identity" is not supported/,
    request: (path, body, hidden) => [head('POST', path, ['Transfer-Encoding: identity']) + chunked(body), hidden] },
  { name: 'Transfer-Encoding given twice', message: /Transfer-Encoding is given 2 times/,
    request: (path, body, hidden) => [head('POST', path, ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked']) + chunked(body), hidden] },
  { name: 'Transfer-Encoding: xchunked', message: /not supported/,
    request: (path, body, hidden) => [head('POST', path, ['Transfer-Encoding: xchunked']) + chunked(body), hidden] },
];

const doors = [
  { door: 'REST', path: '/api/v1/admin/clock-in', body: restBody },
  { door: 'tRPC over HTTP', path: '/trpc/timeclock.clockIn', body: trpcBody },
];

for (const { door, path, body } of doors) {
  t.test(`${door}: a request framed two ways is refused, and the clock-in hidden behind it does not run`, async (t) => {
    let badge = 0;
    for (const c of cases) {
      const before = await shiftCount();
      const [outer, rest] = c.request(path, body(1 + (badge++ % 4)), hiddenClockIn(5 + (badge % 4)));
      // What uWS refuses itself (a list or sign in Content-Length, both headers) it closes without an answer.
      const answerable = !/list|sign|and Content-Length/.test(c.name);
      assertRefused(t, await send(outer), `${c.name}, alone`, c.message, answerable);
      // The same read holds the hidden request: uWS closes the connection on it, before the 400 could go out.
      assertRefused(t, await send(outer + rest), `${c.name}, hidden request in the same write`, c.message, false);
      assertRefused(t, await send(outer, rest), `${c.name}, hidden request in a later write`, c.message, answerable);
      await new Promise((r) => setTimeout(r, 100)); // a clock-in that had started would have committed by now
      t.equal(await shiftCount(), before, `${c.name}: no shift was opened, neither by the refused request nor by the hidden one`);
    }
  });
}

t.test('behind a request the server answers at once, in the same write: the hidden clock-in does not run', async (t) => {
  // Without the check, uWS reads the first Content-Length (0), answers health or the 404 at once, and runs what follows.
  for (const [path, badge] of [['/api/v1/health', 10], ['/nowhere', 11]] as const) {
    const before = await shiftCount();
    const hidden = hiddenClockIn(badge);
    const outer = head('GET', path, ['Content-Length: 0', `Content-Length: ${hidden.length}`]);
    assertRefused(t, await send(outer + hidden), `GET ${path}`, /Content-Length is given 2 times/, false);
    await new Promise((r) => setTimeout(r, 100));
    t.equal(await shiftCount(), before, `GET ${path}: no shift was opened`);
  }
});

t.test('a refused request whose body arrives later: answered at its headers, and nothing after them is read', async (t) => {
  const before = await shiftCount();
  const conn = await RawConnection.open(server.port, t);
  const outer = restBody(1);
  await conn.write(head('POST', '/api/v1/admin/clock-in', [`Content-Length: ${outer.length}`, `Content-Length: ${outer.length}`]) + outer.slice(0, 4));
  const answer = await conn.read();
  t.equal(answer.status, 400, 'answered before the body is complete');
  t.match(JSON.parse(answer.text), { error: /Content-Length is given 2 times/ });
  t.ok(await conn.closedWithin(3000), 'closed');
  await conn.write(outer.slice(4) + hiddenClockIn(2)).catch(() => {});
  await new Promise((r) => setTimeout(r, 100));
  t.equal(await shiftCount(), before, 'nothing ran');
});

t.test('every door checks framing first: sync answers, auth routes, static, the catch-all 404 and the WebSocket upgrade', async (t) => {
  const session = await signIn(server, G, 'u1');
  const dup = ['Content-Length: 0', 'Content-Length: 0'];
  const requests: [string, string][] = [
    ['health (answered without waiting)', head('GET', '/api/v1/health', dup)],
    ['HEAD health', head('HEAD', '/api/v1/health', dup)],
    ['/auth/session', head('GET', '/auth/session', [`Cookie: ${session.cookie}`, ...dup])],
    ['/auth/logout', head('POST', '/auth/logout', [`Cookie: ${session.cookie}`, ...dup])],
    ['/auth/discord/status', head('GET', '/auth/discord/status', dup)],
    ['board asset', head('GET', '/dispatch/assets/none.js', ['Transfer-Encoding: gzip'])],
    ['root redirect', head('GET', '/', dup)],
    ['unknown route', head('GET', '/nowhere', dup)],
    ['WebSocket upgrade', [
      'GET /trpc HTTP/1.1', 'Host: 127.0.0.1', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', ...dup,
    ].join('\r\n') + '\r\n\r\n'],
  ];
  for (const [what, request] of requests) {
    const conn = await RawConnection.open(server.port, t);
    await conn.write(request);
    const answer = await conn.read({ head: request.startsWith('HEAD') });
    t.equal(answer.status, 400, `${what}: 400`);
    if (!request.startsWith('HEAD')) t.match(JSON.parse(answer.text), { error: /Content-Length is given 2 times|Transfer-Encoding "gzip" is not supported/ }, `${what}: {error}`);
    t.ok(await conn.closedWithin(3000), `${what}: closed`);
  }
  t.equal((await api('GET', '/auth/session', { session })).status, 200, 'the refused logout did not end the session');
});

t.test('well-framed requests are served as before: chunked alone, Content-Length once', async (t) => {
  const conn = await RawConnection.open(server.port, t);
  await conn.write(head('POST', '/api/v1/admin/clock-in', ['Transfer-Encoding: chunked']) + chunked(restBody(9)));
  const res = await conn.read();
  t.equal(res.status, 200, 'a chunked body is read');
  t.match(JSON.parse(res.text), { userId: 'u9', status: 'OPEN' });
  await conn.write(head('POST', '/api/v1/admin/clock-out', [`Content-Length: ${restBody(9).length}`]) + restBody(9));
  t.equal((await conn.read()).status, 200, 'the connection goes on serving');
  t.notOk(conn.closed);
});

t.test('a chunked body uWS cannot decode closes the connection and runs nothing', async (t) => {
  const before = await shiftCount();
  const conn = await RawConnection.open(server.port, t);
  await conn.write(head('POST', '/api/v1/admin/clock-in', ['Transfer-Encoding: chunked']) + `zz\r\n${restBody(3)}\r\n0\r\n\r\n`);
  t.ok(await conn.closedWithin(3000), 'closed');
  await new Promise((r) => setTimeout(r, 100));
  t.equal(await shiftCount(), before, 'nothing ran');
  t.equal((await api('GET', '/health')).status, 200, 'the server goes on');
});
