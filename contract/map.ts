/**
 * The guild's map (issue 31): limits of its settings and postal layer, and the calibration's
 * transform, shared by the server (checks), the Einstellungen editor and the Karte tab.
 * A calibration is two known places, each a pixel on the image and a game position; the transform
 * is linear per axis (x→px, y→py), without rotation, as GTA maps are drawn. No imports.
 */
export const mapLimits = {
  /** Largest pixel coordinate of a calibration point (uploads are at most 16384 per side). */
  imageSide: 16_384,
  /** The two points differ by at least this in px and py (pixels) and in x and y (game units). */
  minSpread: 1,
  /** A position older than this (s) is stale: default, least and most. */
  staleAfterSeconds: { default: 60, min: 10, max: 3_600 },
  /** Entries in the postal layer. */
  postals: 20_000,
} as const;

export interface CalibrationPoint { px: number; py: number; x: number; y: number }

/** Per axis: pixel = scale × game + offset. */
export interface MapTransform { sx: number; ox: number; sy: number; oy: number }

/** The transform two points make; null when they do not span both axes by `mapLimits.minSpread`. */
export function transformOf(points: readonly CalibrationPoint[]): MapTransform | null {
  const [a, b] = points;
  if (!a || !b) return null;
  const spread = (u: number, v: number) => Math.abs(u - v) >= mapLimits.minSpread;
  if (!spread(a.px, b.px) || !spread(a.py, b.py) || !spread(a.x, b.x) || !spread(a.y, b.y)) return null;
  const sx = (b.px - a.px) / (b.x - a.x);
  const sy = (b.py - a.py) / (b.y - a.y);
  return { sx, ox: a.px - sx * a.x, sy, oy: a.py - sy * a.y };
}

/** Where game position (x, y) is on the image, in pixels. */
export function toPixel(t: MapTransform, x: number, y: number): { px: number; py: number } {
  return { px: t.sx * x + t.ox, py: t.sy * y + t.oy };
}

/** The game position of pixel (px, py). */
export function toGame(t: MapTransform, px: number, py: number): { x: number; y: number } {
  return { x: (px - t.ox) / t.sx, y: (py - t.oy) / t.sy };
}
