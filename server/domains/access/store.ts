import type { Db } from '../../store/db.ts';

export async function memberAccess(db: Db, guildId: string, userId: string) {
  const [row] = await db`select p.nickname, p.is_admin, p.rank_id, r.name as rank, coalesce(r.capabilities, '{}') as capabilities
    from people p left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and p.user_id = ${userId}`;
  return row
    ? { nickname: row.nickname as string, isAdmin: row.is_admin as boolean, rankId: (row.rank_id as string) ?? null, rank: (row.rank as string) ?? null, capabilities: row.capabilities as string[] }
    : null;
}
