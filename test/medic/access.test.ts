import t from 'tap';
import type { AnyProcedure } from '@trpc/server';
import { assertError, scopedKey, seedGuild, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { call } from '../helpers/server.ts';
import { medicRouter } from '../../server/domains/medic/router.ts';
import type { Meta } from '../../server/trpc/meta.ts';
import { nextId, vital, xray } from './events.ts';
import { medicWorld } from './world.ts';

// Who reaches the medic routes: every procedure of the medic router is tried (a new route cannot
// escape), with scoped keys (403 whatever their scopes), with the module off (404), from another
// guild (nothing of this guild visible); and the self-check's medicSync tells the truth.
const G = 'g-medic-access';
const B = 'g-medic-access-b';
const { server, key, post, api, fileOf } = await medicWorld(t, G);
await seedGuild(server.sql, B);
const keyB = await unscopedKey(server.sql, B);

await post([vital('SAME', { heartRate: 61 }), { id: nextId('i'), type: 'imaging', citizenId: 'SAME', at: Date.now(), modality: 'xray', bodyPart: 'neck', image: xray() }]);
const fileA = await fileOf('SAME');

/** Every medic procedure as a REST request that would succeed for the game's key. */
const routes = Object.entries(medicRouter._def.procedures as Record<string, AnyProcedure>).map(([name, p]) => {
  const rest = (p._def.meta as Meta).rest!;
  const path = rest.path.replace('{fileId}', String(fileA.fileId)).replace('{id}', rest.path.startsWith('/medic/images') ? String(fileA.images[0].id) : 'SAME');
  const bodies: Record<string, unknown> = {
    events: { events: [vital('SAME')] }, putState: { at: Date.now(), state: 'injured' }, setTiers: { mapping: [] }, close: { note: 'x' },
  };
  return { name, method: rest.method, path, body: rest.method === 'GET' ? undefined : bodies[name] };
});

t.test('the route list covers the router', async (t) => {
  t.ok(routes.length >= 10, `${routes.length} medic procedures`);
  for (const r of routes) t.ok(r.path.startsWith('/medic/'), `${r.name} is under /medic/`);
  t.ok(routes.every((r) => r.method === 'GET' || r.body !== undefined), 'every write has a body here');
});

t.test('scoped keys are 403 on every medic route, whatever their scopes', async (t) => {
  const all = await scopedKey(server.sql, G, specScopes, 'every scope');
  const one = await scopedKey(server.sql, G, ['calls:call.report'], 'calls only');
  for (const scoped of [all, one]) {
    for (const r of routes) assertError(t, await call(server.url, r.method, r.path, { key: scoped, body: r.body }), 403, `${r.method} ${r.path}`, /scoped API keys cannot use this route/);
  }
  t.equal((await fileOf('SAME')).status, 'open', 'nothing changed');
});

t.test('module medic off: every medic route is 404; on again: they answer', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { body: { modules: { medic: false } } })).status, 200);
  for (const r of routes) assertError(t, await call(server.url, r.method, r.path, { key, body: r.body }), 404, `${r.method} ${r.path}`, /module "medic" is switched off/);
  const check = await api('GET', '/integrations/ingame/self-check');
  t.equal(check.body.medicSync, false, 'self-check: medicSync false with the module off');
  t.equal((await api('PATCH', '/admin/modules', { body: { modules: { medic: true } } })).status, 200);
  t.equal((await api('GET', '/medic/patients')).status, 200);
});

t.test('self-check medicSync is true exactly when POST /medic/events accepts the key', async (t) => {
  const scoped = await scopedKey(server.sql, G, specScopes, 'game scoped');
  for (const [what, k] of [['unscoped', key], ['scoped', scoped]] as const) {
    const check = await call(server.url, 'GET', '/integrations/ingame/self-check', { key: k });
    const events = await call(server.url, 'POST', '/medic/events', { key: k, body: { events: [vital('SELF')] } });
    t.equal(check.body.medicSync, events.status === 200, `${what}: medicSync ${check.body.medicSync}, POST /medic/events ${events.status}`);
  }
});

t.test('cross-guild: the same citizen id is another patient in each guild, file ids of one are 404 in the other', async (t) => {
  const sameEvent = vital('SAME', { heartRate: 99 });
  const inB = await call(server.url, 'POST', '/medic/events', { key: keyB, body: { events: [sameEvent, { ...sameEvent, id: `${sameEvent.id}-b` }] } });
  t.same(inB.body.results.map((r: any) => r.status), ['applied', 'applied']);
  t.same((await post([sameEvent])).body.results.map((r: any) => r.status), ['applied'], 'an event id used in B is new in A');
  const listB = await call(server.url, 'GET', '/medic/patients', { key: keyB });
  t.equal(listB.body.patients.length, 1);
  const fileB = listB.body.patients[0];
  t.not(fileB.fileId, fileA.fileId);
  t.equal(fileB.lastVitals.heartRate, 99);
  t.equal(fileB.state, null, 'A\'s citizen state is not B\'s');
  for (const path of [`/medic/patients/${fileB.fileId}`, `/medic/patients/${fileB.fileId}/vitals`]) assertError(t, await api('GET', path), 404, `B's ${path} from A`);
  assertError(t, await api('POST', `/medic/patients/${fileB.fileId}/close`, { body: {} }), 404, 'closing B\'s file from A');
  for (const path of [`/medic/patients/${fileA.fileId}`, `/medic/images/${fileA.images[0].id}`]) assertError(t, await call(server.url, 'GET', path, { key: keyB }), 404, `A's ${path} from B`);
  await api('PUT', '/medic/citizens/SAME/state', { body: { at: Date.now(), state: 'downed' } });
  const again = await call(server.url, 'GET', '/medic/patients', { key: keyB });
  t.equal(again.body.patients[0].state, null, 'a state written in A does not show in B');
  t.equal((await call(server.url, 'GET', '/medic/patients?q=SAME', { key: keyB })).body.patients.length, 1);
  t.same((await fileOf('SAME')).vitals.points.map((p: any) => p.heartRate), [61, 99], 'A has its own samples only');
});
