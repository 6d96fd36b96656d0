import type { Db } from '../../store/db.ts';

export async function storedPrefs(db: Db, guildId: string, userId: string): Promise<Record<string, unknown>> {
  const [row] = await db`select prefs from preferences where guild_id = ${guildId} and user_id = ${userId}`;
  return row?.prefs ?? {};
}

/** Merges `set` into the stored overrides and removes `reset` keys, atomically. */
export async function mergePrefs(db: Db, guildId: string, userId: string, set: Record<string, unknown>, reset: string[]) {
  const [row] = await db`insert into preferences (guild_id, user_id, prefs)
    values (${guildId}, ${userId}, ${db.json(set as never)})
    on conflict (guild_id, user_id) do update set prefs = (preferences.prefs || excluded.prefs) - ${reset}::text[]
    returning prefs`;
  return row.prefs as Record<string, unknown>;
}
