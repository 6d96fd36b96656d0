import type { Db } from '../../store/db.ts';
import type { Actor } from '../../store/tx.ts';
import type { ImageType } from './image.ts';

/** Ids are the database's bigint as postgres.js reads it: a string of digits. */
export interface UploadRow {
  id: string; name: string; contentType: ImageType; size: number; width: number; height: number;
  createdAt: Date; createdBy: { kind: Actor['kind']; id: string };
}
export interface NewUpload { name: string; contentType: ImageType; width: number; height: number; data: Buffer }

const toUpload = (r: Record<string, any>): UploadRow => ({
  id: String(r.id), name: r.name, contentType: r.content_type, size: r.size, width: r.width, height: r.height,
  createdAt: r.created_at, createdBy: { kind: r.created_by_kind, id: r.created_by_id },
});

/** The whole row in one statement: an upload is visible complete or not at all. */
export async function insertUpload(db: Db, guildId: string, u: NewUpload, by: Actor): Promise<UploadRow> {
  const [row] = await db`insert into uploads (guild_id, name, content_type, size, width, height, data, created_by_kind, created_by_id)
    values (${guildId}, ${u.name}, ${u.contentType}, ${u.data.length}, ${u.width}, ${u.height}, ${u.data}, ${by.kind}, ${by.id})
    returning id, name, content_type, size, width, height, created_at, created_by_kind, created_by_id`;
  return toUpload(row);
}

/** The guild's uploads without their bytes, newest first. */
export async function uploadsOfGuild(db: Db, guildId: string): Promise<UploadRow[]> {
  const rows = await db`select id, name, content_type, size, width, height, created_at, created_by_kind, created_by_id
    from uploads where guild_id = ${guildId} order by created_at desc, id desc`;
  return rows.map(toUpload);
}

/**
 * An image of this guild with its bytes, for whoever draws it (letterheads, branding); null when the
 * guild has no upload of that id — another guild's included: the guild id is part of the key.
 */
export async function uploadOfGuild(db: Db, guildId: string, id: string): Promise<{ id: string; contentType: ImageType; data: Buffer; width: number; height: number } | null> {
  const [row] = await db`select id, content_type, data, width, height from uploads where guild_id = ${guildId} and id = ${id}`;
  return row ? { id: String(row.id), contentType: row.content_type, data: row.data, width: row.width, height: row.height } : null;
}

/** The bytes to serve, with the name for Content-Disposition. */
export async function uploadFileOfGuild(db: Db, guildId: string, id: string): Promise<{ name: string; contentType: ImageType; data: Buffer } | null> {
  const [row] = await db`select name, content_type, data from uploads where guild_id = ${guildId} and id = ${id}`;
  return row ? { name: row.name, contentType: row.content_type, data: row.data } : null;
}

/**
 * Deletes the upload; null when the guild has none of that id. The letterheads that showed it as
 * their logo are counted in the same statement (the snapshot before the delete); the foreign key
 * then sets their logo to null.
 */
export async function deleteUpload(db: Db, guildId: string, id: string): Promise<{ name: string; size: number; clearedLetterheads: string[] } | null> {
  const [row] = await db`with logos as (
      select coalesce(array_agg(id order by id), '{}') as ids from letterheads where guild_id = ${guildId} and logo_upload_id = ${id}
    )
    delete from uploads where guild_id = ${guildId} and id = ${id}
    returning name, size, (select ids from logos) as cleared`;
  return row ? { name: row.name, size: row.size, clearedLetterheads: (row.cleared as (string | number)[]).map(String) } : null;
}
