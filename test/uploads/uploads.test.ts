import t from 'tap';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { drawn, fileForm, form, gif } from './images.ts';

// The uploads routes through the real server: formats decided from the bytes, refusals, the image
// served back, isolation between guilds, access, the module switch, audit rows and topic events.
const server = await startTestServer(t);
const G = 'g-uploads';
const OTHER = 'g-uploads-other';
await seedGuild(server.sql, G, [{ userId: '100', nickname: 'Anna', admin: true }, { userId: '101', nickname: 'Ben', rank: 'crew' }]);
await seedGuild(server.sql, OTHER);
const key = await unscopedKey(server.sql, G);
const otherKey = await unscopedKey(server.sql, OTHER);
const anna = await signIn(server, G, '100');
const ben = await signIn(server, G, '101');
const api = (method: string, path: string, o: Parameters<typeof call>[3] = {}) => call(server.url, method, path, o);

type Auth = { key?: string; session?: { cookie: string; guildId?: string } };
const send = (auth: Auth, f: { body: Buffer; contentType: string }) => api('POST', '/uploads', { ...auth, raw: f.body, contentType: f.contentType });
const upload = (data: Buffer | string, filename = 'logo.png', auth: Auth = { key }) => send(auth, fileForm(data, filename));
/** GET of an image with its raw bytes (call() would read them as text). */
async function image(path: string, headers: Record<string, string>) {
  const res = await fetch(server.url + path, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const rows = async (guildId = G) => (await server.sql`select count(*)::int as n from uploads where guild_id = ${guildId}`)[0].n as number;

t.test('PNG, JPEG, WebP and GIF are told by their bytes, measured, and served back byte for byte', async (t) => {
  const cases = [
    { what: 'a PNG named .jpg, sent as image/jpeg', data: drawn('png', 120, 80), name: 'wappen.jpg', type: 'image/png', width: 120, height: 80 },
    { what: 'a JPEG named .gif', data: drawn('jpeg', 64, 48), name: 'foto.gif', type: 'image/jpeg', width: 64, height: 48 },
    { what: 'a WebP named .png', data: drawn('webp', 40, 30), name: 'bild.png', type: 'image/webp', width: 40, height: 30 },
    { what: 'a GIF', data: gif(7, 5), name: 'anim.gif', type: 'image/gif', width: 7, height: 5 },
  ];
  for (const c of cases) {
    const res = await send({ key }, fileForm(c.data, c.name, 'image/jpeg'));
    t.equal(res.status, 200, c.what);
    t.match(res.body, { name: c.name, contentType: c.type, size: c.data.length, width: c.width, height: c.height, createdBy: { kind: 'key' } }, c.what);
    t.equal(res.body.url, `/api/v1/uploads/${res.body.id}?guild=${G}`);
    const got = await image(`/api/v1/uploads/${res.body.id}`, { authorization: `Bearer ${key}` });
    t.equal(got.status, 200);
    t.ok(got.bytes.equals(c.data), `${c.what}: served back byte for byte`);
    t.equal(got.headers.get('content-type'), c.type);
    t.equal(got.headers.get('x-content-type-options'), 'nosniff');
    t.match(got.headers.get('cache-control'), /^private/);
    t.equal(got.headers.get('content-disposition'), `inline; filename="${c.name}"; filename*=UTF-8''${c.name}`);
  }
});

t.test('what is not an image of the four types is refused, and nothing is stored', async (t) => {
  const before = await rows();
  const png = drawn('png', 20, 20);
  const refusals: [string, Promise<Awaited<ReturnType<typeof api>>>, number, RegExp?][] = [
    ['a text file named .png', upload('just some text, no image', 'notes.png'), 415, /not a PNG, JPEG, WebP or GIF/],
    ['an SVG', upload('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'logo.svg'), 415, /SVG.*script/],
    ['an HTML page named .gif', upload('<html><script>alert(1)</script></html>', 'x.gif'), 415],
    ['a PNG signature followed by garbage', upload(Buffer.concat([png.subarray(0, 8), Buffer.alloc(400, 7)]), 'broken.png'), 400, /PNG/],
    ['a PNG cut off before its end', upload(png.subarray(0, png.length - 20), 'half.png'), 400, /incomplete/],
    ['a JPEG header and nothing else', upload(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), 'x.jpg'), 400, /JPEG/],
    ['a GIF claiming 60000×60000 pixels', upload(gif(60000, 60000), 'bomb.gif'), 400, /megapixels|per side/],
    ['an empty file', upload(Buffer.alloc(0), 'empty.png'), 400, /empty/],
    ['no file field', send({ key }, form([{ field: 'image', filename: 'a.png', data: png }])), 400, /unknown form field "image"/],
    ['an empty form', send({ key }, form([])), 400, /no file field "file"/],
    ['two files', send({ key }, form([{ field: 'file', filename: 'a.png', data: png }, { field: 'file', filename: 'b.png', data: png }])), 400, /one file/],
    ['file as a text field', send({ key }, form([{ field: 'file', data: 'hello' }])), 400, /file part/],
    ['another field beside the file', send({ key }, form([{ field: 'file', filename: 'a.png', data: png }, { field: 'note', data: 'hi' }])), 400, /unknown form field "note"/],
    ['a truncated body', (() => {
      const f = fileForm(png);
      return api('POST', '/uploads', { key, raw: f.body.subarray(0, f.body.length - 60), contentType: f.contentType });
    })(), 400, /multipart|truncated/],
    ['a wrong boundary', (() => {
      const f = fileForm(png);
      return api('POST', '/uploads', { key, raw: f.body, contentType: 'multipart/form-data; boundary=not-the-one-used' });
    })(), 400, /boundary/],
    ['no boundary', api('POST', '/uploads', { key, raw: fileForm(png).body, contentType: 'multipart/form-data' }), 400, /boundary/],
    ['a JSON body', api('POST', '/uploads', { key, body: { file: 'iVBORw0KGgo=' } }), 415, /multipart\/form-data/],
    ['raw image bytes', api('POST', '/uploads', { key, raw: png, contentType: 'image/png' }), 415, /multipart\/form-data/],
    ['no body at all', api('POST', '/uploads', { key }), 415],
    ['a query string', api('POST', '/uploads?x=1', { key, raw: fileForm(png).body, contentType: fileForm(png).contentType }), 400],
  ];
  for (const [what, pending, status, message] of refusals) assertError(t, await pending, status, what, message);
  t.equal(await rows(), before, 'no refused upload left a row');
});

t.test('file names are kept as text for people: no directories, no control characters, a safe Content-Disposition', async (t) => {
  const res = await upload(drawn('png', 10, 10), '..\\..\\C:\\Wappen\u202e –\tFeuer;wehr%.png');
  t.equal(res.status, 200);
  t.equal(res.body.name, 'Wappen – Feuer;wehr%.png');
  const got = await image(`/api/v1/uploads/${res.body.id}`, { authorization: `Bearer ${key}` });
  t.equal(got.headers.get('content-disposition'), `inline; filename="Wappen _ Feuer_wehr_.png"; filename*=UTF-8''Wappen%20%E2%80%93%20Feuer%3Bwehr%25.png`);
  const quoted = await send({ key }, form([{ field: 'file', filename: 'a\\"b.png', data: drawn('png', 5, 5) }]));
  t.equal(quoted.status, 200, 'a name with quotes is stored');
  const got2 = await image(`/api/v1/uploads/${quoted.body.id}`, { authorization: `Bearer ${key}` });
  t.equal(quoted.body.name, 'a"b.png');
  t.equal(got2.headers.get('content-disposition'), `inline; filename="a_b.png"; filename*=UTF-8''a%22b.png`, 'no quote ends the ASCII name early');
  assertError(t, await upload(drawn('png', 5, 5), 'bell\u0007.png'), 400, 'a control character in the part header', /multipart/);
});

t.test('GET /uploads lists newest first, without the bytes', async (t) => {
  const a = await upload(drawn('png', 11, 12), 'first.png');
  const b = await upload(drawn('png', 13, 14), 'second.png', { session: anna });
  const res = await api('GET', '/uploads', { key });
  t.equal(res.status, 200);
  const list = res.body.uploads as Record<string, unknown>[];
  t.same(list.slice(0, 2).map((u) => u.id), [b.body.id, a.body.id], 'newest first');
  t.same(Object.keys(list[0]).sort(), ['contentType', 'createdAt', 'createdBy', 'height', 'id', 'name', 'size', 'url', 'width']);
  t.same(list[0].createdBy, { kind: 'session', id: '100' });
  t.equal(list.length, await rows());
  t.same((await api('GET', '/uploads', { key: otherKey })).body, { uploads: [] }, 'another guild sees none of them');
});

t.test('another guild\'s upload is not found: read and delete are 404, and nothing is deleted', async (t) => {
  const mine = await upload(drawn('png', 9, 9), 'mine.png');
  assertError(t, await api('GET', `/uploads/${mine.body.id}`, { key: otherKey }), 404, 'read');
  assertError(t, await api('DELETE', `/uploads/${mine.body.id}`, { key: otherKey }), 404, 'delete');
  t.equal((await image(`/api/v1/uploads/${mine.body.id}`, { authorization: `Bearer ${key}` })).status, 200, 'still there');
  assertError(t, await api('GET', '/uploads/999999', { key }), 404, 'unknown id');
  assertError(t, await api('DELETE', '/uploads/999999', { key }), 404, 'unknown id');
  assertError(t, await api('GET', '/uploads/abc', { key }), 400, 'not an id');
  assertError(t, await api('DELETE', '/uploads/-1', { key }), 400, 'not an id');
  const guildMismatch = await api('GET', `/uploads/${mine.body.id}?guild=${OTHER}`, { session: anna });
  assertError(t, guildMismatch, 400, 'guild query naming another guild than x-guild-id');
});

t.test('access: settings.manage (admins), unscoped keys; not members without it, not scoped keys', async (t) => {
  const mine = await upload(drawn('png', 8, 8), 'mine.png');
  const scoped = await scopedKey(server.sql, G, ['calls:read']);
  const png = drawn('png', 6, 6);
  for (const [who, auth] of [['Ben (crew, no settings.manage)', { session: ben }], ['a scoped key', { key: scoped }]] as const) {
    assertError(t, await upload(png, 'x.png', auth), 403, `${who}: POST`);
    assertError(t, await api('GET', '/uploads', auth), 403, `${who}: list`);
    assertError(t, await api('GET', `/uploads/${mine.body.id}`, auth), 403, `${who}: image`);
    assertError(t, await api('DELETE', `/uploads/${mine.body.id}`, auth), 403, `${who}: delete`);
  }
  assertError(t, await upload(png, 'x.png', {}), 401, 'no credential');
  // An <img src> sends the cookie but no header: the url's ?guild= names the guild.
  const img = await image(`/api/v1/uploads/${mine.body.id}?guild=${G}`, { cookie: anna.cookie });
  t.equal(img.status, 200, 'an admin\'s browser loads the url as it is');
  t.equal((await image(`/api/v1/uploads/${mine.body.id}?guild=${G}`, { cookie: ben.cookie })).status, 403, 'Ben\'s does not');
  // A cross-site form cannot send x-guild-id, and a cross-site fetch is refused.
  const f = fileForm(png);
  assertError(t, await api('POST', '/uploads', { session: { cookie: anna.cookie }, raw: f.body, contentType: f.contentType }), 400, 'session without x-guild-id');
  assertError(t, await api('POST', '/uploads', { session: anna, raw: f.body, contentType: f.contentType, headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'cross-site');
  assertError(t, await api('POST', `/uploads?guild=${G}`, { session: { cookie: anna.cookie }, raw: f.body, contentType: f.contentType }), 400, 'guild by query on a write');
});

t.test('/trpc cannot deliver a fake upload: the file must come through the multipart door', async (t) => {
  const before = await rows();
  const fake = { json: { file: { name: 'x.png', data: { type: 'Buffer', data: [...drawn('png', 4, 4)] } } } };
  const res = await api('POST', '/trpc/uploads.create', { key, body: fake });
  t.equal(res.status, 400);
  t.match(JSON.stringify(res.body), /multipart\/form-data/);
  t.equal(await rows(), before);
  const list = await api('GET', '/trpc/uploads.list', { key });
  t.equal(list.status, 200, 'the other procedures work over tRPC');
});

t.test('module "uploads" off: every route is 404, even for an admin, and an upload is not read', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key, body: { modules: { uploads: false } } })).status, 200);
  t.teardown(() => api('PATCH', '/admin/modules', { key, body: { modules: { uploads: true } } }));
  assertError(t, await upload(drawn('png', 5, 5)), 404, 'POST', /module "uploads"/);
  assertError(t, await api('GET', '/uploads', { key }), 404, 'list');
  assertError(t, await api('GET', '/uploads/1', { key }), 404, 'image');
  assertError(t, await api('DELETE', '/uploads/1', { key }), 404, 'delete');
});

t.test('audit rows and topic events; deleting a letterhead\'s logo clears it there', async (t) => {
  const eventsBefore = server.events.length;
  const created = await upload(drawn('png', 33, 22), 'briefkopf.png', { session: anna });
  t.equal(created.status, 200);
  const id = created.body.id as number;
  const [lh] = await server.sql`insert into letterheads (guild_id, name, logo_upload_id) values (${G}, 'Wache 1', ${id}) returning id`;
  const deleted = await api('DELETE', `/uploads/${id}`, { session: anna });
  t.same(deleted.body, { deleted: true, id, clearedLetterheadLogos: 1 });
  const [after] = await server.sql`select logo_upload_id from letterheads where guild_id = ${G} and id = ${lh.id}`;
  t.equal(after.logo_upload_id, null, 'the letterhead stays, without its logo');
  assertError(t, await api('DELETE', `/uploads/${id}`, { session: anna }), 404, 'deleted twice');
  assertError(t, await api('GET', `/uploads/${id}`, { key }), 404, 'gone');

  const audits = await server.sql`select action, actor_kind, actor_id, data from audit_log where guild_id = ${G} and data->>'id' = ${String(id)} order by id`;
  t.same(audits.map((a) => a.action), ['upload.create', 'upload.delete']);
  t.match(audits[0], { actor_kind: 'session', actor_id: '100', data: { id, name: 'briefkopf.png', contentType: 'image/png', size: created.body.size, width: 33, height: 22 } });
  t.match(audits[1], { actor_kind: 'session', actor_id: '100', data: { id, name: 'briefkopf.png', clearedLetterheadLogos: 1 } });

  const ops = server.events.slice(eventsBefore).filter((e) => e.guildId === G).flatMap((e) => e.deltas.uploads ?? []);
  t.match(ops, [{ op: 'upsert', key: String(id), value: { id, name: 'briefkopf.png', width: 33 } }, { op: 'delete', key: String(id) }]);
  t.notOk(JSON.stringify(ops).includes('base64'), 'events carry no bytes');
  const letterheadOps = server.events.slice(eventsBefore).filter((e) => e.guildId === G).flatMap((e) => e.deltas.letterheads ?? []);
  t.match(letterheadOps, [{ op: 'upsert', key: String(lh.id), value: { name: 'Wache 1', logoUploadId: null } }], 'boards showing the letterhead see it lose its logo');
});

t.test('curl -F, as the docs show it (curl sends Expect: 100-continue for a large body)', async (t) => {
  const { execFile } = await import('node:child_process');
  const { writeFile, mkdtemp } = await import('node:fs/promises');
  const dir = await mkdtemp('/tmp/uploads-curl-');
  const png = drawn('png', 400, 300);
  await writeFile(`${dir}/Wache Süd.png`, png);
  const out = await new Promise<string>((resolve, reject) => execFile('curl', ['-sS', '-H', 'Expect: 100-continue', '-H', `Authorization: Bearer ${key}`, '-F', `file=@${dir}/Wache Süd.png`, `${server.url}/api/v1/uploads`],
    (err, stdout) => (err ? reject(err) : resolve(stdout))));
  const body = JSON.parse(out);
  t.match(body, { name: 'Wache Süd.png', contentType: 'image/png', width: 400, height: 300, size: png.length });
});
