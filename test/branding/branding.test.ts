import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Branding an admin sets (PATCH /admin/branding): name, colours, tab order and an icon made from an
// upload, seen at once by the public GET /branding/{guildId} and its icon.png; GET /admin/modules.
const G = '670000000000000001';
const H = '670000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G);
await seedGuild(server.sql, H);
await insertRank(server.sql, G, { id: 'settings', name: 'Settings', position: 3, capabilities: ['settings.manage'] });
await server.sql`insert into people (guild_id, user_id, nickname, badge, rank_id, is_admin) values
  (${G}, 'setter', 'Sam Settings', '01', 'settings', false), (${G}, 'disp', 'Dana Dispatch', '02', 'dispatch', false)`;
const key = await unscopedKey(server.sql, G);
const setter = await signIn(server, G, 'setter');
const disp = await signIn(server, G, 'disp');
const scoped = await scopedKey(server.sql, G, ['capabilities:read']);

const patch = (body: unknown, o: { key?: string; session?: { cookie: string; guildId: string } } = { key }) =>
  api('PATCH', '/admin/branding', { ...o, body });
const publicBranding = async () => (await api('GET', `/branding/${G}`)).body;
/** The icon as a browser loads it: by the URL the branding names, without any credential. */
async function iconBytes(url?: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(new URL(url ?? (await publicBranding()).iconUrl, server.url));
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}
const audits = async () => server.sql`select actor_kind, data from audit_log where guild_id = ${G} and action = 'settings.branding_set' order by id`;

/** 600×200: red, green, blue thirds. The centre square is all green; a squashed image would show red at the left. */
async function stripesPng(): Promise<Buffer> {
  const c = createCanvas(600, 200);
  const g = c.getContext('2d');
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff'].entries()) { g.fillStyle = colour; g.fillRect(i * 200, 0, 200, 200); }
  return c.encode('png');
}
async function insertUpload(guildId: string, data: Buffer, width: number, height: number, type = 'image/png'): Promise<string> {
  const [row] = await server.sql`insert into uploads (guild_id, name, content_type, size, width, height, data, created_by_kind, created_by_id)
    values (${guildId}, 'logo.png', ${type}, ${data.length}, ${width}, ${height}, ${data}, 'key', 'test') returning id`;
  return String(row.id);
}
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  return [...c.getContext('2d').getImageData(x, y, 1, 1).data];
}

t.test('GET /admin/branding: the defaults, for settings.manage only', async (t) => {
  for (const [label, o] of [['unscoped key', { key }], ['session with settings.manage', { session: setter }]] as const) {
    const res = await api('GET', '/admin/branding', o);
    t.equal(res.status, 200, label);
    t.match(res.body, { name: `Guild ${G}`, color: '#c0392b', secondaryColor: '#2c3e50', customIcon: false, iconUploadId: null }, label);
    t.same(res.body.tabOrder, ['dispatch', 'timeclock', 'incidents', 'personnel', 'stats', 'documents', 'medic', 'settings'], `${label}: the default order`);
  }
  assertError(t, await api('GET', '/admin/branding', { session: disp }), 403, 'a dispatcher');
  assertError(t, await api('GET', '/admin/branding', { key: scoped }), 403, 'a scoped key');
  assertError(t, await api('GET', '/admin/branding'), 401, 'no credential');
});

t.test('PATCH name, colours and tab order: normalised, public at once, audited, announced', async (t) => {
  const e0 = server.events.length;
  const res = await patch({ name: '  Feuerwehr Los Santos  ', color: '#1A2B3C', secondaryColor: '#FFaa00', tabOrder: ['stats', 'dispatch'] }, { session: setter });
  t.equal(res.status, 200);
  t.match(res.body, { name: 'Feuerwehr Los Santos', color: '#1a2b3c', secondaryColor: '#ffaa00', tabOrder: ['stats', 'dispatch'] });
  const pub = await publicBranding();
  t.match(pub, { guildId: G, name: 'Feuerwehr Los Santos', color: '#1a2b3c', secondaryColor: '#ffaa00', tabOrder: ['stats', 'dispatch'] });
  t.equal((await api('GET', `/branding/${H}`)).body.name, `Guild ${H}`, 'H is untouched');
  const [row] = (await audits()).slice(-1);
  t.same(row, { actor_kind: 'session', data: { name: 'Feuerwehr Los Santos', color: '#1a2b3c', secondaryColor: '#ffaa00', tabOrder: ['stats', 'dispatch'] } });
  const mine = server.events.slice(e0).filter((e) => e.guildId === G);
  t.equal(mine.length, 1, 'one event');
  t.match(mine[0].deltas.settings, [{ op: 'set', key: 'branding', value: { name: 'Feuerwehr Los Santos', color: '#1a2b3c' } }]);
  t.match(mine[0].deltas.access, [{ op: 'branding', value: { tabOrder: ['stats', 'dispatch'] } }], 'every board is told');
  t.ok(server.panelCalls.includes(G), 'the chat panel (which shows the name) is refreshed');

  const partial = await patch({ color: '#00ff00' });
  t.equal(partial.body.name, 'Feuerwehr Los Santos', 'fields left out stay');
  t.equal(partial.body.secondaryColor, '#ffaa00');
  t.equal((await audits()).slice(-1)[0].actor_kind, 'key');
  t.same((await patch({ tabOrder: [] })).body.tabOrder, ['dispatch', 'timeclock', 'incidents', 'personnel', 'stats', 'documents', 'medic', 'settings'], '[] restores the default');
});

t.test('without settings.manage: 403, nothing changed, nothing audited', async (t) => {
  const before = await publicBranding();
  const n = (await audits()).length;
  assertError(t, await patch({ name: 'Übernommen' }, { session: disp }), 403, 'a dispatcher');
  assertError(t, await patch({ name: 'Übernommen' }, { key: scoped }), 403, 'a scoped key');
  assertError(t, await patch({ name: 'Übernommen' }, {}), 401, 'no credential');
  t.same(await publicBranding(), before);
  t.equal((await audits()).length, n);
});

t.test('bad bodies: 400 {error}, nothing changed', async (t) => {
  const before = await publicBranding();
  const bad: Record<string, unknown> = {
    'nothing to change': {}, 'empty name': { name: '' }, 'blank name': { name: '   ' }, 'name of 101 chars': { name: 'n'.repeat(101) },
    'name with NUL': { name: 'a\u0000b' }, 'name not a string': { name: 5 }, 'colour by name': { color: 'red' },
    'short colour': { color: '#12345' }, 'colour with a non-hex digit': { color: '#12345g' }, 'colour as number': { color: 0xff0000 },
    'three-digit colour': { secondaryColor: '#fff' }, 'unknown tab': { tabOrder: ['stats', 'casino'] },
    'repeated tab': { tabOrder: ['stats', 'stats'] }, 'tabOrder not an array': { tabOrder: 'stats' }, 'tab not a string': { tabOrder: [1] },
    'upload id 0': { iconUploadId: 0 }, 'negative upload id': { iconUploadId: -1 }, 'fractional upload id': { iconUploadId: 1.5 },
    'upload id of letters': { iconUploadId: 'abc' }, 'unknown field': { name: 'x', guildId: H }, 'icon field': { iconPng: 'AAAA' },
  };
  for (const [label, body] of Object.entries(bad)) assertError(t, await patch(body), 400, label);
  assertError(t, await api('PATCH', '/admin/branding', { key, raw: '[1]' }), 400, 'an array body');
  t.same(await publicBranding(), before);
});

t.test('the icon: made from an upload of this guild, 256×256, centre square, public, and back to the default', async (t) => {
  const defaultIcon = await iconBytes();
  t.equal(defaultIcon.status, 200);
  const oldUrl = (await publicBranding()).iconUrl;
  const id = await insertUpload(G, await stripesPng(), 600, 200);
  const foreign = await insertUpload(H, await stripesPng(), 600, 200);

  assertError(t, await patch({ iconUploadId: Number(foreign) }), 400, 'another guild\'s upload', /not an upload of this guild/);
  assertError(t, await patch({ iconUploadId: 999999 }), 400, 'an unknown upload', /not an upload of this guild/);
  const junk = await insertUpload(G, Buffer.from('this is no image at all'), 10, 10);
  assertError(t, await patch({ iconUploadId: junk }), 400, 'bytes that do not decode', /decoded/);
  const huge = await insertUpload(G, await stripesPng(), 30000, 30000);
  assertError(t, await patch({ iconUploadId: huge }), 400, 'a source over 40 megapixels', /megapixels/);
  t.equal((await api('GET', '/admin/branding', { key })).body.customIcon, false, 'no refusal changed the icon');

  const set = await patch({ iconUploadId: Number(id) });
  t.equal((await patch({ iconUploadId: String(id) })).status, 200, 'a string of digits is taken too');
  t.equal(set.status, 200);
  t.match(set.body, { customIcon: true, iconUploadId: Number(id) });
  const pub = await publicBranding();
  t.not(pub.iconUrl, oldUrl, 'a new icon is a new URL (browsers cache icons for 5 minutes)');
  t.match(pub.iconUrl, new RegExp(`^/api/v1/branding/${G}/icon\\.png\\?v=[0-9a-z]+$`));
  const custom = await iconBytes(pub.iconUrl);
  t.equal(custom.status, 200);
  t.equal(custom.type, 'image/png');
  const img = await loadImage(custom.bytes);
  t.same([img.width, img.height], [256, 256]);
  t.not(custom.bytes.equals(defaultIcon.bytes), 'not the default');
  t.same(await pixel(custom.bytes, 128, 128), [0, 255, 0, 255], 'green in the middle');
  t.same(await pixel(custom.bytes, 3, 128), [0, 255, 0, 255], 'green at the left edge too: cropped, not squashed');
  t.ok((await iconBytes(`/api/v1/branding/${G}/icon.png`)).bytes.equals(custom.bytes), 'the plain URL serves it as well');
  t.same((await audits()).slice(-1)[0].data, { icon: { uploadId: Number(id) } });

  await server.sql`delete from uploads where guild_id = ${G} and id = ${id}`;
  t.ok((await iconBytes()).bytes.equals(custom.bytes), 'the icon stays when its upload is deleted');

  const reset = await patch({ iconUploadId: null });
  t.match(reset.body, { customIcon: false, iconUploadId: null });
  t.equal((await publicBranding()).iconUrl, oldUrl, 'the default\'s URL again');
  t.ok((await iconBytes()).bytes.equals(defaultIcon.bytes), 'the generated default again');
  t.same((await audits()).slice(-1)[0].data, { icon: null });
  assertError(t, await api('GET', `/branding/${G}/icon.png?v=NOT-A-VERSION`), 400, 'a malformed v');
});

t.test('the generated icon follows the colour at once (nothing stale from its cache)', async (t) => {
  const first = await iconBytes();
  const firstUrl = (await publicBranding()).iconUrl;
  await patch({ color: '#123456' });
  const second = await iconBytes();
  t.not((await publicBranding()).iconUrl, firstUrl, 'a new URL');
  t.not(second.bytes.equals(first.bytes), 'a new image');
  t.same((await pixel(second.bytes, 64, 20)).slice(0, 3), [0x12, 0x34, 0x56], 'in the new colour');
  const unversioned = await iconBytes(`/api/v1/branding/${G}/icon.png`);
  t.ok(unversioned.bytes.equals(second.bytes), 'the plain URL too');
});

t.test('GET /admin/modules: every module with its switch, as PATCH left them', async (t) => {
  const patched = await api('PATCH', '/admin/modules', { key, body: { modules: { stats: false, medic: false } } });
  const got = await api('GET', '/admin/modules', { session: setter });
  t.equal(got.status, 200);
  t.same(got.body, patched.body);
  t.same(Object.keys(got.body.modules).sort(), ['dispatch', 'documents', 'emojis', 'incidents', 'medic', 'personnel', 'stats', 'timeclock', 'uploads']);
  t.equal(got.body.modules.stats, false);
  t.equal(got.body.modules.timeclock, true);
  t.same((await api('GET', '/admin/modules', { key })).body, got.body);
  await api('PATCH', '/admin/modules', { key, body: { modules: { stats: true, medic: true } } });
  t.ok(Object.values((await api('GET', '/admin/modules', { key })).body.modules).every((on) => on === true), 'follows the next PATCH');
  assertError(t, await api('GET', '/admin/modules', { session: disp }), 403, 'a dispatcher');
  assertError(t, await api('GET', '/admin/modules', { key: scoped }), 403, 'a scoped key');
  assertError(t, await api('GET', '/admin/modules'), 401, 'no credential');
});
