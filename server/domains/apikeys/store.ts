import type { Db } from '../../store/db.ts';

export interface KeyRow { id: string; name: string; last4: string; scopes: string[] | null; createdAt: Date; lastUsedAt: Date | null }

const toKey = (r: Record<string, unknown>): KeyRow => ({
  id: r.id as string, name: r.name as string, last4: r.last4 as string, scopes: r.scopes as string[] | null,
  createdAt: r.created_at as Date, lastUsedAt: (r.last_used_at as Date) ?? null,
});

export async function insertApiKey(db: Db, guildId: string, k: { name: string; keyHash: Buffer; last4: string; scopes: string[] | null }) {
  const [row] = await db`insert into api_keys (guild_id, name, key_hash, last4, scopes)
    values (${guildId}, ${k.name}, ${k.keyHash}, ${k.last4}, ${k.scopes})
    returning id::text, name, last4, scopes, created_at, last_used_at`;
  return toKey(row);
}

export async function apiKeysOfGuild(db: Db, guildId: string): Promise<KeyRow[]> {
  const rows = await db`select id::text, name, last4, scopes, created_at, last_used_at from api_keys
    where guild_id = ${guildId} order by created_at, id`;
  return rows.map(toKey);
}

/** Deletes the key of this guild; returns its hash (for cache revocation) or null when unknown here. */
export async function deleteApiKey(db: Db, guildId: string, keyId: string): Promise<Buffer | null> {
  const [row] = await db`delete from api_keys where guild_id = ${guildId} and id = ${keyId} returning key_hash`;
  return row?.key_hash ?? null;
}
