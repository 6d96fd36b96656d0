import type { Db } from '../../store/db.ts';

/** Ids are the database's bigint as postgres.js reads it: a string of digits. */
export interface LetterheadRow {
  id: string; name: string; organisation: string; addressLines: string[]; logoUploadId: string | null;
  primaryColor: string; secondaryColor: string; footer: string; position: number; version: number;
  createdAt: Date; updatedAt: Date;
}

/** The stored fields a create or an update writes (never a whole request object). */
export interface LetterheadFields {
  name: string; organisation: string; addressLines: string[]; logoUploadId: string | null;
  primaryColor: string; secondaryColor: string; footer: string;
}

const toRow = (r: Record<string, unknown>): LetterheadRow => ({
  id: String(r.id), name: r.name as string, organisation: r.organisation as string, addressLines: r.address_lines as string[],
  logoUploadId: r.logo_upload_id === null ? null : String(r.logo_upload_id),
  primaryColor: r.primary_color as string, secondaryColor: r.secondary_color as string, footer: r.footer as string,
  position: r.position as number, version: r.version as number, createdAt: r.created_at as Date, updatedAt: r.updated_at as Date,
});

/**
 * Serialises the guild's letterhead writes until commit, on every node: positions stay contiguous
 * (a create takes max+1, a delete closes its gap, a reorder compares against the whole set).
 */
export async function lockLetterheads(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`letterheads:${guildId}`}, 0))`;
}

export async function letterheadsInOrder(db: Db, guildId: string): Promise<LetterheadRow[]> {
  const rows = await db`select * from letterheads where guild_id = ${guildId} order by position, id`;
  return rows.map(toRow);
}

export async function letterheadById(db: Db, guildId: string, id: string): Promise<LetterheadRow | null> {
  const [row] = await db`select * from letterheads where guild_id = ${guildId} and id = ${id}`;
  return row ? toRow(row) : null;
}

export async function letterheadIdByName(db: Db, guildId: string, name: string): Promise<string | null> {
  const [row] = await db`select id from letterheads where guild_id = ${guildId} and name = ${name}`;
  return row ? String(row.id) : null;
}

/**
 * Whether the upload exists in this guild; the row is key-share locked until commit, so a
 * concurrent DELETE /uploads/{id} waits and the letterhead's foreign key cannot fail after the check.
 */
export async function lockUploadOfGuild(db: Db, guildId: string, uploadId: string): Promise<boolean> {
  const [row] = await db`select 1 from uploads where guild_id = ${guildId} and id = ${uploadId} for key share`;
  return !!row;
}

/** Inserts at the end of the order; null when the name is taken (the unique index decided). */
export async function insertLetterhead(db: Db, guildId: string, f: LetterheadFields): Promise<LetterheadRow | null> {
  const [row] = await db`insert into letterheads
      (guild_id, name, organisation, address_lines, logo_upload_id, primary_color, secondary_color, footer, position)
    values (${guildId}, ${f.name}, ${f.organisation}, ${f.addressLines}::text[], ${f.logoUploadId}, ${f.primaryColor}, ${f.secondaryColor}, ${f.footer},
      (select coalesce(max(position) + 1, 0) from letterheads where guild_id = ${guildId}))
    on conflict (guild_id, name) do nothing
    returning *`;
  return row ? toRow(row) : null;
}

/** Writes the fields if the stored version is `version`, bumping it; null if the version is stale or the row gone. */
export async function updateLetterhead(db: Db, guildId: string, id: string, version: number, f: LetterheadFields): Promise<LetterheadRow | null> {
  const [row] = await db`update letterheads set name = ${f.name}, organisation = ${f.organisation}, address_lines = ${f.addressLines}::text[],
      logo_upload_id = ${f.logoUploadId}, primary_color = ${f.primaryColor}, secondary_color = ${f.secondaryColor}, footer = ${f.footer},
      version = version + 1, updated_at = now()
    where guild_id = ${guildId} and id = ${id} and version = ${version}
    returning *`;
  return row ? toRow(row) : null;
}

export async function deleteLetterhead(db: Db, guildId: string, id: string): Promise<LetterheadRow | null> {
  const [row] = await db`delete from letterheads where guild_id = ${guildId} and id = ${id} returning *`;
  return row ? toRow(row) : null;
}

/** Sets position i for ids[i]; ids are the guild's letterheads (checked by the caller under the lock). */
export async function setPositions(db: Db, guildId: string, ids: string[]): Promise<void> {
  await db`update letterheads l set position = (o.ord - 1)::int
    from unnest(${ids}::bigint[]) with ordinality as o(id, ord)
    where l.guild_id = ${guildId} and l.id = o.id and l.position <> o.ord - 1`;
}
