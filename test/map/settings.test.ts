import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard } from '../helpers/live.ts';
import { auditRows, seedWorld, sessions } from '../units/world.ts';
import { insertUpload, solidPng } from '../letterheads/world.ts';
import { staleAfterMs } from '../../server/domains/map/store.ts';

// The guild's map (issue 31): GET /map, PUT /admin/map (image, calibration, stale time), the map's
// image for dispatch.view, and who may do what.
const G = '731100000000000001';
const OTHER = '731100000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedWorld(server.sql, G, [
  { userId: 'crew1', nickname: 'Cora', badge: 1, rank: 'crew' },
  { userId: 'view1', nickname: 'Vera', badge: 2, rank: 'viewer' },
  { userId: 'leit1', nickname: 'Lena', badge: 3, rank: 'leit' },
  { userId: 'setup1', nickname: 'Sami', badge: 4, rank: 'setup' },
]);
await seedWorld(server.sql, OTHER, []);
const key = await unscopedKey(server.sql, G);
const s = await sessions(server, G, { crew: 'crew1', view: 'view1', leit: 'leit1', setup: 'setup1' });
const image = await insertUpload(server.sql, G, solidPng('#336699', 400, 300), 400, 300);
const second = await insertUpload(server.sql, G, solidPng('#993366', 200, 100), 200, 100);
const foreign = await insertUpload(server.sql, OTHER, solidPng('#000000'), 40, 20);
// Two corners of a GTA-like map: game y grows up, pixels grow down.
const points = [{ px: 50, py: 250, x: -3000, y: -3000 }, { px: 350, py: 50, x: 3000, y: 1000 }];

t.test('a new guild\'s map: no image, no calibration, 60 s, no postals; staleAfterMs is the default', async (t) => {
  const res = await api('GET', '/map', { session: s.view });
  t.equal(res.status, 200);
  t.same(res.body, { image: null, calibration: null, staleAfterSeconds: 60, postals: 0 });
  t.equal(await staleAfterMs(server.sql, G), 60_000);
  assertError(t, await api('GET', '/map/image', { session: s.view }), 404, 'no image to serve');
});

t.test('PUT /admin/map: image, calibration and stale time; boards hear it; audited', async (t) => {
  const board = openBoard(server.url, { apiKey: key, topics: ['units', 'settings'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const res = await api('PUT', '/admin/map', { session: s.setup, body: { imageUploadId: String(image), calibration: { points }, staleAfterSeconds: 90 } });
  t.equal(res.status, 200);
  t.same(res.body, {
    image: { uploadId: String(image), url: `/api/v1/map/image?guild=${G}&v=${image}`, width: 400, height: 300 },
    calibration: { points }, staleAfterSeconds: 90, postals: 0,
  });
  t.same((await api('GET', '/map', { session: s.view })).body, res.body, 'GET /map answers what was saved');
  t.equal(await staleAfterMs(server.sql, G), 90_000, 'staleAfterMs follows the setting');
  await board.until(() => board.frames.some((f: any) => JSON.stringify(f).includes('"op":"map"')));
  const text = JSON.stringify(board.frames);
  t.match(text, /"key":"map"/, 'settings carries the new map');
  t.pass('the units notice {op: map} reached the board');
  t.match((await auditRows(server.sql, G, 'map.set')).at(-1), { actor_id: 'setup1', data: { imageUploadId: String(image), staleAfterSeconds: 90 } });

  const img = await api('GET', `/map/image?guild=${G}&v=${image}`, { session: { cookie: s.view.cookie } });
  t.equal(img.status, 200, 'a dispatch.view board loads the image by its url (no x-guild-id)');
  t.equal(img.headers.get('content-type'), 'image/png');
  assertError(t, await api('GET', `/uploads/${image}`, { session: s.view }), 403, 'the upload itself stays settings.manage');

  const stale = await api('PUT', '/admin/map', { key, body: { staleAfterSeconds: 10 } });
  t.match(stale.body, { staleAfterSeconds: 10, calibration: { points } }, 'a partial PUT keeps the rest');
  const same = await api('PUT', '/admin/map', { key, body: { imageUploadId: image } });
  t.same(same.body.calibration, { points }, 'the same image again (as a number) keeps its calibration');
});

t.test('a new image clears the calibration unless one comes with it; null clears', async (t) => {
  const swapped = await api('PUT', '/admin/map', { key, body: { imageUploadId: String(second) } });
  t.match(swapped.body, { image: { uploadId: String(second), width: 200, height: 100 }, calibration: null });
  const other = [{ px: 0, py: 100, x: 0, y: 0 }, { px: 200, py: 0, x: 100, y: 50 }];
  const both = await api('PUT', '/admin/map', { key, body: { imageUploadId: String(image), calibration: { points: other } } });
  t.same(both.body.calibration, { points: other }, 'a calibration sent with the new image is kept');
  const cleared = await api('PUT', '/admin/map', { key, body: { calibration: null } });
  t.match(cleared.body, { image: { uploadId: String(image) }, calibration: null });
  await api('PUT', '/admin/map', { key, body: { calibration: { points } } });
  const none = await api('PUT', '/admin/map', { key, body: { imageUploadId: null } });
  t.match(none.body, { image: null, calibration: null }, 'no image: no calibration');
  await api('PUT', '/admin/map', { key, body: { imageUploadId: String(image), calibration: { points } } });
  const board = openBoard(server.url, { apiKey: key, topics: ['units'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const heard = board.frames.length;
  await api('DELETE', `/uploads/${second}`, { key });
  await api('DELETE', `/uploads/${image}`, { key });
  t.match((await api('GET', '/map', { key })).body, { image: null, calibration: null }, 'deleting the upload takes image and calibration');
  await board.until(() => board.frames.slice(heard).some((f: any) => JSON.stringify(f).includes('"op":"map"')));
  t.equal(board.frames.slice(heard).filter((f: any) => JSON.stringify(f).includes('"op":"map"')).length, 1, 'boards re-read the map once: when its image went, not for another upload');
});

t.test('bad calibrations, images and stale times: 400/404 {error}, nothing changed', async (t) => {
  const fresh = await insertUpload(server.sql, G, solidPng('#123456', 400, 300), 400, 300);
  await api('PUT', '/admin/map', { key, body: { imageUploadId: String(fresh), calibration: { points }, staleAfterSeconds: 60 } });
  const before = (await api('GET', '/map', { key })).body;
  const bad = (body: unknown, status: number, label: string, message?: RegExp) => api('PUT', '/admin/map', { key, body }).then((r) => assertError(t, r, status, label, message));
  const p = (a: object, b: object) => ({ calibration: { points: [{ ...points[0], ...a }, { ...points[1], ...b }] } });
  await bad(p({ px: 350 }, {}), 400, 'same px', /differ by at least 1 in px, py, x and y; they do not in px/);
  await bad(p({}, { py: 250 }), 400, 'same py', /do not in py/);
  await bad(p({ x: 3000 }, {}), 400, 'same x', /do not in x/);
  await bad(p({}, { y: -3000 }), 400, 'same y', /do not in y/);
  await bad(p({ px: 401 }, {}), 400, 'off the image', /outside the 400×300 image/);
  await bad(p({ py: -1 }, {}), 400, 'negative pixel', /py must be at least 0/);
  await bad(p({ x: 100_001 }, {}), 400, 'game x out of range', /x must be at most 100000/);
  await bad({ calibration: { points: [points[0]] } }, 400, 'one point', /exactly two points/);
  await bad({ calibration: { points: [...points, points[0]] } }, 400, 'three points', /exactly two points/);
  await bad({ calibration: { points: [{ ...points[0], z: 1 }, points[1]] } }, 400, 'unknown key');
  await bad({ calibration: 'x' }, 400, 'not an object');
  await bad({ imageUploadId: null, calibration: { points } }, 400, 'calibration without image', /no image to calibrate/);
  await bad({ imageUploadId: String(foreign) }, 404, 'another guild\'s upload', new RegExp(`no upload ${foreign} in this guild`));
  await bad({ imageUploadId: '999999999' }, 404, 'unknown upload');
  await bad({ imageUploadId: 'logo.png' }, 400, 'not an upload id', /imageUploadId must be a string of digits/);
  await bad({ staleAfterSeconds: 9 }, 400, 'stale too short', /10 to 3600/);
  await bad({ staleAfterSeconds: 3601 }, 400, 'stale too long', /10 to 3600/);
  await bad({ staleAfterSeconds: 30.5 }, 400, 'stale not whole');
  await bad({}, 400, 'nothing to change', /at least one of/);
  await bad({ guildId: OTHER, staleAfterSeconds: 20 }, 400, 'unknown key guildId');
  const reason = await api('PUT', '/admin/map', { key, body: p({ px: 350 }, {}) });
  t.equal(reason.body.reason, 'map_calibration_invalid');
  t.equal((await api('PUT', '/admin/map', { key, body: { imageUploadId: String(foreign) } })).body.reason, 'map_image_unknown');
  t.same((await api('GET', '/map', { key })).body, before, 'nothing changed');
});

t.test('rights: dispatch.view reads; settings.manage writes; scoped keys and other ranks are refused', async (t) => {
  assertError(t, await api('GET', '/map', { session: s.crew }), 403, 'crew without dispatch.view');
  assertError(t, await api('GET', '/map/postals', { session: s.crew }), 403, 'crew postals');
  assertError(t, await api('GET', '/map/image', { session: s.crew }), 403, 'crew image');
  t.equal((await api('GET', '/map', { session: s.leit })).status, 200, 'dispatcher reads');
  for (const who of ['view', 'leit', 'crew'] as const) {
    assertError(t, await api('PUT', '/admin/map', { session: s[who], body: { staleAfterSeconds: 30 } }), 403, `${who} PUT /admin/map`);
    assertError(t, await api('GET', '/admin/map', { session: s[who] }), 403, `${who} GET /admin/map`);
    assertError(t, await api('PUT', '/admin/map/postals', { session: s[who], body: { postals: [] } }), 403, `${who} PUT /admin/map/postals`);
  }
  const scoped = await scopedKey(server.sql, G, specScopes, 'every scope');
  for (const [method, path, body] of [['GET', '/map'], ['GET', '/map/postals'], ['GET', '/map/image'], ['GET', '/admin/map'], ['PUT', '/admin/map', { staleAfterSeconds: 30 }], ['PUT', '/admin/map/postals', { postals: [] }]] as const) {
    assertError(t, await api(method, path, { key: scoped, body }), 403, `scoped key ${method} ${path}`);
  }
  assertError(t, await api('GET', `/map/image?guild=${OTHER}`, { session: s.view }), 400, 'guild and x-guild-id differ');
  const otherKey = await unscopedKey(server.sql, OTHER);
  t.same((await api('GET', '/map', { key: otherKey })).body, { image: null, calibration: null, staleAfterSeconds: 60, postals: 0 }, 'another guild has its own map');
  await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: false } } });
  assertError(t, await api('GET', '/map', { key }), 404, 'module dispatch off');
  assertError(t, await api('GET', '/admin/map', { key }), 404, 'module dispatch off: GET /admin/map');
  await api('PATCH', '/admin/modules', { key, body: { modules: { dispatch: true } } });
});
