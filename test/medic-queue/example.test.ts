/**
 * Issue 20, "done when": the example FiveM resource (client-sdk/examples/fivem-medic) loaded as FXServer
 * would load it (its fxmanifest's server scripts in one context with FiveM's globals and no fetch;
 * test/medic-queue/fivem-shim.ts) against the real server. An ambulance script's calls and the demo
 * command fill a patient file with injuries, treatments, vitals, an ECG, a tox screen and an X-ray.
 * A resource started without a key keeps its events across a resource restart and sends them once
 * a key is configured. Not a real FXServer (none can run here): no game, no players, no Lua.
 */
import t from 'tap';
import { build } from 'esbuild';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { client } from '../helpers/server.ts';
import { loadResource } from './fivem-shim.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { GUILD, medicServer, waitFor } from './helpers.ts';

const example = fileURLToPath(new URL('../../client-sdk/examples/fivem-medic', import.meta.url));
const sdk = fileURLToPath(new URL('../../client-sdk', import.meta.url));

/** A copy of the example resource with dt-client/{medic,game}.cjs built as the package builds them (CommonJS, Node 16). */
async function installResource(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'dt-fivem-')), 'dt-medic');
  t.teardown(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
  cpSync(example, dir, { recursive: true });
  for (const [entry, out] of [['medic/index.ts', 'medic.cjs'], ['game.ts', 'game.cjs']]) {
    await build({ entryPoints: [join(sdk, entry)], outfile: join(dir, 'dt-client', out), bundle: true, platform: 'node', format: 'cjs', target: 'node16', logLevel: 'silent' });
  }
  return dir;
}

t.test('the example resource fills a patient file: injuries, treatments, vitals, ECG, tox screen, X-ray', { timeout: 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const api = client(server);
  const path = await installResource(t);
  const fivem = loadResource({ path, name: 'dt-medic', convars: { dt_url: server.url, dt_key: key } });
  await fivem.start();
  t.teardown(() => fivem.stop());

  // The demo command (console), and an ambulance script's calls through the exports and the event.
  await fivem.command('dt_medic_demo', ['DEMO0001']);
  const at = Date.now() - 30_000;
  const id = fivem.callExport('injury', 'AMB00042', { at, injuryId: 'gsw-1', bodyPart: 'abdomen', kind: 'gunshot', severity: 5, bleeding: 3 });
  t.match(id, /^dt-medic-[0-9a-z]+-[0-9a-z]+$/, 'an id is made for the event: <resource>-<start>-<counter>');
  await fivem.emit('dt:medic:event', { type: 'treatment_applied', citizenId: 'AMB00042', at: at + 1000, treatment: 'Tourniquet', item: 'medic_tourniquet', injuryId: 'gsw-1', by: { name: 'Sani Müller' }, tier: 2, result: 'partial' });
  fivem.callExport('vitals', 'AMB00042', { at: at + 2000, heartRate: 134, systolic: 82, diastolic: 50, spo2: 89 });
  t.equal(await fivem.callExport('flush', 15_000), true, 'the resource delivers everything');
  t.equal((fivem.callExport('status') as { rejected: number }).rejected, 0, 'nothing rejected');

  const list = await api('GET', '/medic/patients?q=DEMO0001&status=all', { key });
  t.equal(list.status, 200);
  t.equal(list.body.patients.length, 1, 'one patient file for the demo citizen');
  const file = await api('GET', `/medic/patients/${list.body.patients[0].fileId}`, { key });
  t.equal(file.status, 200);
  const f = file.body;
  t.equal(f.name, 'Demo Patient');
  t.same(f.injuries.map((i: { injuryId: string; state: string }) => [i.injuryId, i.state]).sort(), [['demo-1', 'treated'], ['demo-2', 'open']], 'two injuries, one treated');
  t.equal(f.treatments.length, 2, 'two treatments');
  t.equal(f.vitals.count, 10, 'ten vital samples');
  t.equal(f.vitals.points[0].heartRate, 118, 'the first sample as sent');
  t.equal(f.ecg.length, 1, 'an ECG strip');
  t.equal(f.ecg[0].rhythm, 'sinus_tachycardia');
  t.equal(f.ecg[0].samples.length, 1000, '4 s at 250 Hz');
  t.equal(f.labs.length, 1, 'a tox screen');
  t.same(f.labs[0].substances, { ethanol: 420, THC: 12.5, cocaine: 0 });
  t.equal(f.images.length, 1, 'an X-ray image');
  t.match(f.images[0], { modality: 'xray', bodyPart: 'left_leg', contentType: 'image/png', width: 96, height: 128 });
  const image = await fetch(new URL(f.images[0].url, server.url), { headers: { authorization: `Bearer ${key}` } });
  t.equal(image.status, 200, 'the image is served');
  t.equal(image.headers.get('content-type'), 'image/png');

  const amb = await api('GET', '/medic/patients?q=AMB00042', { key });
  const ambFile = (await api('GET', `/medic/patients/${amb.body.patients[0].fileId}`, { key })).body;
  t.match(ambFile.injuries, [{ injuryId: 'gsw-1', kind: 'gunshot', severity: 5 }], 'the ambulance script\'s injury');
  t.match(ambFile.treatments, [{ treatment: 'Tourniquet' }], 'its treatment (through the event)');
  t.equal(ambFile.vitals.count, 1, 'its vitals');

  await fivem.stop();
  t.equal((fivem.callExport('status') as { state: string }).state, 'stopped', 'resource stop stops the sync');
});

t.test('care tier by service rank over job grade, emergency calls to the board, citizen state', { timeout: 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const api = client(server);
  await insertPerson(server.sql, GUILD, { userId: 'u7', nickname: 'Dr. Sieben', badge: '07', rankId: 'crew', isAdmin: false });
  t.equal((await api('PUT', '/medic/tiers', { key, body: { mapping: [{ rankId: 'crew', tier: 4 }] } })).status, 200, 'rank crew is care tier 4 on the board');
  const path = await installResource(t);
  const fivem = loadResource({ path, name: 'dt-medic', convars: { dt_url: server.url, dt_key: key } });
  await fivem.start(); // reads GET /medic/qualifications
  t.teardown(() => fivem.stop());
  t.equal(fivem.callExport('careTier', { badge: 7, jobGrade: 0 }), 4, 'badge 7: the service rank wins over job grade 0 (tier 2)');
  t.equal(fivem.callExport('careTier', { badge: 99, jobGrade: 1 }), 3, 'an unknown badge: job grade 1 gives tier 3 (Config.Medic.Tiers.jobs)');
  t.equal(fivem.callExport('careTier', {}), null, 'nothing known: no tier');

  const call = await fivem.callExport('notruf', { id: 'nr-1', title: 'Person bewusstlos', message: 'Atmet kaum', location: 'Pillbox Hill' }) as { externalId?: string } | null;
  t.equal(call?.externalId, 'nr-1', 'an emergency call goes to the dispatch board (Notruf.toDispatch)');
  const calls = await api('GET', '/integrations/ingame/calls', { key });
  t.ok(calls.body.calls.some((c: { externalId: string; title: string }) => c.externalId === 'nr-1' && c.title === 'Person bewusstlos'), 'the board lists it');

  await fivem.emit('dt:medic:state', 'STATE001', { state: 'downed', health: 0, conscious: false });
  fivem.callExport('vitals', 'STATE001', { heartRate: 40 });
  t.equal(await fivem.callExport('flush', 10_000), true);
  const list = await api('GET', '/medic/patients?q=STATE001', { key });
  t.match(list.body.patients[0]?.state, { state: 'downed', health: 0, conscious: false }, 'the citizen state is on the patient file');
});

t.test('no key at first: events survive a resource restart and go out once a key is set', { timeout: 60_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const path = await installResource(t);
  const first = loadResource({ path, name: 'dt-medic', convars: { dt_url: server.url, dt_key: '' } });
  await first.start();
  await first.command('dt_medic_demo', ['NOKEY001']);
  t.ok(await waitFor(() => (first.callExport('status') as { state: string }).state === 'no_key', 5000), 'it says there is no key');
  t.ok(first.output.some((l) => /no_key: no API key/.test(l)), 'on the console');
  await first.stop();

  const second = loadResource({ path, name: 'dt-medic', convars: { dt_url: server.url, dt_key: key } });
  await second.start();
  t.teardown(() => second.stop());
  t.ok(second.output.some((l) => /19 event\(s\) from the last run to send/.test(l)), 'the restarted resource finds the 19 queued events');
  t.equal(await second.callExport('flush', 15_000), true, 'and delivers them');
  const list = await client(server)('GET', '/medic/patients?q=NOKEY001', { key });
  t.equal(list.body.patients.length, 1, 'the patient file exists');
  t.equal(list.body.patients[0].injuries, 2, 'with its two injuries (none healed)');
});
