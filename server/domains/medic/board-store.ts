import type postgres from 'postgres';
import type { Db } from '../../store/db.ts';
import { isoTime, type VitalSeries } from './schema.ts';

/**
 * The board's side of the medic tables: files, vitals series, images, the tier mapping. Guild first,
 * one statement each. Ids come in and go out as strings, times go out as ISO 8601 UTC.
 */
type Conn = postgres.ReservedSql<{}> | Db;
const run = (db: Conn, text: string, params: unknown[]) => (db as postgres.Sql).unsafe(text, params as never[], { prepare: true });

export async function fileExists(db: Conn, guildId: string, fileId: string): Promise<boolean> {
  return (await run(db, 'select 1 from medic_files where guild_id = $1 and id = $2', [guildId, fileId])).length > 0;
}

export async function injuriesOf(db: Db, guildId: string, fileId: string) {
  const rows = await run(db, `select injury_id, body_part, kind, severity, bleeding, state, added_at, changed_at from medic_injuries
    where guild_id = $1 and file_id = $2 order by added_at, injury_id`, [guildId, fileId]);
  return rows.map((r) => ({
    injuryId: r.injury_id, bodyPart: r.body_part, kind: r.kind, severity: r.severity, bleeding: r.bleeding, state: r.state,
    addedAt: isoTime(Number(r.added_at)), changedAt: isoTime(Number(r.changed_at)),
  }));
}

/** Every event of the file but vital samples, oldest first (ECG samples left out: `sampleCount` instead). */
export async function timelineOf(db: Db, guildId: string, fileId: string) {
  const rows = await run(db, `select event_id, type, at, received_at,
      case when type = 'ecg' then (data - 'samples') || jsonb_build_object('sampleCount', jsonb_array_length(data->'samples')) else data end as data
    from medic_events where guild_id = $1 and file_id = $2 order by at, seq`, [guildId, fileId]);
  return rows.map((r) => ({ eventId: r.event_id as string, type: r.type as string, at: isoTime(Number(r.at)), receivedAt: new Date(r.received_at).toISOString(), data: r.data as Record<string, unknown> }));
}

export async function ecgOf(db: Db, guildId: string, fileId: string) {
  const rows = await run(db, `select event_id, at, data from medic_events where guild_id = $1 and file_id = $2 and type = 'ecg'
    order by at desc, seq desc limit 10`, [guildId, fileId]);
  return rows.map((r) => ({ eventId: r.event_id, at: isoTime(Number(r.at)), rhythm: r.data.rhythm, sampleRateHz: r.data.sampleRateHz, lead: r.data.lead ?? null, samples: r.data.samples }));
}

export async function imagesOf(db: Db, guildId: string, fileId: string) {
  const rows = await run(db, `select i.id, i.event_id, e.at, e.data->>'modality' as modality, e.data->>'bodyPart' as body_part, e.data->>'finding' as finding,
      i.content_type, i.width, i.height
    from medic_images i join medic_events e on e.guild_id = i.guild_id and e.event_id = i.event_id
    where i.guild_id = $1 and i.file_id = $2 order by e.at, i.id`, [guildId, fileId]);
  return rows.map((r) => ({
    id: String(r.id), eventId: r.event_id, at: isoTime(Number(r.at)), modality: r.modality, bodyPart: r.body_part, finding: r.finding ?? null,
    contentType: r.content_type, width: r.width, height: r.height,
  }));
}

export async function imageBytes(db: Db, guildId: string, id: string): Promise<{ contentType: string; data: Buffer } | null> {
  const [row] = await run(db, 'select content_type, data from medic_images where guild_id = $1 and id = $2', [guildId, id]);
  return row ? { contentType: row.content_type, data: row.data } : null;
}

const vitalMeans = `round(avg(heart_rate))::int as heart_rate, round(avg(systolic))::int as systolic, round(avg(diastolic))::int as diastolic,
  round(avg(spo2))::int as spo2, round(avg(resp_rate))::int as resp_rate, round(avg(temperature)::numeric, 1)::float8 as temperature, round(avg(gcs))::int as gcs`;
const toPoint = (r: postgres.Row) => ({
  at: isoTime(Number(r.at)), heartRate: r.heart_rate, systolic: r.systolic, diastolic: r.diastolic, spo2: r.spo2,
  respRate: r.resp_rate, temperature: r.temperature === null ? null : Number(r.temperature), gcs: r.gcs,
});

/**
 * Samples of a file in [from, to], oldest first: as stored when there are at most `maxPoints`,
 * else the means of `maxPoints` equal time buckets (empty buckets left out).
 */
export async function vitalSeries(db: Db, guildId: string, fileId: string, from: number, to: number, maxPoints: number): Promise<VitalSeries> {
  const [range] = await run(db, `select count(*) as c, min(at) as lo, max(at) as hi, coalesce(bool_or(downsampled), false) as ds
    from medic_vitals where guild_id = $1 and file_id = $2 and at between $3 and $4`, [guildId, fileId, from, to]);
  const count = Number(range.c);
  if (count <= maxPoints) {
    const rows = await run(db, `select at, heart_rate, systolic, diastolic, spo2, resp_rate, temperature, gcs from medic_vitals
      where guild_id = $1 and file_id = $2 and at between $3 and $4 order by at`, [guildId, fileId, from, to]);
    return { points: rows.map(toPoint), downsampled: range.ds, count };
  }
  const lo = Number(range.lo);
  const width = Math.ceil((Number(range.hi) - lo + 1) / maxPoints);
  const rows = await run(db, `select round(avg(at))::int8 as at, ${vitalMeans} from medic_vitals
    where guild_id = $1 and file_id = $2 and at between $3 and $4 group by (at - $5::int8) / $6::int8 order by 1`, [guildId, fileId, from, to, lo, width]);
  return { points: rows.map(toPoint), downsampled: true, count };
}

/** Closes the file if open (board close: server time, outcome closed); null when it is not open. */
export async function closeFile(db: Conn, guildId: string, fileId: string): Promise<number | null> {
  const [row] = await run(db, `update medic_files set closed_at = (extract(epoch from now()) * 1000)::int8, outcome = 'closed', closed_activity = last_event_at
    where guild_id = $1 and id = $2 and closed_at is null returning closed_at`, [guildId, fileId]);
  return row ? Number(row.closed_at) : null;
}

/** The board's close in the file's timeline; its id `#close:<fileId>` cannot collide with a game id (no `#` there). */
export async function insertCloseEvent(db: Conn, guildId: string, fileId: string, at: number, data: object) {
  await run(db, `insert into medic_events (guild_id, event_id, file_id, citizen_id, type, at, data)
    select $1, $5::text, id, citizen_id, 'file_closed', $3, $4::jsonb from medic_files where guild_id = $1 and id = $2`, [guildId, fileId, at, data, `#close:${fileId}`]);
}

export async function tierMapping(db: Conn, guildId: string) {
  const rows = await run(db, `select t.rank_id, r.name, t.tier from medic_tiers t join ranks r on r.guild_id = t.guild_id and r.id = t.rank_id
    where t.guild_id = $1 order by r.position desc, r.name`, [guildId]);
  return rows.map((r) => ({ rankId: r.rank_id as string, rankName: r.name as string, tier: r.tier as number }));
}

export async function qualifiedPeople(db: Db, guildId: string) {
  const rows = await run(db, `select p.user_id, p.badge, p.nickname, r.id as rank_id, r.name as rank_name, t.tier
    from people p join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
      join medic_tiers t on t.guild_id = r.guild_id and t.rank_id = r.id
    where p.guild_id = $1 order by t.tier desc, p.nickname, p.user_id`, [guildId]);
  return rows.map((r) => ({ userId: r.user_id, badgeNumber: r.badge ?? null, nickname: r.nickname, rankId: r.rank_id, rankName: r.rank_name, tier: r.tier }));
}

export async function rankIds(db: Conn, guildId: string, ids: string[]): Promise<Set<string>> {
  const rows = await run(db, 'select id from ranks where guild_id = $1 and id = any($2::text[])', [guildId, ids]);
  return new Set(rows.map((r) => r.id as string));
}

export async function replaceTiers(db: Conn, guildId: string, mapping: { rankId: string; tier: number }[]) {
  await run(db, 'delete from medic_tiers where guild_id = $1', [guildId]);
  if (mapping.length) {
    await run(db, 'insert into medic_tiers (guild_id, rank_id, tier) select $1, * from unnest($2::text[], $3::int2[])',
      [guildId, mapping.map((m) => m.rankId), mapping.map((m) => m.tier)]);
  }
}
