import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import type { BenchDatabase } from './db.ts';
import { benchUnits } from './fanout-events.ts';

/** A seeded guild of `bench scale`: its id, one unscoped API key (boards and writes), its units. */
export interface ScaleSeeded { id: string; key: string; callsigns: string[] }

/** Guild ids of `bench scale`: snowflake-shaped, apart from the other benches' guilds. */
const guildId = (i: number) => String(910000000000000000n + BigInt(i));

/**
 * `guilds` guilds, each with `units` units (status 2) and one unscoped API key, inserted through
 * the stores before any node starts (units in one multi-row insert per guild).
 */
export async function seedGuilds(db: BenchDatabase, guilds: number, units: number): Promise<ScaleSeeded[]> {
  const sql = db.sql;
  const out: ScaleSeeded[] = [];
  const chosen = benchUnits.slice(0, units);
  for (let i = 0; i < guilds; i++) {
    const id = guildId(i);
    await insertGuild(sql, id, `Bench Scale ${i + 1}`);
    await sql`insert into units ${sql(chosen.map((u) => ({ guild_id: id, callsign: u.callsign, label: u.label, org_unit: u.orgUnit, status: '2' })))}`;
    out.push({ id, key: (await createApiKey(sql, id, 'bench scale', null)).key, callsigns: chosen.map((u) => u.callsign) });
  }
  return out;
}

/** Every unit of the bench's guilds back to status 2, so each phase's writes run the same cycle from the same state. */
export async function resetStatuses(db: BenchDatabase, guilds: ScaleSeeded[]): Promise<void> {
  await db.sql`update units set status = '2' where guild_id = any(${guilds.map((g) => g.id)}) and status <> '2'`;
}

/** The head (seq) of each guild's event stream now. */
export async function streamHeads(db: BenchDatabase, guilds: ScaleSeeded[]): Promise<Record<string, number>> {
  const rows = await db.sql<{ guild_id: string; seq: string }[]>`select guild_id, seq from event_streams where guild_id = any(${guilds.map((g) => g.id)})`;
  return Object.fromEntries(rows.map((r) => [r.guild_id, Number(r.seq)]));
}

/**
 * Guild-affine placement of boards, as nginx's hash on the guild places them: guild g's boards on
 * node g mod N; for `shared` of the guilds (every k-th) half of them on the next node too.
 * Returns boards per node index for each guild.
 */
export function placeBoards(guilds: number, nodes: number, boardsPerGuild: number, shared: number): number[][] {
  const every = shared > 0 ? Math.max(1, Math.round(1 / shared)) : Infinity;
  return Array.from({ length: guilds }, (_, g) => {
    const boards = new Array<number>(nodes).fill(0);
    const home = g % nodes;
    if (nodes > 1 && g % every === 0 && boardsPerGuild > 1) {
      boards[home] = Math.ceil(boardsPerGuild / 2);
      boards[(home + 1) % nodes] = Math.floor(boardsPerGuild / 2);
    } else boards[home] = boardsPerGuild;
    return boards;
  });
}
