import t from 'tap';
import { sweepVitals } from '../../server/domains/medic/sweep.ts';
import { vital } from './events.ts';
import { medicWorld } from './world.ts';

// Vital-sign volume: reads return at most maxPoints (bucket means), and the hourly sweep replaces
// raw samples older than 30 days by one mean per file and minute, exactly once, leaving newer ones.
const G = 'g-medic-vitals';
const { server, post, api, fileIdOf } = await medicWorld(t, G);
const DAY = 24 * 3600_000;
async function send(events: object[]) {
  for (let i = 0; i < events.length; i += 500) {
    const res = await post(events.slice(i, i + 500));
    if (res.body.applied !== Math.min(500, events.length - i)) throw new Error(`not applied: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
}

t.test('a read returns the samples as stored up to maxPoints, else bucket means', async (t) => {
  const t0 = Date.now() - 3600_000;
  await send(Array.from({ length: 1200 }, (_, i) => vital('V-1', { heartRate: 60 + (i % 2) * 10, temperature: 36 + (i % 2) }, t0 + i * 1000)));
  const id = await fileIdOf('V-1');
  const all = await api('GET', `/medic/patients/${id}/vitals?maxPoints=2000`);
  t.match(all.body, { count: 1200, downsampled: false });
  t.equal(all.body.points.length, 1200);
  t.same(all.body.points.slice(0, 2).map((p: any) => [Date.parse(p.at), p.heartRate, p.temperature]), [[t0, 60, 36], [t0 + 1000, 70, 37]]);
  const few = await api('GET', `/medic/patients/${id}/vitals?maxPoints=100`);
  t.match(few.body, { count: 1200, downsampled: true });
  t.ok(few.body.points.length <= 100 && few.body.points.length >= 99, `${few.body.points.length} points`);
  t.ok(few.body.points.every((p: any) => p.heartRate === 65 && p.temperature === 36.5), 'each point is the mean of its bucket');
  const range = await api('GET', `/medic/patients/${id}/vitals?from=${t0 + 10_000}&to=${t0 + 19_000}`);
  t.same(range.body.points.map((p: any) => Date.parse(p.at)), Array.from({ length: 10 }, (_, i) => t0 + 10_000 + i * 1000), 'from and to are inclusive');
  const detail = await api('GET', `/medic/patients/${id}`);
  t.match(detail.body.vitals, { count: 1200, downsampled: true });
  t.ok(detail.body.vitals.points.length <= 500, 'the file read carries at most 500 points');
  for (const bad of ['maxPoints=9', 'maxPoints=2001', 'from=x', `from=${t0 + 5}&to=${t0}`]) t.equal((await api('GET', `/medic/patients/${id}/vitals?${bad}`)).status, 400, bad);
});

t.test('the sweep: raw samples older than 30 days become one mean per minute; newer ones stay; a second sweep changes nothing', async (t) => {
  const now = Date.now();
  const old = Math.floor((now - 40 * DAY) / 60_000) * 60_000; // a minute boundary 40 days ago
  const fresh = Math.floor((now - 3600_000) / 60_000) * 60_000; // a minute boundary an hour ago
  // 3 minutes of old samples every 5 s (12 per minute), two minutes of fresh ones; another file, all fresh
  const oldEvents = Array.from({ length: 36 }, (_, i) => vital('SW-1', { heartRate: 60 + (i % 12), spo2: 90 + (i % 2) * 2 }, old + i * 5000));
  const freshEvents = Array.from({ length: 24 }, (_, i) => vital('SW-1', { heartRate: 100 }, fresh + i * 5000));
  await send([...oldEvents, ...freshEvents, ...Array.from({ length: 5 }, (_, i) => vital('SW-2', { heartRate: 70 }, fresh + i))]);
  const id = await fileIdOf('SW-1');
  const other = await fileIdOf('SW-2');
  const rows = async (fileId: number) => server.sql`select at, heart_rate, spo2, downsampled, samples, event_id from medic_vitals where guild_id = ${G} and file_id = ${fileId} order by at`;
  t.equal((await rows(id)).length, 60);

  const first = await sweepVitals(server.sql, { now });
  t.ok(first.removed >= 36, `removed ${first.removed} raw samples`);
  const after = await rows(id);
  t.equal(after.length, 3 + 24, 'three means for the old minutes, the fresh samples as they were');
  t.same(after.slice(0, 3).map((r) => ({ at: Number(r.at), hr: r.heart_rate, spo2: r.spo2, ds: r.downsampled, n: r.samples, id: r.event_id })), [
    { at: old, hr: 66, spo2: 91, ds: true, n: 12, id: null }, { at: old + 60_000, hr: 66, spo2: 91, ds: true, n: 12, id: null }, { at: old + 120_000, hr: 66, spo2: 91, ds: true, n: 12, id: null },
  ], 'mean of 60..71 is 65.5 → 66; of 90/92 is 91');
  t.ok(after.slice(3).every((r) => !r.downsampled && r.event_id !== null && r.heart_rate === 100), 'fresh samples untouched');
  t.equal((await rows(other)).length, 5, 'a file with only fresh samples is untouched');

  const second = await sweepVitals(server.sql, { now });
  t.equal(second.removed, 0, 'a second sweep finds nothing');
  t.equal((await rows(id)).length, 27);
  const series = await api('GET', `/medic/patients/${id}/vitals`);
  t.match(series.body, { count: 27, downsampled: true });
  t.equal(series.body.points[0].heartRate, 66);

  // an hour later the watermark moves on: samples that are now 30 days old go, the rest stays
  const later = await sweepVitals(server.sql, { now: fresh + 30 * DAY + 90_000 });
  const end = await rows(id);
  t.equal(later.cutoff, fresh + 60_000);
  t.equal(end.filter((r) => r.downsampled).length, 4, 'the first fresh minute is now one mean too');
  t.same(end.filter((r) => !r.downsampled).map((r) => Number(r.at)), freshEvents.filter((e) => e.at >= later.cutoff).map((e) => e.at), 'samples after the cutoff stay raw');
  t.ok(end.filter((r) => r.downsampled).every((r) => Number(r.at) < later.cutoff), 'means only before the cutoff');
  t.equal(end.reduce((n, r) => n + r.samples, 0), 60, 'every sample counted exactly once');
  const [f] = await server.sql`select vitals_swept_to from medic_files where guild_id = ${G} and id = ${id}`;
  t.equal(Number(f.vitals_swept_to), later.cutoff, 'the file\'s watermark is the cutoff');
});

t.test('the sweep works through a long file an hour of game time per statement, and quiet files leave the sweep', async (t) => {
  const now = Date.now();
  const start = Math.floor((now - 35 * DAY) / 60_000) * 60_000;
  // 6 hours, one sample a minute at the half minute
  await send(Array.from({ length: 360 }, (_, i) => vital('SW-3', { heartRate: 80 }, start + i * 60_000 + 30_000)));
  const id = await fileIdOf('SW-3');
  const done = await sweepVitals(server.sql, { now });
  const [c] = await server.sql`select count(*)::int as n, bool_and(downsampled) as all_ds, sum(samples)::int as s from medic_vitals where guild_id = ${G} and file_id = ${id}`;
  t.same(c, { n: 360, all_ds: true, s: 360 }, 'one mean per minute, every sample counted once');
  t.ok(done.files >= 1);
  const [due] = await server.sql`select count(*)::int as n from medic_files where guild_id = ${G} and id = ${id} and vitals_swept_to <= last_event_at`;
  t.equal(due.n, 0, 'the quiet file is passed over from now on');
  t.equal((await sweepVitals(server.sql, { now })).files, 0, 'nothing left to sweep');
});
