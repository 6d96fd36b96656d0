import t from 'tap';
import { assertError } from '../helpers/fixtures.ts';
import { caps, letterheadWorld, type Cap } from './world.ts';

// Who may call which letterhead route: members without the capability, a rank with exactly one
// capability, the guild's admin, an unscoped key and a scoped key; module documents switched off.
const { who, api } = await letterheadWorld(t);

type Who = Cap | 'member' | 'admin' | 'key' | 'scoped';
const everyone: Who[] = ['member', ...caps, 'admin', 'key', 'scoped'];
const auth = (w: Who) => (w === 'key' ? { key: who.key } : w === 'scoped' ? { key: who.scoped } : { session: who[w] });

let n = 0;
const create = async () => {
  const res = await api('POST', '/letterheads', { key: who.key, body: { name: `Fixture ${++n}` } });
  if (res.status !== 200) throw new Error(`fixture: ${res.status} ${res.text}`);
  return res.body as { id: number; version: number };
};
const allIds = async () => (await api('GET', '/letterheads', { key: who.key })).body.letterheads.map((l: { id: number }) => l.id);

/** Each route, the one capability that opens it, and a fresh request for one caller. */
const routes: Array<{ name: string; cap: Cap; request: (w: Who) => Promise<[string, string, Record<string, unknown>?]> }> = [
  { name: 'GET /letterheads', cap: 'view', request: async () => ['GET', '/letterheads'] },
  { name: 'POST /letterheads', cap: 'create', request: async (w) => ['POST', '/letterheads', { name: `By ${w} ${++n}` }] },
  { name: 'PATCH /letterheads/{id}', cap: 'edit', request: async () => { const l = await create(); return ['PATCH', `/letterheads/${l.id}`, { version: l.version, footer: 'x' }]; } },
  { name: 'DELETE /letterheads/{id}', cap: 'delete', request: async () => ['DELETE', `/letterheads/${(await create()).id}`] },
  { name: 'PUT /letterheads/order', cap: 'edit', request: async () => ['PUT', '/letterheads/order', { ids: (await allIds()).reverse() }] },
  { name: 'GET /letterheads/{id}/preview.png', cap: 'view', request: async () => ['GET', `/letterheads/${(await create()).id}/preview.png?width=300`] },
];

for (const route of routes) {
  t.test(`${route.name}: ${route.cap} rank, admin and unscoped key pass; member, other ranks and scoped keys 403`, async (t) => {
    for (const w of everyone) {
      const [method, path, body] = await route.request(w);
      const res = await api(method, path, { ...auth(w), body });
      const allowed = w === route.cap || w === 'admin' || w === 'key';
      if (allowed) t.equal(res.status, 200, `${w}: 200`);
      else assertError(t, res, 403, w, w === 'scoped' ? /scoped API keys/ : new RegExp(`documents\\.letterhead\\.${route.cap}`));
    }
    const [method, path, body] = await route.request('admin');
    assertError(t, await api(method, path, { body }), 401, 'no credential');
  });
}

t.test('module documents off: every letterhead route answers 404, on again they work', async (t) => {
  const l = await create();
  const ids = await allIds();
  t.equal((await api('PATCH', '/admin/modules', { key: who.key, body: { modules: { documents: false } } })).status, 200);
  const requests: Array<[string, string, Record<string, unknown>?]> = [
    ['GET', '/letterheads'], ['POST', '/letterheads', { name: 'Off' }],
    ['PATCH', `/letterheads/${l.id}`, { version: l.version, footer: 'off' }], ['DELETE', `/letterheads/${l.id}`],
    ['PUT', '/letterheads/order', { ids }], ['GET', `/letterheads/${l.id}/preview.png`],
  ];
  for (const [method, path, body] of requests) {
    assertError(t, await api(method, path, { key: who.key, body }), 404, `${method} ${path} with a key`, /module "documents" is switched off/);
    assertError(t, await api(method, path, { session: who.admin, body }), 404, `${method} ${path} as admin`, /documents/);
  }
  t.equal((await api('PATCH', '/admin/modules', { key: who.key, body: { modules: { documents: true } } })).status, 200);
  t.equal((await api('GET', `/letterheads/${l.id}/preview.png`, { key: who.key })).status, 200, 'on again: the preview');
  t.equal((await api('DELETE', `/letterheads/${l.id}`, { key: who.key })).status, 200, 'on again: the delete');
});
