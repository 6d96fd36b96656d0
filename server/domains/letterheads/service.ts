import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import { pgCode } from '../units/write.ts';
import { uploadOfGuild } from '../uploads/store.ts';
import { TtlCache } from '../../core/ttl-cache.ts';
import { renderPreview } from './preview.ts';
import { MAX_LETTERHEADS, PREVIEW_WIDTH, type CreateLetterhead, type Letterhead, type LetterheadChanges } from './schema.ts';
import * as store from './store.ts';

const DEFAULT_PRIMARY = '#c0392b';
const DEFAULT_SECONDARY = '#2c3e50';

export function view(guildId: string, r: store.LetterheadRow): Letterhead {
  const guild = encodeURIComponent(guildId);
  return {
    id: r.id, name: r.name, organisation: r.organisation, addressLines: r.addressLines, logoUploadId: r.logoUploadId,
    logoUrl: r.logoUploadId === null ? null : `${API_PREFIX}/uploads/${r.logoUploadId}?guild=${guild}`,
    primaryColor: r.primaryColor, secondaryColor: r.secondaryColor, footer: r.footer,
    position: r.position, version: r.version, createdAt: r.createdAt, updatedAt: r.updatedAt,
    // The version and the logo name the image: an edit (or the logo's upload deleted) gives a new URL.
    previewUrl: `${API_PREFIX}/letterheads/${r.id}/preview.png?guild=${guild}&v=${r.version}-${r.logoUploadId ?? 0}`,
  };
}

const notFound = (id: string) => new AppError('NOT_FOUND', `no letterhead ${id} in this guild`);
const nameTaken = (name: string) => new AppError('CONFLICT', `a letterhead named "${name}" exists already`, { reason: 'name_taken', params: { name } });

export async function listLetterheads(deps: Deps, guildId: string) {
  const rows = await store.letterheadsInOrder(deps.sql, guildId);
  return { letterheads: rows.map((r) => view(guildId, r)) };
}

/** A 400 before the database's foreign key could refuse: the logo must be an upload of this guild (locked until commit). */
async function checkLogo(tx: Tx, guildId: string, logoUploadId: string | null | undefined): Promise<void> {
  if (logoUploadId === null || logoUploadId === undefined) return;
  if (!(await store.lockUploadOfGuild(tx.sql, guildId, logoUploadId))) {
    throw new AppError('BAD_REQUEST', `logo ${logoUploadId} is not an upload of this guild (see GET /uploads)`);
  }
}

/** Letterhead writes: under the guild's letterhead lock; a unique-name race the lock cannot see is still a 409. */
async function write<T>(deps: Deps, guildId: string, name: string | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
      await store.lockLetterheads(tx.sql, guildId);
      return fn(tx);
    });
  } catch (err) {
    if (pgCode(err) === '23505' && name !== undefined) throw nameTaken(name);
    throw err;
  }
}

export async function createLetterhead(deps: Deps, guildId: string, input: CreateLetterhead, actor: Actor): Promise<Letterhead> {
  return write(deps, guildId, input.name, async (tx) => {
    const all = await store.letterheadsInOrder(tx.sql, guildId);
    if (all.length >= MAX_LETTERHEADS) throw new AppError('CONFLICT', `a guild has at most ${MAX_LETTERHEADS} letterheads; delete one first`);
    await checkLogo(tx, guildId, input.logoUploadId);
    const row = await store.insertLetterhead(tx.sql, guildId, {
      name: input.name, organisation: input.organisation ?? '', addressLines: input.addressLines ?? [],
      logoUploadId: input.logoUploadId ?? null, primaryColor: input.primaryColor ?? DEFAULT_PRIMARY,
      secondaryColor: input.secondaryColor ?? DEFAULT_SECONDARY, footer: input.footer ?? '',
    });
    if (!row) throw nameTaken(input.name);
    const value = view(guildId, row);
    tx.emit('letterheads', { op: 'upsert', key: row.id, value });
    tx.audit('letterhead.create', actor, { id: row.id, name: row.name });
    return value;
  });
}

export async function updateLetterhead(deps: Deps, guildId: string, id: string, version: number, changes: LetterheadChanges, actor: Actor): Promise<Letterhead> {
  if (!Object.values(changes).some((v) => v !== undefined)) {
    throw new AppError('BAD_REQUEST', 'nothing to change: send version and at least one of name, organisation, addressLines, logoUploadId, primaryColor, secondaryColor, footer');
  }
  return write(deps, guildId, changes.name, async (tx) => {
    const was = await store.letterheadById(tx.sql, guildId, id);
    if (!was) throw notFound(id);
    if (was.version !== version) {
      throw new AppError('CONFLICT', `version ${version} is stale: letterhead ${id} is at version ${was.version}; read it again and reapply your change`, { reason: 'stale_version' });
    }
    if (changes.name !== undefined && changes.name !== was.name) {
      const holder = await store.letterheadIdByName(tx.sql, guildId, changes.name);
      if (holder !== null && holder !== id) throw nameTaken(changes.name);
    }
    if (changes.logoUploadId !== was.logoUploadId) await checkLogo(tx, guildId, changes.logoUploadId);
    const row = await store.updateLetterhead(tx.sql, guildId, id, version, {
      name: changes.name ?? was.name, organisation: changes.organisation ?? was.organisation,
      addressLines: changes.addressLines ?? was.addressLines,
      logoUploadId: changes.logoUploadId === undefined ? was.logoUploadId : changes.logoUploadId,
      primaryColor: changes.primaryColor ?? was.primaryColor, secondaryColor: changes.secondaryColor ?? was.secondaryColor,
      footer: changes.footer ?? was.footer,
    });
    if (!row) throw new AppError('CONFLICT', `letterhead ${id} changed meanwhile; read it again`, { reason: 'stale_version' }); // not reached: the lock serialises writes
    const value = view(guildId, row);
    tx.emit('letterheads', { op: 'upsert', key: id, value });
    tx.audit('letterhead.update', actor, { id, name: row.name, version: row.version, fields: Object.keys(changes) });
    return value;
  });
}

/** Deletes it and closes the gap: the others keep their order, positions stay 0..n-1. */
export async function deleteLetterhead(deps: Deps, guildId: string, id: string, actor: Actor) {
  return write(deps, guildId, undefined, async (tx) => {
    const gone = await store.deleteLetterhead(tx.sql, guildId, id);
    if (!gone) throw notFound(id);
    const rest = await renumber(tx, guildId, (await store.letterheadsInOrder(tx.sql, guildId)).map((r) => r.id));
    tx.emit('letterheads', { op: 'remove', key: id });
    tx.audit('letterhead.delete', actor, { id, name: gone.name });
    return { deleted: { id, name: gone.name }, letterheads: rest };
  });
}

/** `ids` must be exactly the guild's letterheads, each once; every other list is a 400 naming what is wrong. */
export async function reorderLetterheads(deps: Deps, guildId: string, ids: string[], actor: Actor) {
  return write(deps, guildId, undefined, async (tx) => {
    const existing = new Set((await store.letterheadsInOrder(tx.sql, guildId)).map((r) => r.id));
    const seen = new Set<string>();
    const duplicates = new Set<string>();
    for (const id of ids) (seen.has(id) ? duplicates : seen).add(id);
    const unknown = [...seen].filter((id) => !existing.has(id));
    const missing = [...existing].filter((id) => !seen.has(id));
    const problems = [
      duplicates.size ? `listed more than once: ${[...duplicates].join(', ')}` : '',
      unknown.length ? `not letterheads of this guild: ${unknown.join(', ')}` : '',
      missing.length ? `missing: ${missing.join(', ')}` : '',
    ].filter(Boolean);
    if (problems.length) throw new AppError('BAD_REQUEST', `ids must list every letterhead of this guild exactly once; ${problems.join('; ')}`);
    const letterheads = await renumber(tx, guildId, ids);
    tx.audit('letterhead.reorder', actor, { ids });
    return { letterheads };
  });
}

/** Positions 0..n-1 in the order of `ids`; a `patch` op for each letterhead whose position changed. */
async function renumber(tx: Tx, guildId: string, ids: string[]): Promise<Letterhead[]> {
  const before = new Map((await store.letterheadsInOrder(tx.sql, guildId)).map((r) => [r.id, r.position]));
  await store.setPositions(tx.sql, guildId, ids);
  const after = await store.letterheadsInOrder(tx.sql, guildId);
  for (const r of after) {
    if (before.get(r.id) !== r.position) tx.emit('letterheads', { op: 'patch', key: r.id, value: { position: r.position } });
  }
  return after.map((r) => view(guildId, r));
}

/**
 * Rendered previews for a minute, by letterhead, version, logo and width: every write bumps the
 * version, and the logo's upload deleted (its foreign key clears the logo without a version bump)
 * changes the logo part, so a hit is never a stale picture. Bounded to 200 images (≤ ~100 kB each at 1240 px).
 */
const previews = new TtlCache<string>(60_000, 200);

export async function letterheadPreview(deps: Deps, guildId: string, id: string, width: number = PREVIEW_WIDTH.default) {
  const l = await store.letterheadById(deps.sql, guildId, id);
  if (!l) throw notFound(id);
  const key = `${guildId}:${id}:${l.version}:${l.logoUploadId ?? 0}:${width}`;
  let base64 = previews.get(key);
  if (!base64) {
    const logo = l.logoUploadId === null ? null : (await uploadOfGuild(deps.sql, guildId, l.logoUploadId))?.data ?? null;
    base64 = (await renderPreview({ letterhead: l, logo, width })).toString('base64');
    previews.set(key, base64);
  }
  return { contentType: 'image/png' as const, base64 };
}
