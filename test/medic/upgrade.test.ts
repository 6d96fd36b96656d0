import t from 'tap';
import { migrate } from '../../server/store/migrate.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { ingest } from '../../server/domains/medic/ingest.ts';
import { listFiles } from '../../server/domains/medic/store.ts';
import { databaseBefore, migrationFiles } from '../helpers/db.ts';
import { nextId } from './events.ts';

/**
 * A database that ran 0016 as first released (files without their hot-path columns), with a closed
 * and an open file holding injuries and vital samples, upgraded by `migrate`: 0017 fills the new
 * columns as the ingest would have kept them, and the ingest and the list work on the result.
 */
const { sql, db } = await databaseBefore(t, '0017');
const G = 'g-medic-upgrade';
const t0 = Date.now() - 3600_000;
await insertGuild(sql, G, 'Upgrade');
const [closed] = await sql`insert into medic_files (guild_id, citizen_id, name, opened_at, closed_at, outcome, last_event_at)
  values (${G}, 'C-1', 'Clara Closed', ${t0}, ${t0 + 5000}, 'discharged', ${t0 + 5000}) returning id`;
const [open] = await sql`insert into medic_files (guild_id, citizen_id, name, opened_at, last_event_at)
  values (${G}, 'O-1', 'Otto Open', ${t0 + 1000}, ${t0 + 6000}) returning id`;
const [bare] = await sql`insert into medic_files (guild_id, citizen_id, opened_at, last_event_at) values (${G}, 'B-1', ${t0 + 2000}, ${t0 + 2000}) returning id`;
const injury = (fileId: unknown, injuryId: string, state: string) => sql`insert into medic_injuries (guild_id, file_id, injury_id, body_part, kind, severity, state, added_at, changed_at)
  values (${G}, ${fileId as number}, ${injuryId}, 'chest', 'gunshot', 3, ${state}, ${t0}, ${t0})`;
await injury(closed.id, 'i1', 'open');
await injury(closed.id, 'i2', 'healed');
await injury(open.id, 'i1', 'open');
await injury(open.id, 'i2', 'treated');
await injury(open.id, 'i3', 'healed');
const sample = (fileId: unknown, at: number, heartRate: number, temperature: number | null, downsampled = false) => sql`insert into medic_vitals
  (guild_id, file_id, at, event_id, heart_rate, spo2, temperature, downsampled) values (${G}, ${fileId as number}, ${at}, ${downsampled ? null : nextId('v')}, ${heartRate}, 97, ${temperature}, ${downsampled})`;
await sample(closed.id, t0 + 4000, 80, null);
await sample(closed.id, t0 + 2000, 90, 36.5);
await sample(open.id, t0 + 1000, 70, 37, true);
await sample(open.id, t0 + 5500, 101, 37.2);
await sample(open.id, t0 + 3000, 99, 36.9);
const vitals = (at: number, heartRate: number, temperature: number | null) => ({ at, heartRate, systolic: null, diastolic: null, spo2: 97, respRate: null, temperature, gcs: null });

t.test('0017 fills closed_activity, open_injuries and last_vitals of the files already stored', async (t) => {
  t.same(await migrate(sql), migrationFiles.filter((f) => f >= '0017'), 'only the newer files are applied');
  const rows = await sql`select id, closed_activity, open_injuries, last_vitals from medic_files where guild_id = ${G} order by id`;
  t.same(rows.map((r) => [Number(r.id), r.closed_activity === null ? null : Number(r.closed_activity), r.open_injuries, r.last_vitals]), [
    [Number(closed.id), t0 + 5000, 1, vitals(t0 + 4000, 80, null)],
    [Number(open.id), null, 2, vitals(t0 + 5500, 101, 37.2)],
    [Number(bare.id), null, 0, null],
  ], 'the activity of closed files only, injuries not healed, the newest sample by game time');
  await t.rejects(sql`update medic_files set closed_at = ${t0 + 7000}, outcome = 'closed' where id = ${open.id}`, { code: '23514' },
    'a close without closed_activity is refused');
});

t.test('after 0017 the ingest and the list work on the upgraded files', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.close());
  const res = await ingest({ db, bus }, G, [
    { id: nextId('c'), type: 'injury_changed', citizenId: 'O-1', at: t0 + 7000, injuryId: 'i1', state: 'healed' },
    { id: nextId('v'), type: 'vitals', citizenId: 'O-1', at: t0 + 6500, heartRate: 95 },
    { id: nextId('v'), type: 'vitals', citizenId: 'C-1', at: t0 + 8000, heartRate: 60 },
  ]);
  t.match(res, { applied: 3, rejected: 0 });
  const list = await listFiles(sql, G, { q: null, status: 'all', limit: 10, before: null });
  t.same(list.map((s) => [s.citizenId, s.status, s.injuries, s.lastVitals?.heartRate ?? null, Date.parse(s.lastEventAt)]), [
    ['C-1', 'open', 0, 60, t0 + 8000],
    ['O-1', 'open', 1, 95, t0 + 7000],
    ['C-1', 'closed', 1, 80, t0 + 5000],
    ['B-1', 'open', 0, null, t0 + 2000],
  ], 'a closed file stays closed (a new event opens a new one), an open one counts its healed injury and takes the newer sample');
});
