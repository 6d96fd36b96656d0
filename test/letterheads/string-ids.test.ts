import t from 'tap';
import { letterheadWorld, solidPng } from './world.ts';
import { fileForm } from '../uploads/images.ts';

// Spec conventions: "ids are strings". Letterheads and uploads answer their ids (and a letterhead's
// logoUploadId) as strings, and take them as strings: PUT /letterheads/order {"ids":["2","1"]}.
// A number is still taken on input (as badges are: 7 and "7"), so clients written before keep working.
const { who, api } = await letterheadWorld(t);
const key = { key: who.key };
const isDigits = (v: unknown) => typeof v === 'string' && /^[1-9][0-9]*$/.test(v);

t.test('uploads: POST, GET and DELETE answer string ids', async (t) => {
  const form = fileForm(solidPng('#1b5e20'), 'logo.png');
  const made = await api('POST', '/uploads', { ...key, raw: form.body, contentType: form.contentType });
  t.equal(made.status, 200);
  t.ok(isDigits(made.body.id), `POST /uploads id ${JSON.stringify(made.body.id)} is a string of digits`);
  const list = (await api('GET', '/uploads', key)).body.uploads;
  t.ok(list.length > 0 && list.every((u: { id: unknown }) => isDigits(u.id)), 'GET /uploads: every id a string');
  const second = await api('POST', '/uploads', { ...key, raw: form.body, contentType: form.contentType });
  const gone = await api('DELETE', `/uploads/${second.body.id}`, key);
  t.equal(gone.status, 200);
  t.same(gone.body, { deleted: true, id: second.body.id, clearedLetterheadLogos: 0 }, 'DELETE answers the id as a string');
});

t.test('letterheads: ids, logoUploadId and deleted.id are strings; order takes string ids', async (t) => {
  const form = fileForm(solidPng('#0d47a1'), 'wappen.png');
  const logo = (await api('POST', '/uploads', { ...key, raw: form.body, contentType: form.contentType })).body.id as string;
  const a = (await api('POST', '/letterheads', { ...key, body: { name: 'Erster', logoUploadId: logo } })).body;
  const b = (await api('POST', '/letterheads', { ...key, body: { name: 'Zweiter' } })).body;
  t.ok(isDigits(a.id) && isDigits(b.id), `created ids ${JSON.stringify([a.id, b.id])} are strings`);
  t.equal(a.logoUploadId, logo, 'logoUploadId as a string, as it was sent');

  const ids = [String(b.id), String(a.id)];
  const ordered = await api('PUT', '/letterheads/order', { ...key, body: { ids } });
  t.equal(ordered.status, 200, `PUT /letterheads/order {"ids":${JSON.stringify(ids)}}: ${ordered.text.slice(0, 160)}`);
  t.same(ordered.body.letterheads?.map((l: { id: string; position: number }) => [l.id, l.position]), [[b.id, 0], [a.id, 1]]);
  const list = (await api('GET', '/letterheads', { session: who.view })).body.letterheads;
  t.same(list.map((l: { id: unknown }) => l.id), [b.id, a.id], 'GET /letterheads lists string ids in the new order');

  const patched = await api('PATCH', `/letterheads/${a.id}`, { ...key, body: { version: a.version, logoUploadId: null } });
  t.equal(patched.status, 200);
  t.equal(patched.body.id, a.id);
  const relinked = await api('PATCH', `/letterheads/${a.id}`, { ...key, body: { version: patched.body.version, logoUploadId: logo } });
  t.equal(relinked.body.logoUploadId, logo, 'a string logoUploadId is taken on PATCH');

  const deleted = await api('DELETE', `/letterheads/${b.id}`, { session: who.delete });
  t.equal(deleted.status, 200);
  t.same(deleted.body.deleted, { id: b.id, name: 'Zweiter' }, 'deleted.id is a string');
  t.same(deleted.body.letterheads.map((l: { id: unknown }) => l.id), [a.id]);
});

t.test('numbers are still taken on input (clients written before)', async (t) => {
  const list = (await api('GET', '/letterheads', key)).body.letterheads as { id: string }[];
  const res = await api('PUT', '/letterheads/order', { ...key, body: { ids: list.map((l) => Number(l.id)) } });
  t.equal(res.status, 200, 'PUT /letterheads/order with numbers');
  t.ok(res.body.letterheads.every((l: { id: unknown }) => isDigits(l.id)), 'and answers strings');
  const form = fileForm(solidPng('#c0392b'), 'alt.png');
  const logo = (await api('POST', '/uploads', { ...key, raw: form.body, contentType: form.contentType })).body.id as string;
  const made = await api('POST', '/letterheads', { ...key, body: { name: 'Mit Zahl', logoUploadId: Number(logo) } });
  t.equal(made.status, 200, 'logoUploadId as a number');
  t.equal(made.body.logoUploadId, logo, 'answered as a string');
});

t.test('bad ids are a 400 naming the field', async (t) => {
  for (const ids of [['abc'], ['0'], [''], ['1.5'], [true], ['١'], ['007']]) {
    const res = await api('PUT', '/letterheads/order', { ...key, body: { ids } });
    t.equal(res.status, 400, `ids ${JSON.stringify(ids)}`);
    t.match(res.body.error, /ids/);
  }
  const res = await api('POST', '/letterheads', { ...key, body: { name: 'Kaputt', logoUploadId: 'x1' } });
  t.equal(res.status, 400);
  t.match(res.body.error, /logoUploadId/);
});
