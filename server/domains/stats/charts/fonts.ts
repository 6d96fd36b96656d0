import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

/**
 * The charts' one typeface: DejaVu Sans (regular and bold) from the npm package dejavu-fonts-ttf,
 * registered under its own alias so no system font is needed or picked up by accident.
 */
export const FONT_FAMILY = 'DT Chart Sans';

const require = createRequire(import.meta.url);
const REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

let registered = false;
let covered: (codePoint: number) => boolean = () => true;

/** Registers the fonts once per thread (idempotent); throws when the font files are missing. */
export function registerChartFonts(): void {
  if (registered) return;
  for (const file of [REGULAR, BOLD]) {
    if (!GlobalFonts.registerFromPath(file, FONT_FAMILY)) throw new Error(`chart font could not be registered: ${file}`);
  }
  covered = coverageOf(readFileSync(REGULAR));
  registered = true;
}

/** Whether the chart font draws this character (anything else would be an empty box). */
export function fontCovers(codePoint: number): boolean {
  return covered(codePoint);
}

/**
 * The characters a TrueType font maps to a glyph, read from its `cmap` table: the Unicode
 * full-repertoire subtable (format 12) when present, else the BMP one (format 4).
 */
function coverageOf(font: Buffer): (codePoint: number) => boolean {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    if (font.toString('latin1', 12 + i * 16, 16 + i * 16) === 'cmap') cmap = font.readUInt32BE(20 + i * 16);
  }
  if (cmap < 0) return () => true;
  const ranges: [number, number][] = [];
  const subtables = font.readUInt16BE(cmap + 2);
  let format4 = -1, format12 = -1;
  for (let i = 0; i < subtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = font.readUInt16BE(rec), encoding = font.readUInt16BE(rec + 2);
    const at = cmap + font.readUInt32BE(rec + 4);
    const format = font.readUInt16BE(at);
    if (format === 12 && (platform === 3 && encoding === 10 || platform === 0)) format12 = at;
    if (format === 4 && (platform === 3 && encoding === 1 || platform === 0)) format4 = at;
  }
  if (format12 >= 0) {
    const groups = font.readUInt32BE(format12 + 12);
    for (let g = 0; g < groups; g++) {
      const at = format12 + 16 + g * 12;
      ranges.push([font.readUInt32BE(at), font.readUInt32BE(at + 4)]);
    }
  } else if (format4 >= 0) {
    const segments = font.readUInt16BE(format4 + 6) / 2;
    const ends = format4 + 14, starts = ends + segments * 2 + 2;
    for (let s = 0; s < segments; s++) {
      const start = font.readUInt16BE(starts + s * 2), end = font.readUInt16BE(ends + s * 2);
      if (start !== 0xffff) ranges.push([start, end]);
    }
  } else {
    return () => true;
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return (cp) => {
    let lo = 0, hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < ranges[mid][0]) hi = mid - 1;
      else if (cp > ranges[mid][1]) lo = mid + 1;
      else return true;
    }
    return false;
  };
}
