import { AppError } from '../../core/errors.ts';
import { isMapImage } from '../map/store.ts';
import { announceMap } from '../map/service.ts';
import { letterheadById } from '../letterheads/store.ts';
import { view as letterheadView } from '../letterheads/service.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import { checkImage, displayName } from './image.ts';
import type { Upload } from './schema.ts';
import { MAX_UPLOAD_BYTES } from '../../../contract/limits.ts';
import * as store from './store.ts';

const view = (guildId: string, u: store.UploadRow): Upload => ({
  ...u, url: `${API_PREFIX}/uploads/${u.id}?guild=${encodeURIComponent(guildId)}`,
});

export async function listUploads(deps: Deps, guildId: string) {
  return { uploads: (await store.uploadsOfGuild(deps.sql, guildId)).map((u) => view(guildId, u)) };
}

/**
 * Stores an image after checking it from its bytes (image.ts), whichever door it came through: the
 * size again, the type by magic number, the dimensions, a full decode. The row, its `uploads` event
 * and its audit row commit together, after the last byte arrived: a failed or interrupted upload
 * leaves nothing.
 */
export async function createUpload(deps: Deps, guildId: string, file: { name: string; data: Buffer }, actor: Actor): Promise<Upload> {
  if (file.data.length === 0) throw new AppError('BAD_REQUEST', 'the file is empty');
  if (file.data.length > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `the file is larger than ${MAX_UPLOAD_BYTES} bytes (5 MiB)`);
  const image = await checkImage(file.data);
  const name = displayName(file.name);
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const row = await store.insertUpload(tx.sql, guildId, { name, ...image, data: file.data }, actor);
    const upload = view(guildId, row);
    tx.emit('uploads', { op: 'upsert', key: row.id, value: upload });
    tx.audit('upload.create', actor, { id: row.id, name, contentType: row.contentType, size: row.size, width: row.width, height: row.height });
    return upload;
  });
}

export async function uploadImage(deps: Deps, guildId: string, id: string) {
  const found = await store.uploadFileOfGuild(deps.sql, guildId, id);
  if (!found) throw new AppError('NOT_FOUND', `no upload ${id} in this guild`);
  return { contentType: found.contentType, base64: found.data.toString('base64'), filename: found.name };
}

/** Deletes an upload with its event and audit row; letterheads showing it as their logo lose the logo (foreign key). */
export async function deleteUpload(deps: Deps, guildId: string, id: string, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const shownOnMap = /^\d{1,18}$/.test(id) && await isMapImage(tx.sql, guildId, id);
    const gone = await store.deleteUpload(tx.sql, guildId, id);
    if (!gone) throw new AppError('NOT_FOUND', `no upload ${id} in this guild`);
    tx.emit('uploads', { op: 'delete', key: id });
    if (shownOnMap) await announceMap(tx, guildId); // the map lost its image: boards re-read it
    // the foreign key cleared their logos: boards showing those letterheads get them as they are now
    for (const letterheadId of gone.clearedLetterheads) {
      const row = await letterheadById(tx.sql, guildId, letterheadId);
      if (row) tx.emit('letterheads', { op: 'upsert', key: letterheadId, value: letterheadView(guildId, row) });
    }
    const clearedLetterheadLogos = gone.clearedLetterheads.length;
    tx.audit('upload.delete', actor, { id, name: gone.name, size: gone.size, clearedLetterheadLogos });
    return { deleted: true as const, id, clearedLetterheadLogos };
  });
}
