import { loadImage } from '@napi-rs/canvas';
import { AppError } from '../../core/errors.ts';

export const imageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageType = (typeof imageTypes)[number];

/** Largest side and area accepted: a 5 MiB file can claim a huge, nearly empty canvas (a decompression bomb). */
export const MAX_SIDE = 16384;
export const MAX_PIXELS = 25_000_000;

export interface CheckedImage { contentType: ImageType; width: number; height: number }

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const latin1 = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('latin1');

/** The image type by its first bytes (magic numbers); null for anything else. Names and declared types play no part. */
export function sniffImageType(b: Buffer): ImageType | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && latin1(b, 0, 4) === 'RIFF' && latin1(b, 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 6 && (latin1(b, 0, 6) === 'GIF87a' || latin1(b, 0, 6) === 'GIF89a')) return 'image/gif';
  return null;
}

/** Width and height as the header states them; null when the header is cut short or malformed. */
function headerSize(type: ImageType, b: Buffer): { width: number; height: number } | null {
  const fits = (n: number) => b.length >= n;
  switch (type) {
    case 'image/png':
      return fits(24) && latin1(b, 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null;
    case 'image/gif':
      return fits(10) ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : null;
    case 'image/webp': {
      if (!fits(30)) return null;
      const chunk = latin1(b, 12, 16);
      if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L' && b[20] === 0x2f) {
        const bits = b.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
      return null;
    }
    case 'image/jpeg': {
      // Walk the segments to the first start-of-frame marker (C0–CF, except DHT C4, JPG C8, DAC CC).
      let at = 2;
      while (fits(at + 4)) {
        if (b[at] !== 0xff) return null;
        const marker = b[at + 1];
        if (marker === 0xff) { at++; continue; } // fill byte
        if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
        if (marker === 0xda || marker === 0xd9) return null; // scan data or the end before any frame header
        const length = b.readUInt16BE(at + 2);
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return fits(at + 9) ? { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) } : null;
        }
        if (length < 2) return null;
        at += 2 + length;
      }
      return null;
    }
  }
}

const looksLikeSvg = (b: Buffer) => /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, ''));

/**
 * Decides what the bytes are and checks they are that image: the type from the magic number (415
 * for anything but PNG, JPEG, WebP and GIF — SVG included, as it can carry script), the dimensions
 * from the header, within MAX_SIDE/MAX_PIXELS, a PNG complete to its IEND chunk, and the whole file
 * readable by the image decoder with the same dimensions (400 for a file that claims a type it is not).
 */
export async function checkImage(data: Buffer): Promise<CheckedImage> {
  const contentType = sniffImageType(data);
  if (!contentType) {
    if (looksLikeSvg(data)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'SVG images are refused: an SVG can carry script. Upload PNG, JPEG, WebP or GIF');
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'the file is not a PNG, JPEG, WebP or GIF image (decided from its content, not its name)');
  }
  const kind = contentType.slice(6).toUpperCase();
  const size = headerSize(contentType, data);
  if (!size || size.width === 0 || size.height === 0) throw new AppError('BAD_REQUEST', `the file starts like a ${kind} image but its header is damaged`);
  if (size.width > MAX_SIDE || size.height > MAX_SIDE || size.width * size.height > MAX_PIXELS) {
    throw new AppError('BAD_REQUEST', `the image is ${size.width}×${size.height} pixels; at most ${MAX_SIDE} per side and ${MAX_PIXELS / 1e6} megapixels are accepted`);
  }
  if (contentType === 'image/png' && !data.subarray(-PNG_IEND.length).equals(PNG_IEND)) {
    throw new AppError('BAD_REQUEST', 'the PNG image is incomplete (it does not end with its IEND chunk)');
  }
  let decoded: { width: number; height: number };
  try {
    decoded = await loadImage(data);
  } catch {
    throw new AppError('BAD_REQUEST', `the file starts like a ${kind} image but cannot be read as one`);
  }
  if (decoded.width !== size.width || decoded.height !== size.height) {
    throw new AppError('BAD_REQUEST', `the ${kind} image's header and content disagree about its size`);
  }
  return { contentType, ...size };
}

/** A file name fit to show people: no directories, no control or direction-changing characters, at most 200 characters. */
export function displayName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/\s+/g, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim(); // a tab is a space, a bidi override nothing
  return [...clean].slice(0, 200).join('') || 'upload';
}
