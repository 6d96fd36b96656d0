import type { Db } from '../../store/db.ts';

export async function insertRank(db: Db, guildId: string, r: { id: string; name: string; position: number; capabilities: string[] }) {
  await db`insert into ranks (guild_id, id, name, position, capabilities)
    values (${guildId}, ${r.id}, ${r.name}, ${r.position}, ${r.capabilities})
    on conflict (guild_id, id) do update set name = excluded.name, position = excluded.position, capabilities = excluded.capabilities`;
}

/** Rank id by id or (case-insensitive) name within the guild. */
export async function rankIdByIdOrName(db: Db, guildId: string, idOrName: string): Promise<string | null> {
  const [row] = await db`select id from ranks where guild_id = ${guildId} and (id = ${idOrName} or lower(name) = lower(${idOrName}))
    order by (id = ${idOrName}) desc limit 1`;
  return row?.id ?? null;
}

export async function rankNames(db: Db, guildId: string): Promise<string[]> {
  return (await db`select name from ranks where guild_id = ${guildId} order by position, name`).map((r) => r.name as string);
}

/** Adds a person; null when the user id or badge is already taken in this guild. */
export async function insertPerson(db: Db, guildId: string, p: { userId: string; nickname: string; badge: string | null; rankId: string | null; isAdmin: boolean }) {
  const [row] = await db`insert into people (guild_id, user_id, nickname, badge, rank_id, is_admin)
    values (${guildId}, ${p.userId}, ${p.nickname}, ${p.badge}, ${p.rankId}, ${p.isAdmin})
    on conflict do nothing returning user_id`;
  return row ? (row.user_id as string) : null;
}
