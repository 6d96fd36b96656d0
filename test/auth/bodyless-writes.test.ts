import t from 'tap';
import { startTestServer } from '../helpers/server.ts';
import { RawConnection, rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// Spec §4: the payload of POST /me/clock-in, DELETE /uploads/{id}, POST /emojis/sync and
// POST /onboarding/{guildId}/seed is "none" or "optional object". A session write that sends no
// body at all (no Content-Length or 0, no Transfer-Encoding) needs no JSON content type: there is
// nothing to declare, and x-guild-id (which no form can send) and the cross-site check already keep
// forged requests out. A write that carries a body still declares it JSON (415), and a cross-site
// write is still 403. Sent over a raw socket, so no client adds a header of its own.
const G = '661000000000000001';
const server = await startTestServer(t);
await seedGuild(server.sql, G, [{ userId: 'boss', nickname: 'Bea Boss', badge: '1', admin: true }]);
await unscopedKey(server.sql, G, 'tool');
const s = await signIn(server, G, 'boss');
const port = Number(new URL(server.url).port);

/** `raw` is sent with its Content-Length; `chunked` as a chunked body (no Content-Length) instead. */
async function send(method: string, path: string, headers: Record<string, string> = {}, raw?: string, chunked?: string): Promise<RawResponse & { json: any }> {
  const conn = await RawConnection.open(port);
  try {
    const all = { cookie: s.cookie, 'x-guild-id': G, ...headers };
    await conn.write(chunked === undefined ? rawRequest(method, `/api/v1${path}`, { headers: all, raw })
      : `${method} /api/v1${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${chunked}`);
    const res = await conn.read();
    return { ...res, json: res.headers['content-type']?.includes('application/json') ? JSON.parse(res.text) : null };
  } finally {
    conn.close();
  }
}

const writes: [method: string, path: string, status: number, what: RegExp | null][] = [
  ['POST', '/me/clock-in', 200, null],
  ['POST', '/me/clock-out', 200, null],
  ['DELETE', '/uploads/424242', 404, /no upload 424242/],
  ['POST', '/emojis/sync', 409, /DISCORD_TOKEN/], // this server has no bot: the route's own answer
  ['POST', `/onboarding/${G}/seed`, 200, null],
];

t.test('a session write without any body answers as its route says, never 415', async (t) => {
  for (const [method, path, status, what] of writes) {
    const res = await send(method, path);
    t.equal(res.status, status, `${method} ${path} without a body: ${res.text.slice(0, 120)}`);
    if (what) t.match(res.json?.error, what, `${method} ${path}: the route's own error`);
  }
  const [open] = await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`;
  t.equal(open.n, 1, 'the clock-in and clock-out ran');
  const [seeded] = await server.sql`select count(*)::int as n from letterheads where guild_id = ${G}`;
  t.ok(seeded.n > 0, 'the seed ran');
});

t.test('Content-Length: 0 is no body too; any content type may then be named', async (t) => {
  t.equal((await send('POST', '/me/clock-in', { 'content-length': '0' })).status, 200, 'Content-Length: 0');
  t.equal((await send('POST', '/me/clock-out', { 'content-length': '0', 'content-type': 'text/plain' })).status, 200, 'Content-Length: 0 with text/plain');
});

t.test('a session write with a body still needs application/json', async (t) => {
  for (const [contentType, raw] of [['text/plain', '{}'], ['application/x-www-form-urlencoded', 'a=1'], [null, '{}']] as const) {
    const res = await send('POST', '/me/clock-in', contentType ? { 'content-type': contentType } : {}, raw);
    t.equal(res.status, 415, `${contentType ?? 'no content type'} with a body`);
    t.same(Object.keys(res.json ?? {}), ['error', 'reason']);
  }
  // chunked with no data is still a body declared by Transfer-Encoding: it must say what it is
  const chunked = await send('POST', '/me/clock-in', {}, undefined, '0\r\n\r\n');
  t.equal(chunked.status, 415, 'Transfer-Encoding: chunked without a content type');
  const [open] = await server.sql`select count(*)::int as n from shifts where guild_id = ${G} and clock_out_at is null`;
  t.equal(open.n, 0, 'none of them clocked in');
});

t.test('a body-less session write from another site is still 403', async (t) => {
  const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
  for (const headers of crossSite) {
    const res = await send('POST', '/me/clock-in', headers);
    t.equal(res.status, 403, JSON.stringify(headers));
  }
  const res = await send('DELETE', '/uploads/424242', { origin: 'https://evil.example' });
  t.equal(res.status, 403, 'DELETE /uploads/{id} cross-site');
  const [open] = await server.sql`select count(*)::int as n from shifts where guild_id = ${G} and clock_out_at is null`;
  t.equal(open.n, 0, 'no clock-in ran');
});

t.test('without x-guild-id a body-less session write names the header, as before', async (t) => {
  const conn = await RawConnection.open(port, t);
  await conn.write(rawRequest('POST', '/api/v1/me/clock-in', { headers: { cookie: s.cookie } }));
  const res = await conn.read();
  t.not(res.status, 200, 'not run without the guild header');
  t.not(res.status, 415);
});
