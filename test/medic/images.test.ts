import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { drawn, gif, pngOfSize } from '../uploads/images.ts';
import { nextId, vital } from './events.ts';
import { medicWorld } from './world.ts';

// Imaging events: the image is checked from its bytes (size 413 and type 415 for that event only),
// stored with the file and served back; the route's 16 MiB body limit (and 1 MiB elsewhere).
const G = 'g-medic-images';
const { server, post, api, as, fileOf } = await medicWorld(t, G);
const imaging = (citizenId: string, image: string) => ({ id: nextId('img'), type: 'imaging', citizenId, at: Date.now(), modality: 'ct', bodyPart: 'head', image });
const b64 = (b: Buffer) => b.toString('base64');
async function bytes(path: string, headers: Record<string, string>) {
  const res = await fetch(server.url + path, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

t.test('PNG, JPEG and WebP (plain base64 or a data URI) are attached and served back byte for byte', async (t) => {
  const images = [drawn('png', 40, 30), drawn('jpeg', 50, 20), drawn('webp', 33, 22)];
  const res = await post([imaging('IMG-1', b64(images[0])), imaging('IMG-1', `data:image/jpeg;base64,${b64(images[1])}`), imaging('IMG-1', b64(images[2]))]);
  t.same(res.body.results.map((r: any) => r.status), ['applied', 'applied', 'applied']);
  const file = await fileOf('IMG-1');
  t.match(file.images, [{ contentType: 'image/png', width: 40, height: 30, modality: 'ct' }, { contentType: 'image/jpeg', width: 50 }, { contentType: 'image/webp', width: 33 }]);
  for (const [i, img] of file.images.entries()) {
    t.equal(img.url, `/api/v1/medic/images/${img.id}?guild=${G}`);
    t.equal((await bytes(img.url, {})).status, 401, 'no credential, no image');
    const got = await bytes(img.url, { cookie: as.viewer.cookie });
    t.equal(got.status, 200, 'a viewer\'s browser loads it by the url alone (guild from the query)');
    t.equal(got.type, img.contentType);
    t.ok(got.body.equals(images[i]), 'byte for byte');
  }
  const crew = await bytes(file.images[0].url, { cookie: as.crew.cookie });
  t.equal(crew.status, 403, 'without medic.files.view');
  t.equal((await api('GET', '/medic/images/99999999')).status, 404);
});

t.test('an image over 5 MiB is 413 for its event, another type 415, a damaged one 400; the rest is applied', async (t) => {
  const tooBig = pngOfSize(5 * 1024 * 1024 + 1);
  const justFits = pngOfSize(5 * 1024 * 1024);
  const whole = drawn('png', 60, 40);
  const damaged = whole.subarray(0, whole.length - 20);
  const res = await post([
    imaging('IMG-2', b64(tooBig)), vital('IMG-2'), imaging('IMG-2', b64(Buffer.from('just some text, not an image'))),
    imaging('IMG-2', b64(gif(4, 4))), imaging('IMG-2', b64(damaged)), imaging('IMG-2', 'not base64 !!'), imaging('IMG-2', b64(justFits)),
    imaging('IMG-2', b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))),
  ]);
  t.equal(res.status, 200);
  t.same(res.body.results.map((r: any) => r.code ?? r.status), [413, 'applied', 415, 415, 400, 400, 'applied', 415]);
  for (const r of res.body.results.filter((x: any) => x.code)) t.match(r.error, new RegExp(`^events\\[${r.index}\\]\\.image `), r.error);
  t.match(res.body.results[0].error, /larger than 5242880 bytes/);
  const file = await fileOf('IMG-2');
  t.equal(file.images.length, 1, 'only the image that fits');
  t.equal(file.vitals.count, 1, 'the sample beside the refused images is applied');
});

t.test('POST /medic/events takes bodies up to 16 MiB; larger is 413 for the request; other routes keep 1 MiB', async (t) => {
  const fourMiB = b64(pngOfSize(4 * 1024 * 1024)); // ~5.6 MB as base64
  const res = await post([imaging('IMG-3', fourMiB), imaging('IMG-3', fourMiB)]);
  t.equal(res.status, 200, 'an 11 MB body');
  t.same(res.body.results.map((r: any) => r.status), ['applied', 'applied']);
  const huge = await post([imaging('IMG-3', fourMiB), imaging('IMG-3', fourMiB), imaging('IMG-3', fourMiB)]);
  assertError(t, huge, 413, 'a 17 MB body', /body larger than 16777216 bytes/);
  t.equal((await fileOf('IMG-3')).images.length, 2, 'nothing of the refused request');
  const state = await api('PUT', '/medic/citizens/IMG-3/state', { body: { at: Date.now(), state: 'ok', name: 'x'.repeat(2 * 1024 * 1024) } });
  assertError(t, state, 413, 'the state route keeps 1 MiB', /body larger than 1048576 bytes/);
});
