import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import type { BenchDatabase } from './db.ts';

/** A seeded guild of `bench positions`: its units, a key scoped to the positions PUT (the game side) and an unscoped key (the boards). */
export interface PositionsGuild { id: string; gameKey: string; boardKey: string; callsigns: string[] }

/** Guild ids of `bench positions`: snowflake-shaped, apart from the other benches' guilds. */
const guildId = (i: number) => String(920000000000000000n + BigInt(i));
const kinds = ['RTW', 'NEF', 'KTW', 'HLF', 'DLK', 'FuStW', 'ELW'];

/** `guilds` guilds with `units` units each (status 2), inserted through the stores before any node starts. */
export async function seedPositionsGuilds(db: BenchDatabase, guilds: number, units: number): Promise<PositionsGuild[]> {
  const sql = db.sql;
  const callsigns = Array.from({ length: units }, (_, i) => `${kinds[i % kinds.length]}-${Math.floor(i / kinds.length) + 1}`);
  const out: PositionsGuild[] = [];
  for (let i = 0; i < guilds; i++) {
    const id = guildId(i);
    await insertGuild(sql, id, `Bench Positions ${i + 1}`);
    await sql`insert into units ${sql(callsigns.map((c, k) => ({ guild_id: id, callsign: c, label: c, org_unit: `Wache ${(k % 4) + 1}`, status: '2' })))}`;
    out.push({
      id, callsigns,
      gameKey: (await createApiKey(sql, id, 'bench positions game', ['units:unit.ingame_position'])).key,
      boardKey: (await createApiKey(sql, id, 'bench positions boards', null)).key,
    });
  }
  return out;
}
