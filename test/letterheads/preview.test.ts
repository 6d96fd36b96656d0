import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { GUILD, OTHER, insertUpload, letterheadWorld, pixelsOf, solidPng } from './world.ts';

// The preview PNG of a letterhead, as a browser's <img src> loads it (session cookie, ?guild=) and
// as a key reads it: its size, that it shows the primary colour and the logo, and that an edit shows at once.
const { server, who, api } = await letterheadWorld(t);
const key = { key: who.key };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** GET of the image with its raw bytes. */
async function image(path: string, headers: Record<string, string>) {
  const res = await fetch(new URL(path, server.url), { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const byKey = (path: string) => image(path, { authorization: `Bearer ${who.key}` });

/** The logo through the real upload route, as the board sends it. */
async function upload(png: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
  const res = await fetch(`${server.url}/api/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${who.key}` }, body: form });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return Number(body.id ?? body.upload?.id);
}
const logo = await upload(solidPng('#ff00ff', 300, 150));
const made = (await api('POST', '/letterheads', { ...key, body: {
  name: 'Briefkopf', organisation: 'Feuerwehr Musterstadt', addressLines: ['Am Brandplatz 1', '12345 Musterstadt'],
  primaryColor: '#1B5E20', secondaryColor: '#0d47a1', footer: 'Sitz: Musterstadt', logoUploadId: logo,
} })).body;

t.test('the preview URL works in an <img src> of a signed-in browser; a PNG of 1240×620 showing colours and logo', async (t) => {
  const res = await image(made.previewUrl, { cookie: who.view.cookie });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  t.match(res.headers.get('cache-control'), /^private/);
  t.ok(res.bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG');
  const px = await pixelsOf(res.bytes, { primary: '#1b5e20', secondary: '#0d47a1', logo: '#ff00ff' });
  t.same([px.width, px.height], [1240, 620]);
  t.ok(px.notWhite > 10_000, `not blank (${px.notWhite} pixels not white)`);
  t.ok(px.counts.primary > 2_000, `organisation and name in the primary colour (${px.counts.primary} px)`);
  t.ok(px.counts.secondary > 5_000, `the rule in the secondary colour (${px.counts.secondary} px)`);
  // The logo is 2:1 in a square box 170 px wide: 170×85 = 14450 px.
  t.ok(px.counts.logo > 12_000 && px.counts.logo < 17_000, `the logo, fitted with its aspect (${px.counts.logo} px)`);
});

t.test('width scales the picture; the height is half the width; out of range is a 400', async (t) => {
  for (const width of [300, 600, 2480]) {
    const res = await byKey(`/api/v1/letterheads/${made.id}/preview.png?width=${width}`);
    t.equal(res.status, 200, `width ${width}`);
    const px = await pixelsOf(res.bytes, { primary: '#1b5e20' });
    t.same([px.width, px.height], [width, width / 2], `${width}×${width / 2}`);
    t.ok(px.counts.primary > 0, `width ${width}: shows the primary colour`);
  }
  for (const width of ['299', '2481', 'abc', '1e3']) {
    assertError(t, await api('GET', `/letterheads/${made.id}/preview.png?width=${width}`, key), 400, `width=${width}`, /width/);
  }
  assertError(t, await api('GET', `/letterheads/${made.id}/preview.png?size=2`, key), 400, 'an unknown parameter', /size/);
});

t.test('an edit shows at once (the cache is per version); a removed logo is not drawn', async (t) => {
  const first = await byKey(made.previewUrl);
  const edited = (await api('PATCH', `/letterheads/${made.id}`, { ...key, body: { version: made.version, primaryColor: '#ff6f00', logoUploadId: null } })).body;
  t.not(edited.previewUrl, made.previewUrl, 'a new URL for the new version');
  for (const path of [edited.previewUrl, made.previewUrl]) { // the old URL names the same letterhead: it shows the current one
    const px = await pixelsOf((await byKey(path)).bytes, { old: '#1b5e20', now: '#ff6f00', logo: '#ff00ff' });
    t.equal(px.counts.old, 0, `${path}: the old primary colour is gone`);
    t.ok(px.counts.now > 2_000, `${path}: the new primary colour shows`);
    t.equal(px.counts.logo, 0, `${path}: no logo`);
  }
  t.ok(first.bytes.length > 0);
});

t.test('a letterhead with only a name, and one whose logo bytes do not decode, still render', async (t) => {
  const bare = (await api('POST', '/letterheads', { ...key, body: { name: 'Nur ein Name', primaryColor: '#123456' } })).body;
  const px = await pixelsOf((await byKey(bare.previewUrl)).bytes, { primary: '#123456' });
  t.ok(px.counts.primary > 1_000, 'the name in the primary colour');
  const broken = Buffer.concat([solidPng('#00ff00').subarray(0, 30)]);
  const bad = await insertUpload(server.sql, GUILD, broken);
  const withBad = (await api('POST', '/letterheads', { ...key, body: { name: 'Kaputtes Logo', logoUploadId: bad } })).body;
  const res = await byKey(withBad.previewUrl);
  t.equal(res.status, 200, 'drawn without the logo');
  t.ok(res.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
});

t.test('the guild of the URL must be the caller\'s; unknown ids 404; no capability 403', async (t) => {
  const url = `/api/v1/letterheads/${made.id}/preview.png`;
  t.equal((await image(`${url}?guild=${GUILD}`, { cookie: who.admin.cookie, 'x-guild-id': GUILD })).status, 200, 'guild and header agree');
  const mismatch = await api('GET', `/letterheads/${made.id}/preview.png?guild=${OTHER}`, { session: who.admin });
  assertError(t, mismatch, 400, 'guild names another guild than x-guild-id', /different guilds/);
  t.equal((await image(url, { cookie: who.view.cookie })).status, 400, 'a session naming no guild at all');
  t.equal((await image(`${url}?guild=${GUILD}`, { cookie: who.member.cookie })).status, 403, 'a member without documents.letterhead.view');
  t.equal((await image(`${url}?guild=${GUILD}`, {})).status, 401, 'no credential');
  assertError(t, await api('GET', '/letterheads/999999/preview.png', key), 404, 'unknown id', /no letterhead 999999/);
  assertError(t, await api('GET', `/letterheads/${made.id}/preview.png`, { key: who.otherKey }), 404, 'another guild\'s letterhead');
});

t.test('the logo\'s upload deleted through DELETE /uploads/{id}: the letterhead stays, its new previewUrl shows no logo', async (t) => {
  const id = await upload(solidPng('#ff00ff', 100, 100));
  const l = (await api('POST', '/letterheads', { ...key, body: { name: 'Logo geht', logoUploadId: id } })).body;
  const logoRes = await image(l.logoUrl, { cookie: who.admin.cookie });
  t.equal(logoRes.status, 200, 'logoUrl serves the upload to an admin\'s <img src>');
  t.ok((await pixelsOf((await byKey(l.previewUrl)).bytes, { logo: '#ff00ff' })).counts.logo > 10_000, 'the preview shows the logo');
  t.equal((await api('DELETE', `/uploads/${id}`, key)).status, 200);
  const now = (await api('GET', '/letterheads', key)).body.letterheads.find((x: any) => x.id === l.id);
  t.match(now, { logoUploadId: null, logoUrl: null, version: l.version });
  t.not(now.previewUrl, l.previewUrl, 'a new preview URL although the version is the same');
  t.equal((await pixelsOf((await byKey(now.previewUrl)).bytes, { logo: '#ff00ff' })).counts.logo, 0, 'no logo drawn');
});
