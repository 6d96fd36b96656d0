import t from 'tap';
import { medicWorld } from './world.ts';
import { everyType, nextId, vital } from './events.ts';

// Spec conventions: "ids are strings; timestamps are ISO 8601 in UTC". The medic routes answer
// fileId, image ids and nextBefore as strings and every time (at, updatedAt, openedAt, closedAt,
// lastEventAt, addedAt, changedAt, receivedAt) as an ISO 8601 UTC string, on REST and in the
// `medic` topic's notices alike. Inputs keep taking epoch milliseconds, and take ISO strings too.
const G = '662000000000000001';
const { server, api, post } = await medicWorld(t, G);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isDigits = (v: unknown) => typeof v === 'string' && /^[1-9][0-9]*$/.test(v);
const iso = (ms: number) => new Date(ms).toISOString();

/** Every value under a key ending in `At` (or named `at`) in `v`, with its path. */
function times(v: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => times(x, `${path}[${i}]`));
  if (v === null || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => [
    ...(k === 'at' || k.endsWith('At') ? [[`${path}.${k}`, x] as [string, unknown]] : []),
    ...(k === 'data' ? [] : times(x, `${path}.${k}`)),
  ]);
}

const at = Date.UTC(2026, 10, 20, 18, 30, 5, 120);

t.test('a patient file answers string ids and ISO 8601 UTC times', async (t) => {
  const applied = await post(everyType('ISO-1', at).slice(0, -1)); // left open
  t.equal(applied.body.rejected, 0);
  await api('PUT', '/medic/citizens/ISO-1/state', { body: { at, state: 'injured', health: 150 } });
  const list = await api('GET', '/medic/patients');
  const row = list.body.patients.find((p: { citizenId: string }) => p.citizenId === 'ISO-1');
  t.ok(isDigits(row.fileId), `fileId ${JSON.stringify(row.fileId)} is a string`);
  t.match(row, { openedAt: iso(at), lastEventAt: iso(at), closedAt: null, state: { at: iso(at) }, lastVitals: { at: iso(at) } });
  t.match(row.state.updatedAt, ISO, 'state.updatedAt');

  const file = (await api('GET', `/medic/patients/${row.fileId}`)).body;
  t.equal(file.fileId, row.fileId);
  t.ok(file.images.length === 1 && isDigits(file.images[0].id), 'image id is a string');
  t.equal(file.images[0].url, `/api/v1/medic/images/${file.images[0].id}?guild=${G}`);
  const all = times(file);
  t.ok(all.length > 20, `${all.length} times in the file`);
  t.same(all.filter(([, v]) => v !== null && !(typeof v === 'string' && ISO.test(v))), [], 'every time is ISO 8601 UTC (or null)');
  t.equal(file.timeline[0].at, iso(at), 'the game time as sent, in ISO');
  t.equal(file.injuries[0].addedAt, iso(at));

  const vitals = (await api('GET', `/medic/patients/${row.fileId}/vitals`)).body;
  t.same(vitals.points.map((p: { at: string }) => p.at), [iso(at)]);
  const closed = await api('POST', `/medic/patients/${row.fileId}/close`, { body: {} });
  t.equal(closed.status, 200);
  t.match(closed.body.closedAt, ISO, 'closedAt');
  t.equal(closed.body.fileId, row.fileId);
});

t.test('PUT /medic/citizens/{id}/state answers ISO times', async (t) => {
  const res = await api('PUT', '/medic/citizens/ISO-2/state', { body: { at, state: 'downed' } });
  t.equal(res.status, 200);
  t.equal(res.body.state.at, iso(at));
  t.match(res.body.state.updatedAt, ISO);
  const older = await api('PUT', '/medic/citizens/ISO-2/state', { body: { at: at - 1000, state: 'ok' } });
  t.match(older.body, { applied: false, state: { at: iso(at), state: 'downed' } });
});

t.test('inputs take ISO 8601 times as well as epoch milliseconds', async (t) => {
  const later = at + 60_000;
  const res = await post([vital('ISO-3', { heartRate: 90 }, at), { ...vital('ISO-3', { heartRate: 95 }), at: iso(later) }]);
  t.same(res.body.results.map((r: { status: string }) => r.status), ['applied', 'applied'], JSON.stringify(res.body.results));
  const state = await api('PUT', '/medic/citizens/ISO-3/state', { body: { at: iso(later), state: 'ok' } });
  t.equal(state.status, 200);
  t.equal(state.body.state.at, iso(later));
  const row = (await api('GET', '/medic/patients?q=ISO-3')).body.patients[0];
  t.equal(row.lastEventAt, iso(later));
  const range = await api('GET', `/medic/patients/${row.fileId}/vitals?from=${encodeURIComponent(iso(later))}`);
  t.same(range.body.points.map((p: { at: string; heartRate: number }) => [p.at, p.heartRate]), [[iso(later), 95]], 'from as an ISO time');
  const bad = await post([{ ...vital('ISO-3'), at: '2026-13-01T00:00:00Z' }, { ...vital('ISO-3'), at: '1999-01-01T00:00:00.000Z' }]);
  t.same(bad.body.results.map((r: { status: string; code?: number }) => [r.status, r.code]), [['rejected', 400], ['rejected', 400]]);
  t.match(bad.body.results[0].error, /^events\[0\]\.at /);
});

t.test('paging: nextBefore is a string id and is taken back as one', async (t) => {
  for (let i = 0; i < 3; i++) await post([vital(`PAGE-${i}`, { heartRate: 70 }, at + i)]);
  const page1 = (await api('GET', '/medic/patients?q=PAGE-&limit=2')).body;
  t.ok(isDigits(page1.nextBefore), `nextBefore ${JSON.stringify(page1.nextBefore)}`);
  const page2 = (await api('GET', `/medic/patients?q=PAGE-&limit=2&before=${page1.nextBefore}`)).body;
  t.same(page2.patients.map((p: { citizenId: string }) => p.citizenId), ['PAGE-0']);
});

t.test('the medic topic carries the same shapes', async (t) => {
  const before = server.events.length;
  await post([{ id: nextId('adm'), type: 'patient_admitted', citizenId: 'ISO-4', at }]);
  await api('PUT', '/medic/citizens/ISO-4/state', { body: { at, state: 'ok' } });
  const ops = server.events.slice(before).flatMap((e) => e.deltas.medic ?? []) as { op: string; key: string; value: any }[];
  const upsert = ops.find((o) => o.op === 'upsert');
  t.ok(upsert && isDigits(upsert.value.fileId) && upsert.key === upsert.value.fileId, 'upsert: fileId a string, the key too');
  t.match(upsert?.value, { openedAt: iso(at), lastEventAt: iso(at), closedAt: null });
  t.match(ops.find((o) => o.op === 'state')?.value, { at: iso(at), updatedAt: ISO });
});
