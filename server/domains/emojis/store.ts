import type { Db } from '../../store/db.ts';
import type { ImageType } from './schema.ts';

export interface EmojiRow { id: string; name: string; animated: boolean; available: boolean }
export interface NewEmoji extends EmojiRow { contentType: ImageType; image: Buffer }

const toEmoji = (r: Record<string, unknown>): EmojiRow => ({
  id: r.id as string, name: r.name as string, animated: r.animated as boolean, available: r.available as boolean,
});

/** What a member may pick: available emojis, by name. */
export async function availableEmojis(db: Db, guildId: string): Promise<EmojiRow[]> {
  const rows = await db`select id, name, animated, available from emojis
    where guild_id = ${guildId} and available order by lower(name), name, id`;
  return rows.map(toEmoji);
}

export async function allEmojis(db: Db, guildId: string): Promise<EmojiRow[]> {
  const rows = await db`select id, name, animated, available from emojis
    where guild_id = ${guildId} order by lower(name), name, id`;
  return rows.map(toEmoji);
}

export async function emojiImage(db: Db, guildId: string, id: string): Promise<{ contentType: ImageType; image: Buffer } | null> {
  const [row] = await db`select content_type, image from emojis where guild_id = ${guildId} and id = ${id}`;
  return row ? { contentType: row.content_type as ImageType, image: row.image as Buffer } : null;
}

/** Serialises the guild's emoji syncs until commit (on every node): each sync's read-compare-write is atomic. */
export async function lockEmojis(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`emojis:${guildId}`}, 0))`;
}

export async function insertEmoji(db: Db, guildId: string, e: NewEmoji): Promise<void> {
  await db`insert into emojis (guild_id, id, name, animated, available, content_type, image)
    values (${guildId}, ${e.id}, ${e.name}, ${e.animated}, ${e.available}, ${e.contentType}, ${e.image})`;
}

export async function updateEmoji(db: Db, guildId: string, e: EmojiRow): Promise<void> {
  await db`update emojis set name = ${e.name}, animated = ${e.animated}, available = ${e.available}
    where guild_id = ${guildId} and id = ${e.id}`;
}

/** Deletes the guild's emojis whose ids are not in `keep`; returns the deleted ids. */
export async function deleteEmojisExcept(db: Db, guildId: string, keep: string[]): Promise<string[]> {
  const rows = await db`delete from emojis where guild_id = ${guildId} and id <> all(${keep}::text[]) returning id`;
  return rows.map((r) => r.id as string);
}

/** Marks every emoji of the guild as confirmed by the sync running now. */
export async function markSynced(db: Db, guildId: string): Promise<void> {
  await db`update emojis set synced_at = now() where guild_id = ${guildId}`;
}
