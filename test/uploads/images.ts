import { createCanvas } from '@napi-rs/canvas';
import { crc32 } from 'node:zlib';

/** Real images of each type with known dimensions, drawn with some detail so the bytes are not trivial. */
export function drawn(type: 'png' | 'jpeg' | 'webp', width: number, height: number): Buffer {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#c0392b';
  g.fillRect(0, 0, width, height);
  for (let i = 0; i < width; i += 4) {
    g.fillStyle = `rgb(${i % 255},${(i * 7) % 255},${(i * 13) % 255})`;
    g.fillRect(i, (i * 3) % height, 3, Math.max(1, height >> 2));
  }
  return type === 'png' ? canvas.toBuffer('image/png') : type === 'jpeg' ? canvas.toBuffer('image/jpeg') : canvas.toBuffer('image/webp');
}

/** A valid GIF89a: a `width`×`height` logical screen holding one 1×1 image. */
export function gif(width: number, height: number): Buffer {
  const b = Buffer.from('474946383961000000008000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** A valid PNG of exactly `total` bytes: a small image with a private ancillary chunk (correct CRC) filling it up. */
export function pngOfSize(total: number): Buffer {
  const png = drawn('png', 30, 20);
  const n = total - png.length - 12;
  const type = Buffer.from('prVt', 'latin1');
  const data = Buffer.alloc(n);
  for (let i = 0; i < n; i++) data[i] = (i * 31 + (i >> 8)) & 0xff;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(n);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  return Buffer.concat([png.subarray(0, 33), len, type, data, crc, png.subarray(33)]);
}

export interface Part { field: string; filename?: string; contentType?: string; data: Buffer | string }

/** A multipart/form-data body written out by hand (so malformed ones can be made too). */
export function form(parts: Part[], boundary = 'x-dispatch-test-boundary'): { body: Buffer; contentType: string } {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.field}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`;
    pieces.push(Buffer.from(head, 'utf8'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The usual upload: one file part `file`. */
export const fileForm = (data: Buffer | string, filename = 'logo.png', contentType = 'image/png') => form([{ field: 'file', filename, contentType, data }]);
