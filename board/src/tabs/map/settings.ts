import { signal } from '@preact/signals';
import { guild } from '../../app/session.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';
import { positionLimits } from '../../../../contract/positions.ts';
import type { CalibrationPoint, MapImage } from './transform.ts';

/** The guild's map as GET /api/v1/map gives it (Einstellungen → Karte), and its postals. */
export interface MapSettings {
  image: MapImage | null;
  calibration: { points: CalibrationPoint[] } | null;
  staleAfterSeconds: number;
  postals: number;
}
export interface Postal { code: string; x: number; y: number }

const none: MapSettings = { image: null, calibration: null, staleAfterSeconds: positionLimits.staleAfterMs / 1000, postals: 0 };

/** Null until loaded; a guild without map settings (or a server without the route: 404) has `none`. */
export const mapSettings = signal<MapSettings | null>(null);
export const postals = signal<readonly Postal[]>([]);

async function get<T>(path: string, guildId: string): Promise<T | null> {
  const res = await fetch(`/api/v1${path}`, { headers: { 'x-guild-id': guildId }, credentials: 'same-origin' });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

let loads = 0;
/** Loads the map settings and, when the guild has any, its postals; a later load wins. */
export async function loadMapSettings(): Promise<void> {
  const guildId = guild.peek()?.guildId;
  if (!guildId) return;
  const mine = ++loads;
  try {
    const settings = (await get<MapSettings>('/map', guildId)) ?? none;
    const list = settings.postals > 0 ? ((await get<{ postals: Postal[] }>('/map/postals', guildId))?.postals ?? []) : [];
    if (mine !== loads || guild.peek()?.guildId !== guildId) return;
    mapSettings.value = { ...none, ...settings };
    postals.value = list;
  } catch {
    if (mine === loads && mapSettings.peek() === null) mapSettings.value = none; // the grid, rather than nothing
  }
}

/** An image's address for an `<img>`: uploads take the guild as a query parameter (no header there). */
export function imageUrl(image: MapImage, guildId: string): string {
  if (/[?&]guild=/.test(image.url)) return image.url;
  return `${image.url}${image.url.includes('?') ? '&' : '?'}guild=${encodeURIComponent(guildId)}`;
}

let linked = false;
/** Loads once the map is first shown, and again when settings change (another board saved them) or after a snapshot. */
export function ensureMapSettings(): void {
  if (!linked) {
    linked = true;
    onNotice('settings', () => void loadMapSettings());
    onSnapshot(() => void loadMapSettings());
  }
  if (mapSettings.peek() === null) void loadMapSettings();
}
