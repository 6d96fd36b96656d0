import t from 'tap';
import { call, startTestServer } from '../helpers/server.ts';
import { contractViolation } from '../helpers/contract.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { loadOperations, seedWorld, stringSlots, target, validParts, withValue } from '../fuzz/api-model.ts';
import { fileForm, gif } from '../uploads/images.ts';

/*
 * Bodies are strict UTF-8 (issue 27, item 7): bytes that are not UTF-8 inside any string of a body
 * are a 400 naming the problem, on every door that decodes a body, and nothing of the request is
 * stored. Before, they were stored as U+FFFD ("a\xFFb" in a unit label became "a�b"). The REST
 * requests are generated from the API as documented: one per string field of every route's body.
 */
const server = await startTestServer(t);
const world = await seedWorld(server);
const ops = await loadOperations(server.url);
const PROBE = 'utf8probe';
const HOLE = '@@not-utf8@@';
/** Byte sequences that are not UTF-8: a stray byte, an overlong '/', an encoded surrogate, a character cut short. */
const notUtf8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]].map((b) => Buffer.from(b));

/** `text` as bytes, with HOLE replaced by `bad`. */
function withBadBytes(text: string | Buffer, bad: Buffer): Buffer {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const at = bytes.indexOf(HOLE);
  if (at < 0) throw new Error(`no ${HOLE} in ${text.slice(0, 100)}`);
  return Buffer.concat([bytes.subarray(0, at), bad, bytes.subarray(at + HOLE.length)]);
}

/** Every row of every table whose text holds `mark`, as "table: row". */
async function rowsHolding(mark: string): Promise<string[]> {
  const tables = await server.sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await server.sql.unsafe(`select x::text as row from "${name}" x where x::text like $1`, [`%${mark}%`]);
    found.push(...rows.map((r) => `${name}: ${String(r.row).slice(0, 120)}`));
  }
  return found;
}
const eventCount = async () => Number((await server.sql`select count(*)::int as n from events`)[0].n);

t.test('REST: bytes that are not UTF-8 in any string field of any route\'s body: 400 naming the problem, nothing stored', async (t) => {
  const events = await eventCount();
  let n = 0;
  const violations: string[] = [];
  for (const op of ops.filter((o) => o.body)) {
    const base = validParts(op, world);
    for (const slot of stringSlots(op).filter((s) => s.in === 'body')) {
      const bad = notUtf8[n % notUtf8.length];
      const parts = withValue(base, slot, `${PROBE}${++n}${HOLE}`);
      const path = target(op, parts);
      const what = `${op.method} ${op.path} body ${slot.name} with ${bad.toString('hex')}`;
      const res = await call(server.url, op.method, path, {
        ...(op.sessionOnly ? { session: world.session } : { key: world.key }),
        raw: withBadBytes(JSON.stringify(parts.body), bad),
        skipContract: true,
      });
      t.equal(res.status, 400, `${what}: 400`);
      t.same(Object.keys(res.body ?? {}), ['error', 'reason'], `${what}: {error}`);
      t.match(res.body?.error, /^body is not valid UTF-8: the bytes at offset \d+ \([0-9A-F ]+\) are not a UTF-8 character/, `${what}: names the problem`);
      const violation = await contractViolation(server.url, op.method, `${server.url}${path}`, res);
      if (violation) violations.push(`${what}: ${violation}`);
    }
  }
  t.ok(n >= 60, `${n} body string fields tried`);
  t.same(violations, [], 'every answer is one the OpenAPI document promises');
  t.same(await rowsHolding(PROBE), [], 'nothing of a refused request was stored');
  t.equal(await eventCount(), events, 'no event was written');
  // The same search finds what an accepted request stores: the check above can fail.
  const ok = await call(server.url, 'POST', '/units', { key: world.key, body: { callsign: 'RTW-77', label: `${PROBE}-accepted ä` } });
  t.equal(ok.status, 200, 'a UTF-8 label is accepted');
  t.equal((await rowsHolding(`${PROBE}-accepted ä`)).length > 0, true, 'and found stored');
});

t.test('REST: a byte order mark before the body is named', async (t) => {
  const res = await call(server.url, 'POST', '/units', { key: world.key, raw: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ callsign: 'RTW-78', label: 'x' }))]), skipContract: true });
  t.equal(res.status, 400);
  t.match(res.body, { error: /^body starts with a byte order mark/ });
});

t.test('tRPC over HTTP: a body or query that is not UTF-8 fails each call with 400 naming the problem, in tRPC\'s error shape', async (t) => {
  const before = await rowsHolding(PROBE);
  const body = withBadBytes(JSON.stringify({ json: { callsign: 'RTW-79', label: `${PROBE}-trpc${HOLE}` } }), notUtf8[0]);
  const one = await call(server.url, 'POST', '/trpc/units.create', { key: world.key, raw: body, skipContract: true });
  t.equal(one.status, 400);
  t.match(one.body, { error: { json: { message: /^body is not valid UTF-8/, data: { code: 'BAD_REQUEST', httpStatus: 400 } } } });
  const batch = withBadBytes(JSON.stringify({ 0: { json: { callsign: 'RTW-80', label: 'fine' } }, 1: { json: { callsign: 'RTW-81', label: `${PROBE}-batch${HOLE}` } } }), notUtf8[2]);
  const both = await call(server.url, 'POST', '/trpc/units.create,units.create?batch=1', { key: world.key, raw: batch, skipContract: true });
  t.equal(both.status, 400);
  t.same(both.body.map((r: any) => r.error?.json?.data?.code), ['BAD_REQUEST', 'BAD_REQUEST'], 'no call of the batch ran');
  const query = await call(server.url, 'GET', `/trpc/units.list?input=${encodeURIComponent(JSON.stringify({ json: {} })).slice(0, -3)}%FF%7D`, { key: world.key, skipContract: true });
  t.equal(query.status, 400);
  t.match(query.body, { error: { json: { message: /^input must be valid Unicode/ } } });
  t.same(await rowsHolding(PROBE), before, 'nothing stored');
  t.same((await call(server.url, 'GET', '/units', { key: world.key })).body.units.filter((u: any) => /RTW-(79|80|81)/.test(u.callsign)), [], 'no unit was created');
});

t.test('POST /auth/login/<token> (the alarm client\'s sign-in): a body that is not UTF-8 is a 400, and the link stays unused', async (t) => {
  const link = new URL(await createLoginLink(server.sql, server.url, world.guildId, '200000000000000003'));
  const bad = withBadBytes(JSON.stringify({ device: `alarm${HOLE}` }), notUtf8[1]);
  const res = await call(server.url, 'POST', link.pathname, { raw: bad, skipContract: true });
  t.equal(res.status, 400);
  t.match(res.body, { error: /^body is not valid UTF-8/ });
  const again = await call(server.url, 'POST', link.pathname, { body: { device: 'alarm' }, skipContract: true });
  t.equal(again.status, 200, 'the link still signs in');
});

t.test('POST /uploads: a file name that is not UTF-8 is a 400, and nothing is stored', async (t) => {
  const uploads = async () => Number((await server.sql`select count(*)::int as n from uploads`)[0].n);
  const before = await uploads();
  const f = fileForm(gif(3, 3), `${PROBE}${HOLE}.gif`, 'image/gif');
  const res = await call(server.url, 'POST', '/uploads', { key: world.key, raw: withBadBytes(f.body, notUtf8[0]), contentType: f.contentType, skipContract: true });
  t.equal(res.status, 400);
  t.match(res.body, { error: /^the file name is not valid UTF-8/ });
  t.equal(await uploads(), before, 'no upload stored');
  const ok = await call(server.url, 'POST', '/uploads', { key: world.key, raw: fileForm(gif(3, 3), 'wäppchen.gif', 'image/gif').body, contentType: f.contentType });
  t.equal(ok.status, 200, 'a UTF-8 name is accepted');
  t.equal(ok.body.name, 'wäppchen.gif', 'and kept as sent');
});
