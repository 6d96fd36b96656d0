import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import { mapLimits, transformOf } from '../../../contract/map.ts';
import type { Calibration, MapSettings } from './schema.ts';
import * as store from './store.ts';

// A map change reaches boards twice, after commit: `settings` {op: 'set', key: 'map', value} for
// Einstellungen (watched with settings.manage), and the notice {op: 'map'} on `units`, which every
// board with dispatch.view (the Karte tab's readers, like GET /map) watches.

export const view = (guildId: string, row: store.MapRow): MapSettings => ({
  image: row.image && {
    ...row.image,
    url: `${API_PREFIX}/map/image?guild=${encodeURIComponent(guildId)}&v=${row.image.uploadId}`,
  },
  calibration: row.calibration,
  staleAfterSeconds: row.staleAfterSeconds,
  postals: row.postals,
});

export async function getMap(deps: Deps, guildId: string): Promise<MapSettings> {
  return view(guildId, await store.mapSettings(deps.sql, guildId));
}

export async function mapImage(deps: Deps, guildId: string) {
  const found = await store.mapImage(deps.sql, guildId);
  if (!found) throw new AppError('NOT_FOUND', 'the map has no image; set one with PUT /admin/map {imageUploadId}');
  return { contentType: found.contentType as 'image/png', base64: found.data.toString('base64'), filename: found.name };
}

type CalibrationProblem = { problem: 'spread' | 'outside' | 'no_image'; axes?: string; point?: string };
const badCalibration = (why: string, params: CalibrationProblem) => new AppError('BAD_REQUEST', `calibration: ${why}`, { reason: 'map_calibration_invalid', params });

/** 400 unless both points lie on the image and span both axes (contract/map.ts transformOf). */
function checkCalibration(c: Calibration, image: { width: number; height: number }): void {
  c.points.forEach((p, i) => {
    if (p.px > image.width || p.py > image.height) {
      throw badCalibration(`point ${i + 1} (${p.px}, ${p.py}) lies outside the ${image.width}×${image.height} image`, { problem: 'outside', point: String(i + 1) });
    }
  });
  const [a, b] = c.points;
  const same = (['px', 'py', 'x', 'y'] as const).filter((k) => Math.abs(a[k] - b[k]) < mapLimits.minSpread);
  if (same.length || !transformOf(c.points)) {
    throw badCalibration(`the two points must differ by at least ${mapLimits.minSpread} in px, py, x and y; they do not in ${same.join(', ')} (pick two places far apart, diagonally)`, { problem: 'spread', axes: same.join(', ') });
  }
}

/**
 * Merges the patch into the stored settings under the map row lock. The image must be an upload
 * of this guild (404 naming it otherwise); a new image clears the old calibration unless one comes
 * with it; a calibration needs an image and is checked against the image's size.
 */
export async function setMap(deps: Deps, guildId: string, patch: { imageUploadId?: string | null; calibration?: Calibration | null; staleAfterSeconds?: number }, actor: Actor): Promise<MapSettings> {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockMapSettings(tx.sql, guildId);
    const now = await store.mapSettings(tx.sql, guildId);
    let image = now.image ? { id: now.image.uploadId, width: now.image.width, height: now.image.height } : null;
    let calibration = now.calibration;
    if (patch.imageUploadId !== undefined && patch.imageUploadId !== image?.id) {
      if (patch.imageUploadId === null) image = null;
      else {
        const size = await store.uploadSize(tx.sql, guildId, patch.imageUploadId);
        if (!size) throw new AppError('NOT_FOUND', `no upload ${patch.imageUploadId} in this guild; upload the map image with POST /uploads first`, { reason: 'map_image_unknown', params: { upload: patch.imageUploadId } });
        image = { id: patch.imageUploadId, ...size };
      }
      calibration = null; // made for another image
    }
    if (patch.calibration !== undefined) {
      if (patch.calibration && !image) throw badCalibration('the map has no image to calibrate; send imageUploadId with it', { problem: 'no_image' });
      if (patch.calibration) checkCalibration(patch.calibration, image!);
      calibration = patch.calibration;
    }
    if (!image) calibration = null;
    const staleAfterSeconds = patch.staleAfterSeconds ?? now.staleAfterSeconds;
    await store.saveMapSettings(tx.sql, guildId, { imageUploadId: image?.id ?? null, calibration, staleAfterSeconds });
    const saved = view(guildId, await store.mapSettings(tx.sql, guildId));
    announce(tx, saved);
    tx.audit('map.set', actor, { imageUploadId: saved.image?.uploadId ?? null, calibration: saved.calibration, staleAfterSeconds });
    return saved;
  });
}

/** Tells boards the map as it is now (its image upload was deleted: the foreign key cleared it). */
export async function announceMap(tx: Tx, guildId: string): Promise<void> {
  announce(tx, view(guildId, await store.mapSettings(tx.sql, guildId)));
}

function announce(tx: Tx, map: MapSettings): void {
  tx.emit('settings', { op: 'set', key: 'map', value: map });
  tx.emit('units', { op: 'map' });
}

export async function listPostals(deps: Deps, guildId: string) {
  return { postals: await store.postals(deps.sql, guildId) };
}

/** Replaces the postal layer: 400 `postal_duplicate` naming a code sent twice (in any case). */
export async function setPostals(deps: Deps, guildId: string, list: { code: string; x: number; y: number }[], actor: Actor) {
  const seen = new Map<string, string>();
  for (const p of list) {
    const key = p.code.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new AppError('BAD_REQUEST', `postal code ${p.code} is in the list twice${first !== p.code ? ` (also as ${first})` : ''}; codes are unique in any case`, { reason: 'postal_duplicate', params: { code: p.code } });
    }
    seen.set(key, p.code);
  }
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockMapSettings(tx.sql, guildId);
    await store.replacePostals(tx.sql, guildId, list);
    announce(tx, view(guildId, await store.mapSettings(tx.sql, guildId)));
    tx.audit('map.postals_set', actor, { postals: list.length });
    return { postals: list.length };
  });
}
