/**
 * Game coordinates ↔ the map's plane (Leaflet's CRS.Simple: at zoom 0 one unit is one pixel,
 * `lat` grows upwards, `lng` to the right). Pure functions: no Leaflet, unit-tested on their own.
 *
 * - With a calibrated image: each axis is linear on its own (x → image px, y → image py) through
 *   the two calibration points; the image occupies lat −height..0, lng 0..width (py grows down).
 * - Without one: the plane is the game itself (lat = y, lng = x), under a labelled grid.
 */
import { transformOf, type CalibrationPoint } from '../../../../contract/map.ts';

export type { CalibrationPoint };

export interface MapImage { uploadId: string; url: string; width: number; height: number }
export interface LatLngPair { lat: number; lng: number }

/** A game coordinate's place on the map and back; `screenAngle` turns a GTA heading into a CSS rotation (degrees clockwise from up). */
export interface Transform {
  toMap(x: number, y: number): LatLngPair;
  toGame(lat: number, lng: number): { x: number; y: number };
  screenAngle(heading: number): number;
  /** Whether this is the calibrated image (false: the game plane with the grid). */
  image: boolean;
  /** Map units (pixels at zoom 0) per game unit, roughly (the mean of both axes). */
  scale: number;
}

/** The direction a GTA heading points in the game: 0 is +y (north), 90 is −x (west): counter-clockwise. */
function gameDirection(heading: number): { dx: number; dy: number } {
  const r = (heading * Math.PI) / 180;
  return { dx: -Math.sin(r), dy: Math.cos(r) };
}

/** Clockwise degrees from screen-up of a vector in screen pixels (x right, y down). */
const clockwise = (sx: number, sy: number) => ((Math.atan2(sx, -sy) * 180) / Math.PI + 360) % 360;

/** The calibrated image's transform, or null when the calibration cannot place both axes. */
export function imageTransform(points: readonly CalibrationPoint[]): Transform | null {
  // The same per-axis transform the server checks calibrations with (contract/map.ts).
  const axes = transformOf(points);
  if (!axes) return null;
  const { sx: ax, ox: bx, sy: ay, oy: by } = axes;
  return {
    image: true,
    scale: (Math.abs(ax) + Math.abs(ay)) / 2,
    toMap: (x, y) => ({ lat: -(ay * y + by), lng: ax * x + bx }),
    toGame: (lat, lng) => ({ x: (lng - bx) / ax, y: (-lat - by) / ay }),
    screenAngle: (heading) => {
      const { dx, dy } = gameDirection(heading);
      return clockwise(ax * dx, ay * dy);
    },
  };
}

/** The game plane itself: north up. */
export const gridTransform: Transform = {
  image: false,
  scale: 1,
  toMap: (x, y) => ({ lat: y, lng: x }),
  toGame: (lat, lng) => ({ x: lng, y: lat }),
  screenAngle: (heading) => clockwise(gameDirection(heading).dx, -gameDirection(heading).dy),
};

/** Roughly the GTA V map: where the grid spans when there is no data outside it. */
export const defaultExtent = { minX: -4000, maxX: 4500, minY: -4000, maxY: 8500 } as const;
export type Extent = { minX: number; maxX: number; minY: number; maxY: number };

/** The grid's extent: the default map, widened to every point given, rounded out to `step`. */
export function gridExtent(points: Iterable<{ x: number; y: number }>, step = 1000): Extent {
  let { minX, maxX, minY, maxY } = defaultExtent as Extent;
  for (const p of points) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  }
  return { minX: Math.floor(minX / step) * step, maxX: Math.ceil(maxX / step) * step, minY: Math.floor(minY / step) * step, maxY: Math.ceil(maxY / step) * step };
}

/** The nearest postal to a game point (or null when there are none). */
export function nearestPostal<P extends { code: string; x: number; y: number }>(postals: readonly P[], x: number, y: number): P | null {
  let best: P | null = null;
  let bestD = Infinity;
  for (const p of postals) {
    const d = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (d < bestD) { bestD = d; best = p; }
  }
  return best;
}
