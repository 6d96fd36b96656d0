import type { Db } from '../../store/db.ts';

export interface UploadImage { id: string; contentType: string; width: number; height: number; data: Buffer }

/**
 * An upload of this guild, with its bytes; null when the guild has no upload of that id (another
 * guild's upload included: the guild id is part of the key). Our own read until the uploads
 * domain exports `uploadOfGuild`.
 */
export async function uploadImageOfGuild(db: Db, guildId: string, uploadId: string): Promise<UploadImage | null> {
  const [row] = await db`select id, content_type, width, height, data from uploads
    where guild_id = ${guildId} and id = ${uploadId}`;
  return row ? { id: String(row.id), contentType: row.content_type, width: row.width, height: row.height, data: row.data } : null;
}
