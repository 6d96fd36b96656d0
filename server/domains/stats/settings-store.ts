import type { Db } from '../../store/db.ts';

/** A guild's clock settings: the zone its periods follow, the longest a shift may stay open, the staffing minimum. */
export interface ClockSettings { timeZone: string; maxShiftMs: number | null; minOnDuty: number }

export async function clockSettings(db: Db, guildId: string): Promise<ClockSettings | null> {
  const [row] = await db`select time_zone, max_shift_ms, min_on_duty from guilds where id = ${guildId}`;
  return row ? toSettings(row) : null;
}

/** Changes the given settings (undefined: unchanged) and answers them all. */
export async function setClockSettings(db: Db, guildId: string, c: { timeZone?: string; maxShiftMs?: number | null }): Promise<ClockSettings> {
  const [row] = await db`update guilds set
      time_zone = coalesce(${c.timeZone ?? null}::text, time_zone),
      max_shift_ms = case when ${c.maxShiftMs !== undefined} then ${c.maxShiftMs ?? null}::bigint else max_shift_ms end
    where id = ${guildId} returning time_zone, max_shift_ms, min_on_duty`;
  return toSettings(row);
}

export async function setMinOnDuty(db: Db, guildId: string, minOnDuty: number): Promise<ClockSettings> {
  const [row] = await db`update guilds set min_on_duty = ${minOnDuty} where id = ${guildId} returning time_zone, max_shift_ms, min_on_duty`;
  return toSettings(row);
}

function toSettings(row: Record<string, unknown>): ClockSettings {
  return { timeZone: row.time_zone as string, maxShiftMs: row.max_shift_ms === null ? null : Number(row.max_shift_ms), minOnDuty: row.min_on_duty as number };
}
