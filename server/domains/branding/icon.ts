import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import { AppError } from '../../core/errors.ts';
import { encodePng, parseHexColor } from '../../core/png.ts';

/**
 * The default guild icon: a rounded square in the guild colour with a white star of life
 * (three crossed bars), anti-aliased by 4x4 supersampling. Deterministic per colour.
 */
export function defaultIcon(color: string, size = 128): Buffer {
  const [r, g, b] = parseHexColor(color);
  const px = new Uint8Array(size * size * 4);
  const S = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let inside = 0, white = 0;
      for (let sy = 0; sy < S; sy++) for (let sx = 0; sx < S; sx++) {
        const u = (x + (sx + 0.5) / S) / size - 0.5; // -0.5..0.5
        const v = (y + (sy + 0.5) / S) / size - 0.5;
        if (!inRoundedSquare(u, v, 0.5, 0.16)) continue;
        inside++;
        if (inStar(u, v)) white++;
      }
      const i = (y * size + x) * 4;
      const n = S * S;
      const w = white / Math.max(1, inside);
      px[i] = Math.round(r * (1 - w) + 255 * w);
      px[i + 1] = Math.round(g * (1 - w) + 255 * w);
      px[i + 2] = Math.round(b * (1 - w) + 255 * w);
      px[i + 3] = Math.round((255 * inside) / n);
    }
  }
  return encodePng(size, size, px);
}

function inRoundedSquare(u: number, v: number, half: number, radius: number): boolean {
  const dx = Math.max(Math.abs(u) - (half - radius), 0);
  const dy = Math.max(Math.abs(v) - (half - radius), 0);
  return dx * dx + dy * dy <= radius * radius;
}

/** Three bars of width 0.11 and length 0.64, at 90°, 30° and 150°. */
function inStar(u: number, v: number): boolean {
  for (const deg of [90, 30, 150]) {
    const a = (deg * Math.PI) / 180;
    const along = u * Math.cos(a) + v * Math.sin(a);
    const across = -u * Math.sin(a) + v * Math.cos(a);
    if (Math.abs(along) <= 0.32 && Math.abs(across) <= 0.055) return true;
  }
  return false;
}

/** Side of an icon made from an upload, in pixels. */
export const ICON_SIZE = 256;

/**
 * Largest source image decoded for an icon. Decoding holds width × height × 4 bytes; a 5 MB PNG of
 * one colour can declare 30000 × 30000 (3.6 GB), so the caller checks the upload's recorded size first.
 */
export const MAX_ICON_SOURCE_PIXELS = 40_000_000;

/**
 * The icon made from an uploaded image: the largest centred square, scaled to ICON_SIZE², as PNG
 * (transparency kept; a GIF gives its first frame). An image that cannot be decoded is a 400.
 */
export async function squareIcon(image: Buffer): Promise<Buffer> {
  let img: Image;
  try {
    img = await loadImage(image); // a Buffer, never a string: a string would be read as a path or URL
  } catch {
    throw new AppError('BAD_REQUEST', 'the upload cannot be decoded as an image');
  }
  if (!img.width || !img.height) throw new AppError('BAD_REQUEST', 'the upload cannot be decoded as an image');
  const side = Math.min(img.width, img.height);
  const canvas = createCanvas(ICON_SIZE, ICON_SIZE);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, (img.width - side) / 2, (img.height - side) / 2, side, side, 0, 0, ICON_SIZE, ICON_SIZE);
  return canvas.encode('png');
}
