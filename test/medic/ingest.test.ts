import t from 'tap';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { everyType, vital } from './events.ts';

// POST /medic/events through the real server: every type applied, idempotent ids, mixed batches.
const server = await startTestServer(t);
const G = 'g-medic-ingest';
await seedGuild(server.sql, G, [{ userId: '100', nickname: 'Anna', admin: true }]);
const key = await unscopedKey(server.sql, G);
const api = (method: string, path: string, o: Parameters<typeof call>[3] = {}) => call(server.url, method, path, { key, ...o });
const post = (events: unknown[]) => api('POST', '/medic/events', { body: { events } });

t.test('one event of every type is applied and lands in one patient file', async (t) => {
  const events = everyType('CIT-1');
  const res = await post(events);
  t.equal(res.status, 200, res.text.slice(0, 500));
  t.same(res.body.results.map((r: any) => r.status), events.map(() => 'applied'));
  t.match(res.body, { applied: events.length, duplicates: 0, rejected: 0 });
  const list = await api('GET', '/medic/patients?status=all&q=CIT-1');
  t.equal(list.status, 200, list.text);
  t.equal(list.body.patients.length, 1);
  const file = await api('GET', `/medic/patients/${list.body.patients[0].fileId}`);
  t.equal(file.status, 200, file.text.slice(0, 500));
  t.match(file.body, { citizenId: 'CIT-1', name: 'Max Muster', status: 'closed', outcome: 'discharged', injuries: [{ injuryId: 'inj-1', severity: 3, state: 'treated', bleeding: 2 }] });
  t.equal(file.body.timeline.length, events.length - 1, 'every event but the vital sample');
  t.equal(file.body.vitals.points.length, 1);
  t.equal(file.body.ecg[0].samples.length, 500);
  t.equal(file.body.images.length, 1);
  t.same(file.body.labs[0].substances, { thc: 12.5, ethanol: 0.4 });
});

t.test('a batch sent twice is applied once', async (t) => {
  const events = [...everyType('CIT-2').slice(0, 8), vital('CIT-2'), vital('CIT-2')];
  const first = await post(events);
  t.equal(first.body.applied, events.length);
  const again = await post(events);
  t.equal(again.status, 200);
  t.same(again.body.results.map((r: any) => r.status), events.map(() => 'duplicate'));
  const [{ n }] = await server.sql`select count(*)::int as n from medic_vitals where guild_id = ${G} and event_id like 'v-%'`;
  t.ok(n >= 2);
});
