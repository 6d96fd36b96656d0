import type { Db } from '../../store/db.ts';
import { positionLimits } from '../../../contract/positions.ts';
import { mapLimits, type CalibrationPoint } from '../../../contract/map.ts';

/** The map settings as stored; the image with its size, the calibration only while there is an image. */
export interface MapRow {
  image: { uploadId: string; width: number; height: number } | null;
  calibration: { points: CalibrationPoint[] } | null;
  staleAfterSeconds: number;
  postals: number;
}

/** The guild's map settings (the defaults when it never saved any) and how many postal codes it has. */
export async function mapSettings(db: Db, guildId: string): Promise<MapRow> {
  const [row] = await db`select m.image_upload_id, u.width, u.height,
      case when u.id is null then null else m.calibration end as calibration,
      coalesce(m.stale_after_seconds, ${mapLimits.staleAfterSeconds.default}::int) as stale_after_seconds,
      (select count(*)::int from map_postals p where p.guild_id = ${guildId}) as postals
    from (select 1) one
    left join map_settings m on m.guild_id = ${guildId}
    left join uploads u on u.guild_id = m.guild_id and u.id = m.image_upload_id`;
  return {
    image: row.width ? { uploadId: String(row.image_upload_id), width: row.width, height: row.height } : null,
    calibration: row.calibration ?? null,
    staleAfterSeconds: row.stale_after_seconds,
    postals: row.postals,
  };
}

/** Whether the upload is the guild's map image. */
export async function isMapImage(db: Db, guildId: string, uploadId: string): Promise<boolean> {
  const [row] = await db`select 1 from map_settings where guild_id = ${guildId} and image_upload_id = ${uploadId}`;
  return !!row;
}

/** Takes the guild's map row lock (made when missing), so edits of the settings run one at a time. */
export async function lockMapSettings(db: Db, guildId: string): Promise<void> {
  await db`insert into map_settings (guild_id) values (${guildId}) on conflict (guild_id) do nothing`;
  await db`select 1 from map_settings where guild_id = ${guildId} for update`;
}

/** Writes the whole settings row (the service merged the patch into what was stored). */
export async function saveMapSettings(db: Db, guildId: string, s: { imageUploadId: string | null; calibration: { points: CalibrationPoint[] } | null; staleAfterSeconds: number }): Promise<void> {
  await db`update map_settings set image_upload_id = ${s.imageUploadId}, calibration = ${s.calibration ? db.json(s.calibration as never) : null}::jsonb,
      stale_after_seconds = ${s.staleAfterSeconds}, updated_at = now()
    where guild_id = ${guildId}`;
}

/** An upload of this guild with its size; null for none of that id in this guild (another guild's included). */
export async function uploadSize(db: Db, guildId: string, uploadId: string): Promise<{ width: number; height: number } | null> {
  const [row] = await db`select width, height from uploads where guild_id = ${guildId} and id = ${uploadId}`;
  return row ? { width: row.width, height: row.height } : null;
}

/** The map's image with its bytes; null when the map has none. */
export async function mapImage(db: Db, guildId: string): Promise<{ name: string; contentType: string; data: Buffer } | null> {
  const [row] = await db`select u.name, u.content_type, u.data from map_settings m
    join uploads u on u.guild_id = m.guild_id and u.id = m.image_upload_id where m.guild_id = ${guildId}`;
  return row ? { name: row.name, contentType: row.content_type, data: row.data } : null;
}

/** How long until a unit's position is stale (ms): the guild's setting, else positionLimits.staleAfterMs. */
export async function staleAfterMs(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select stale_after_seconds from map_settings where guild_id = ${guildId}`;
  return row ? row.stale_after_seconds * 1000 : positionLimits.staleAfterMs;
}

/** The game position of a postal code of the guild, in any case; null when the layer has no such code. */
export async function postalPoint(db: Db, guildId: string, code: string): Promise<{ x: number; y: number } | null> {
  const [row] = await db`select x, y from map_postals where guild_id = ${guildId} and lower(code) = lower(${code.trim()})`;
  return row ? { x: row.x, y: row.y } : null;
}

/** The whole postal layer, by code: numbers in numeric order ("99" before "101"), then the rest. */
export async function postals(db: Db, guildId: string): Promise<{ code: string; x: number; y: number }[]> {
  const rows = await db`select code, x, y from map_postals where guild_id = ${guildId}
    order by (code ~ '^[0-9]{1,18}$') desc, case when code ~ '^[0-9]{1,18}$' then code::bigint end, lower(code), code`;
  return rows.map((r) => ({ code: r.code, x: r.x, y: r.y }));
}

/** Replaces the layer with `list` (codes unique in any case: the service checked) in two statements. */
export async function replacePostals(db: Db, guildId: string, list: { code: string; x: number; y: number }[]): Promise<void> {
  await db`delete from map_postals where guild_id = ${guildId}`;
  if (!list.length) return;
  await db`insert into map_postals (guild_id, code, x, y)
    select ${guildId}, * from unnest(${list.map((p) => p.code)}::text[], ${list.map((p) => p.x)}::float8[], ${list.map((p) => p.y)}::float8[])`;
}
