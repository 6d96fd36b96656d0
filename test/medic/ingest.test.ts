import t from 'tap';
import { everyType, nextId, vital } from './events.ts';
import { medicWorld } from './world.ts';

// POST /medic/events through the real server: every type applied into one file, idempotent ids
// (across types, within a batch, on a retried batch), mixed batches, implicit opening and closing.
const G = 'g-medic-ingest';
const { server, api, post, fileOf } = await medicWorld(t, G);
const count = async (table: 'medic_events' | 'medic_vitals' | 'medic_injuries' | 'medic_images' | 'medic_files') =>
  (await server.sql`select count(*)::int as n from ${server.sql(table)} where guild_id = ${G}`)[0].n as number;
const statuses = (res: { body: any }) => res.body.results.map((r: any) => r.status);

t.test('one event of every type is applied and lands in one patient file', async (t) => {
  const at = Date.now() - 60_000;
  const iso = new Date(at).toISOString();
  const events = everyType('CIT-1', at);
  const res = await post(events);
  t.equal(res.status, 200);
  t.same(statuses(res), events.map(() => 'applied'));
  t.same(res.body.results.map((r: any) => r.id), events.map((e) => e.id), 'ids echoed in order');
  t.same(res.body.results.map((r: any) => r.index), events.map((_, i) => i));
  t.match(res.body, { applied: events.length, duplicates: 0, rejected: 0 });
  const file = await fileOf('CIT-1');
  t.match(file, {
    citizenId: 'CIT-1', name: 'Max Muster', status: 'closed', outcome: 'discharged', openedAt: iso, closedAt: iso, lastEventAt: iso,
    injuries: [{ injuryId: 'inj-1', bodyPart: 'chest', kind: 'gunshot', severity: 3, bleeding: 2, state: 'treated', addedAt: iso, changedAt: iso }],
    treatments: [{ treatment: 'tourniquet', item: 'medic_tourniquet', injuryId: 'inj-1', by: { name: 'Dr. Who', badge: '12' }, tier: 3, result: 'success', note: null }],
    vitals: { count: 1, downsampled: false, points: [{ at: iso, heartRate: 110, systolic: 95, diastolic: 60, spo2: 93, respRate: 22, gcs: 13 }] },
    ecg: [{ rhythm: 'sinus_tachycardia', sampleRateHz: 250, lead: 'II' }],
    labs: [{ unit: 'ng/mL', substances: { thc: 12.5, ethanol: 0.4 } }],
    images: [{ modality: 'xray', bodyPart: 'chest', finding: 'Projektil in Thoraxwand', contentType: 'image/png', width: 64, height: 48 }],
    lastVitals: { heartRate: 110 },
  });
  t.equal(file.vitals.points[0].temperature, 36.4);
  t.equal(file.ecg[0].samples.length, 500);
  t.same(file.timeline.map((e: any) => e.type), events.filter((e) => e.type !== 'vitals').map((e) => e.type), 'timeline: every event but the sample, in order');
  t.match(file.timeline[1].summary, /Verletzung: Schusswunde, Brust, Schwere 4/);
  t.equal(file.timeline.find((e: any) => e.type === 'injury_changed').summary, 'Verletzung (Schusswunde, Brust) geändert: Schwere 3, versorgt', 'a change names the injury by kind and body part, not by the game\'s id');
  t.notOk('samples' in file.timeline.find((e: any) => e.type === 'ecg').data, 'the timeline leaves ECG samples out');
  t.notOk('image' in file.timeline.find((e: any) => e.type === 'imaging').data, 'and image bytes');
  const list = await api('GET', '/medic/patients?status=closed&q=cit-1');
  t.match(list.body, { patients: [{ fileId: file.fileId, injuries: 1, lastVitals: { heartRate: 110 } }], nextBefore: null });
});

t.test('a batch sent twice is applied once: the second answer is all duplicate and nothing is doubled', async (t) => {
  const events = [...everyType('CIT-2').slice(0, 8), vital('CIT-2'), vital('CIT-2', { spo2: 90 })];
  t.equal((await post(events)).body.applied, events.length);
  const before = { events: await count('medic_events'), vitals: await count('medic_vitals'), injuries: await count('medic_injuries'), images: await count('medic_images'), files: await count('medic_files') };
  const fileBefore = await fileOf('CIT-2');
  const again = await post(events);
  t.equal(again.status, 200);
  t.same(statuses(again), events.map(() => 'duplicate'));
  t.match(again.body, { applied: 0, duplicates: events.length, rejected: 0 });
  t.same({ events: await count('medic_events'), vitals: await count('medic_vitals'), injuries: await count('medic_injuries'), images: await count('medic_images'), files: await count('medic_files') }, before);
  t.same(await fileOf('CIT-2'), fileBefore, 'the file is as it was');
});

t.test('an id is unique across types: a sample id reused by an injury is a duplicate, and the other way round', async (t) => {
  const id = nextId('shared');
  t.same(statuses(await post([{ ...vital('CIT-3'), id }])), ['applied']);
  const injury = { id, type: 'injury_added', citizenId: 'CIT-3', at: Date.now(), injuryId: 'x', bodyPart: 'head', kind: 'blunt', severity: 1 };
  t.same(statuses(await post([injury])), ['duplicate'], 'an injury with a sample\'s id');
  const id2 = nextId('shared');
  t.same(statuses(await post([{ ...injury, id: id2, injuryId: 'y' }])), ['applied']);
  t.same(statuses(await post([{ ...vital('CIT-3'), id: id2 }])), ['duplicate'], 'a sample with an injury\'s id');
  const id3 = nextId('twice');
  t.same(statuses(await post([{ ...vital('CIT-3'), id: id3 }, { ...vital('CIT-3', { heartRate: 99 }), id: id3 }, { ...injury, id: id3 }])), ['applied', 'duplicate', 'duplicate'], 'within one batch the first wins');
  const file = await fileOf('CIT-3');
  t.same(file.injuries.map((i: any) => i.injuryId), ['y']);
  t.equal(file.vitals.count, 2);
});

t.test('a mixed batch: invalid events are rejected with their index, the valid ones applied in order', async (t) => {
  const events = [
    vital('CIT-4', { heartRate: 70 }), vital('CIT-4', { heartRate: 301 }),
    { id: nextId('x'), type: 'injury_added', citizenId: 'CIT-4', at: Date.now(), injuryId: 'leg', bodyPart: 'left_leg', kind: 'fracture', severity: 3 },
    { id: nextId('x'), type: 'nope', citizenId: 'CIT-4', at: Date.now() },
    { id: nextId('x'), type: 'injury_changed', citizenId: 'CIT-4', at: Date.now(), injuryId: 'arm', state: 'healed' },
    { id: nextId('x'), type: 'injury_changed', citizenId: 'CIT-4', at: Date.now(), injuryId: 'leg', state: 'healed' },
    vital('CIT-4', { heartRate: 75 }),
  ];
  const res = await post(events);
  t.same(statuses(res), ['applied', 'rejected', 'applied', 'rejected', 'rejected', 'applied', 'applied']);
  t.match(res.body.results[1], { index: 1, code: 400, error: 'events[1].heartRate must be at most 300' });
  t.match(res.body.results[3], { index: 3, code: 400, error: /^events\[3\]\.type "nope" is unknown/ });
  t.match(res.body.results[4], { index: 4, code: 400, error: /^events\[4\]\.injuryId "arm" is not an injury of the citizen's open patient file/ });
  t.match(res.body, { applied: 4, duplicates: 0, rejected: 3 });
  const file = await fileOf('CIT-4');
  t.same(file.vitals.points.map((p: any) => p.heartRate), [70, 75]);
  t.match(file.injuries, [{ injuryId: 'leg', state: 'healed' }]);
  const list = await api('GET', '/medic/patients?q=CIT-4');
  t.equal(list.body.patients[0].injuries, 0, 'a healed injury is not counted');
  const retried = await post(events);
  t.same(statuses(retried), ['duplicate', 'rejected', 'duplicate', 'rejected', 'rejected', 'duplicate', 'duplicate'], 'retried: rejected ones stay rejected');
});

t.test('files open implicitly, close by discharge/death/respawn, and a closing event without a file is only recorded', async (t) => {
  const at = Date.now() - 10_000;
  const res = await post([
    { id: nextId('c'), type: 'patient_deceased', citizenId: 'CIT-5', at: at - 1000, cause: 'Sturz' },
    { id: nextId('c'), type: 'injury_added', citizenId: 'CIT-5', at, injuryId: 'i', bodyPart: 'back', kind: 'burn', severity: 2 },
    { id: nextId('c'), type: 'patient_respawned', citizenId: 'CIT-5', at: at + 1, hospital: 'Pillbox', bill: 500 },
    vital('CIT-5', { gcs: 15 }, at + 2),
  ]);
  t.same(statuses(res), ['applied', 'applied', 'applied', 'applied']);
  const files = await server.sql`select id, opened_at, closed_at, outcome from medic_files where guild_id = ${G} and citizen_id = 'CIT-5' order by id`;
  t.equal(files.length, 2, 'the respawn closed the first file, the sample opened a second');
  t.match(files.map((f) => ({ opened: Number(f.opened_at), closed: f.closed_at === null ? null : Number(f.closed_at), outcome: f.outcome })),
    [{ opened: at, closed: at + 1, outcome: 'respawned' }, { opened: at + 2, closed: null, outcome: null }]);
  const [orphan] = await server.sql`select file_id, type from medic_events where guild_id = ${G} and citizen_id = 'CIT-5' and type = 'patient_deceased'`;
  t.same(orphan, { file_id: null, type: 'patient_deceased' }, 'the death without a file is kept with no file');
  const admitted = await post([{ id: nextId('c'), type: 'patient_admitted', citizenId: 'CIT-5', at: at + 3, name: 'Erika' }]);
  t.same(statuses(admitted), ['applied']);
  const open = await server.sql`select count(*)::int as n, max(name) as name from medic_files where guild_id = ${G} and citizen_id = 'CIT-5' and closed_at is null`;
  t.same(open[0], { n: 1, name: 'Erika' }, 'admitted with a file open keeps it and names it');
});

t.test('listing: newest activity first, search by citizen prefix and name, pages', async (t) => {
  const base = Date.now() - 3600_000;
  for (let i = 0; i < 5; i++) await post([{ id: nextId('l'), type: 'patient_admitted', citizenId: `LIST-${i}`, at: base + i * 1000, name: `Pat ${i} Müller%` }]);
  const page1 = await api('GET', '/medic/patients?q=list-&limit=2');
  t.same(page1.body.patients.map((p: any) => p.citizenId), ['LIST-4', 'LIST-3']);
  const page2 = await api('GET', `/medic/patients?q=list-&limit=2&before=${page1.body.nextBefore}`);
  t.same(page2.body.patients.map((p: any) => p.citizenId), ['LIST-2', 'LIST-1']);
  const page3 = await api('GET', `/medic/patients?q=list-&limit=2&before=${page2.body.nextBefore}`);
  t.same(page3.body.patients.map((p: any) => p.citizenId), ['LIST-0']);
  t.equal(page3.body.nextBefore, null);
  t.same((await api('GET', '/medic/patients?q=3 MÜLLER')).body.patients.map((p: any) => p.citizenId), ['LIST-3'], 'name, case-insensitive');
  t.same((await api('GET', '/medic/patients?q=%25')).body.patients.map((p: any) => p.citizenId), ['LIST-4', 'LIST-3', 'LIST-2', 'LIST-1', 'LIST-0'],
    'a % is matched literally: only the names with %');
  t.same((await api('GET', '/medic/patients?q=ST-')).body.patients, [], 'citizen id by prefix only');
  // open and closed files in one activity order: close LIST-1 and LIST-3 (their activity stays), then page through all
  await post([{ id: nextId('l'), type: 'patient_discharged', citizenId: 'LIST-1', at: base + 1000 }, { id: nextId('l'), type: 'patient_deceased', citizenId: 'LIST-3', at: base + 3000 }]);
  const seen: string[] = [];
  let before: number | null = null;
  do {
    const page: any = await api('GET', `/medic/patients?status=all&q=LIST-&limit=2${before ? `&before=${before}` : ''}`);
    seen.push(...page.body.patients.map((p: any) => `${p.citizenId}:${p.status}`));
    before = page.body.nextBefore;
  } while (before);
  t.same(seen, ['LIST-4:open', 'LIST-3:closed', 'LIST-2:open', 'LIST-1:closed', 'LIST-0:open'], 'status=all: newest activity first across open and closed');
  t.same((await api('GET', '/medic/patients?status=closed&q=LIST-')).body.patients.map((p: any) => p.citizenId), ['LIST-3', 'LIST-1']);
  t.same((await api('GET', '/medic/patients?q=LIST-')).body.patients.map((p: any) => p.citizenId), ['LIST-4', 'LIST-2', 'LIST-0'], 'open by default');
  for (const bad of ['limit=0', 'limit=201', 'status=gone', 'before=x', 'nope=1']) t.equal((await api('GET', `/medic/patients?${bad}`)).status, 400, bad);
  t.equal((await api('GET', '/medic/patients/999999')).status, 404);
  t.equal((await api('GET', '/medic/patients/abc')).status, 400);
});
