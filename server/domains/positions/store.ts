import type { Db } from '../../store/db.ts';
import type { UnitPosition } from '../../../contract/positions.ts';

/** The guild's persisted last known positions, by the units' current callsigns. */
export async function persistedPositions(db: Db, guildId: string): Promise<UnitPosition[]> {
  const rows = await db`
    select u.callsign, p.x, p.y, p.z, p.heading, p.speed, p.at
    from unit_positions p join units u on u.guild_id = p.guild_id and u.id = p.unit_id
    where p.guild_id = ${guildId}`;
  return rows.map((r) => ({
    callsign: r.callsign as string, x: r.x as number, y: r.y as number, z: r.z as number,
    heading: r.heading as number, speed: r.speed as number, at: (r.at as Date).getTime(),
  }));
}

/**
 * Writes the positions as the units' last known ones, one statement for all. A stored newer
 * position is kept (two nodes write the same unit); callsigns without a unit (deleted or renamed
 * since) are skipped.
 */
export async function persistPositions(db: Db, guildId: string, positions: readonly UnitPosition[]): Promise<void> {
  const col = <K extends keyof UnitPosition>(k: K) => positions.map((p) => p[k]);
  await db`
    insert into unit_positions (guild_id, unit_id, x, y, z, heading, speed, at)
    select u.guild_id, u.id, p.x, p.y, p.z, p.heading, p.speed, to_timestamp(p.at / 1000.0)
    from unnest(${col('callsign')}::text[], ${col('x')}::float8[], ${col('y')}::float8[], ${col('z')}::float8[],
                ${col('heading')}::float8[], ${col('speed')}::float8[], ${col('at')}::float8[]) as p(callsign, x, y, z, heading, speed, at)
    join units u on u.guild_id = ${guildId} and u.callsign = p.callsign
    on conflict (guild_id, unit_id) do update
      set x = excluded.x, y = excluded.y, z = excluded.z, heading = excluded.heading, speed = excluded.speed, at = excluded.at
      where unit_positions.at < excluded.at`;
}
