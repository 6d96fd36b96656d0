import { runPeriodically } from '../../core/periodic.ts';
import type { Deps } from '../../deps.ts';
import type { Sql } from '../../store/db.ts';
import { medicLimits } from './schema.ts';

/** How often a node downsamples vital samples older than the raw retention. */
const EVERY_MS = 3600_000;

const MINUTE = 60_000; // also written as 60000 in the statement (a GROUP BY expression cannot be a parameter)
/** One statement handles at most this much game time of one file: a bounded delete, never a whole year at once. */
const CHUNK_MS = 3600_000;

/**
 * Replaces the raw vital samples of one file in [from, to) (minute-aligned) by one mean row per
 * minute (flagged downsampled, `samples` = how many it stands for), in one statement: a sample is
 * averaged exactly once, also when two nodes sweep the same file (the second finds them deleted).
 */
async function downsample(sql: Sql, guildId: string, fileId: number, from: number, to: number): Promise<number> {
  const rows = await sql`with gone as (
      delete from medic_vitals where guild_id = ${guildId} and file_id = ${fileId} and at >= ${from} and at < ${to} and not downsampled
      returning at, heart_rate, systolic, diastolic, spo2, resp_rate, temperature, gcs, samples
    ), written as (
      insert into medic_vitals (guild_id, file_id, at, heart_rate, systolic, diastolic, spo2, resp_rate, temperature, gcs, downsampled, samples)
      select ${guildId}, ${fileId}, (at / 60000) * 60000, round(avg(heart_rate)), round(avg(systolic)), round(avg(diastolic)), round(avg(spo2)),
        round(avg(resp_rate)), avg(temperature), round(avg(gcs)), true, sum(samples)
      from gone group by at / 60000
      returning 1
    )
    select (select count(*) from gone) as removed`;
  return Number(rows[0].removed);
}

/**
 * One sweep over every guild: for each file whose samples the sweep has not reached up to the
 * cutoff (now − 30 days, minute-aligned), raw samples before the cutoff become one mean per
 * minute, an hour of game time per statement, then the file's watermark moves to the cutoff.
 * Files quiet since before their watermark are passed over (`vitals_swept_to > last_event_at`).
 * The files are walked once, in pages by the keyset (opened_at, id) of medic_files_by_opening: a
 * page resumes where the last one ended, never again at the oldest (quiet) files. Returns what it did.
 */
export async function sweepVitals(sql: Sql, opts: { now?: number; stop?: () => boolean } = {}) {
  const cutoff = Math.floor(((opts.now ?? Date.now()) - medicLimits.rawRetentionMs) / MINUTE) * MINUTE;
  let files = 0, removed = 0;
  let after = { openedAt: -1, id: -1 }; // before every file (game times and ids are not negative)
  for (;;) {
    const due = await sql`select guild_id, id, opened_at, vitals_swept_to from medic_files
      where (opened_at, id) > (${after.openedAt}, ${after.id}) and opened_at < ${cutoff}
        and vitals_swept_to <= last_event_at and vitals_swept_to < ${cutoff}
      order by opened_at, id limit 100`;
    if (!due.length) break;
    after = { openedAt: Number(due[due.length - 1].opened_at), id: Number(due[due.length - 1].id) };
    for (const f of due) {
      if (opts.stop?.()) return { files, removed, cutoff };
      const fileId = Number(f.id);
      let from = Number(f.vitals_swept_to);
      for (;;) {
        const [next] = await sql`select min(at) as at from medic_vitals
          where guild_id = ${f.guild_id} and file_id = ${fileId} and at >= ${from} and at < ${cutoff} and not downsampled`;
        if (next.at === null) break;
        const start = Math.floor(Number(next.at) / MINUTE) * MINUTE;
        const end = Math.min(start + CHUNK_MS, cutoff);
        removed += await downsample(sql, f.guild_id, fileId, start, end);
        from = end;
      }
      await sql`update medic_files set vitals_swept_to = ${cutoff} where guild_id = ${f.guild_id} and id = ${fileId} and vitals_swept_to < ${cutoff}`;
      files++;
    }
  }
  return { files, removed, cutoff };
}

/** Sweeps hourly on every node (runPeriodically: jittered, one at a time); stop() waits for a sweep under way. */
export function startMedicSweep(deps: Deps) {
  return runPeriodically(EVERY_MS, async (stopped) => {
    if (!deps.dbHealth.up) return;
    const done = await sweepVitals(deps.sql, { stop: stopped });
    if (done.removed) deps.log.info('medic vital samples downsampled', done);
  }, (err) => deps.log.warn('downsampling medic vital samples failed; trying again at the next sweep', { error: String(err) }));
}
