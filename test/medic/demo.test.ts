import t from 'tap';
import { DEMO_GUILD, seedDemo, seedDemoHistory } from '../../server/seed/demo.ts';
import { unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer } from '../helpers/server.ts';

// The quick start's demo guild has a filled Medic tab: one open patient file with every kind of record.
const server = await startTestServer(t);

t.test('the demo patient file', async (t) => {
  t.ok(await seedDemo(server.deps.db, server.url));
  await seedDemoHistory(server.deps.db);
  const key = await unscopedKey(server.sql, DEMO_GUILD);
  const api = (path: string) => call(server.url, 'GET', path, { key });
  const list = await api('/medic/patients');
  t.equal(list.body.patients.length, 1);
  const file = (await api(`/medic/patients/${list.body.patients[0].fileId}`)).body;
  t.match(file, { name: 'Kevin Schuster', status: 'open', injuries: [{ injuryId: 'gsw-chest', state: 'treated' }, { injuryId: 'fx-leg', state: 'stable' }] });
  t.equal(file.vitals.count, 121, 'a sample every 10 s for 20 minutes');
  t.equal(Date.parse(file.vitals.points.at(-1).at) - Date.parse(file.vitals.points[0].at), 20 * 60_000);
  t.ok(file.vitals.points[0].heartRate > file.vitals.points.at(-1).heartRate, 'the heart rate comes down');
  t.equal(file.treatments.length, 3);
  t.match(file.ecg, [{ rhythm: 'sinus_tachycardia', sampleRateHz: 250 }]);
  t.equal(file.ecg[0].samples.length, 1000);
  t.match(file.labs, [{ substances: { THC: 14.2 } }]);
  t.match(file.images, [{ modality: 'xray', contentType: 'image/png', width: 160, height: 120 }]);
  const img = await fetch(server.url + file.images[0].url, { headers: { authorization: `Bearer ${key}` } });
  t.equal(img.status, 200);
  t.equal(Buffer.from(await img.arrayBuffer()).subarray(1, 4).toString(), 'PNG');
  t.ok(Date.parse(file.lastEventAt) <= Date.now());
  const q = await api('/medic/qualifications');
  t.match(q.body.tiers, [{ nickname: 'Demo Admin', tier: 4 }, { nickname: 'Jonas Krüger', tier: 3 }, { nickname: 'Mia Schneider', tier: 2 }, { nickname: 'Paul Wagner', tier: 1 }]);
});
