import type { Db } from '../../store/db.ts';

/** `gameAssignable` null: the default rule of ranks/game.ts. */
export interface RankRow { id: string; name: string; position: number; capabilities: string[]; gameAssignable: boolean | null; holders: number }

const rankColumns = (db: Db) => db`r.id, r.name, r.position, r.capabilities, r.game_assignable,
  (select count(*) from people p where p.guild_id = r.guild_id and p.rank_id = r.id)::int as holders`;

/** Highest position first. */
export async function ranks(db: Db, guildId: string): Promise<RankRow[]> {
  const rows = await db`select ${rankColumns(db)} from ranks r where r.guild_id = ${guildId}
    order by r.position desc, lower(r.name), r.id`;
  return rows.map(toRank);
}

export async function rankById(db: Db, guildId: string, id: string): Promise<RankRow | null> {
  const [row] = await db`select ${rankColumns(db)} from ranks r where r.guild_id = ${guildId} and r.id = ${id}`;
  return row ? toRank(row) : null;
}

/** The rank, locked for this transaction. */
export async function lockRank(db: Db, guildId: string, id: string): Promise<RankRow | null> {
  const [row] = await db`select ${rankColumns(db)} from ranks r where r.guild_id = ${guildId} and r.id = ${id} for update of r`;
  return row ? toRank(row) : null;
}

export async function rankIdTaken(db: Db, guildId: string, id: string): Promise<boolean> {
  return (await db`select 1 from ranks where guild_id = ${guildId} and id = ${id}`).length > 0;
}

export async function rankNameTaken(db: Db, guildId: string, name: string, exceptId: string | null): Promise<boolean> {
  return (await db`select 1 from ranks where guild_id = ${guildId} and lower(name) = lower(${name})
    and (${exceptId}::text is null or id <> ${exceptId}::text)`).length > 0;
}

/**
 * Adds a rank; false when its id or (case-insensitive) name is taken. A concurrent insert of the
 * same name raises unique violation `ranks_name_ci`.
 */
export async function insertRank(
  db: Db, guildId: string, r: { id: string; name: string; position: number; capabilities: string[]; gameAssignable?: boolean | null },
): Promise<boolean> {
  const rows = await db`insert into ranks (guild_id, id, name, position, capabilities, game_assignable)
    values (${guildId}, ${r.id}, ${r.name}, ${r.position}, ${r.capabilities}, ${r.gameAssignable ?? null})
    on conflict do nothing returning id`;
  return rows.length > 0;
}

export interface RankChanges { name?: string; position?: number; capabilities?: string[]; gameAssignable?: boolean | null }

export async function updateRank(db: Db, guildId: string, id: string, c: RankChanges): Promise<void> {
  await db`update ranks set
      name = case when ${c.name !== undefined} then ${c.name ?? null}::text else name end,
      position = case when ${c.position !== undefined} then ${c.position ?? null}::int else position end,
      capabilities = case when ${c.capabilities !== undefined} then ${c.capabilities ?? []}::text[] else capabilities end,
      game_assignable = case when ${c.gameAssignable !== undefined} then ${c.gameAssignable ?? null}::boolean else game_assignable end
    where guild_id = ${guildId} and id = ${id}`;
}

/** Call after `lockRank`: a fresh count that includes every assignment committed before the lock. */
export async function holderCount(db: Db, guildId: string, id: string): Promise<number> {
  const [row] = await db`select count(*)::int as n from people where guild_id = ${guildId} and rank_id = ${id}`;
  return row.n;
}

export async function deleteRank(db: Db, guildId: string, id: string): Promise<void> {
  await db`delete from ranks where guild_id = ${guildId} and id = ${id}`;
}

/** User ids of the rank's holders who are on duty now. */
export async function onDutyHolders(db: Db, guildId: string, rankId: string): Promise<string[]> {
  const rows = await db`select p.user_id from people p
    join shifts s on s.guild_id = p.guild_id and s.user_id = p.user_id and s.clock_out_at is null
    where p.guild_id = ${guildId} and p.rank_id = ${rankId} order by p.user_id`;
  return rows.map((r) => r.user_id as string);
}

function toRank(r: Record<string, any>): RankRow {
  return { id: r.id, name: r.name, position: r.position, capabilities: r.capabilities, gameAssignable: r.game_assignable ?? null, holders: r.holders };
}
