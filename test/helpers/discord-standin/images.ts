import { deflateSync } from 'node:zlib';

/** CRC-32 as PNG chunks need it (Node 20 has no zlib.crc32 before 20.15). */
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A colour of its own per emoji id, so a changed emoji serves different bytes. */
function colourOf(id: string): [number, number, number] {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
}

/** A valid 2×2 RGBA PNG in the emoji's colour. */
export function tinyPng(id: string): Buffer {
  const [r, g, b] = colourOf(id);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const row = Buffer.from([0, r, g, b, 255, r, g, b, 255]); // filter byte + two pixels
  const raw = Buffer.concat([row, row]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 1×1 GIF89a in the emoji's colour. */
export function tinyGif(id: string): Buffer {
  const [r, g, b] = colourOf(id);
  return Buffer.from([
    ...Buffer.from('GIF89a', 'ascii'),
    1, 0, 1, 0, 0x80, 0, 0, // 1×1, global colour table of 2 entries
    r, g, b, 0, 0, 0,
    0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, // image descriptor
    2, 2, 0x44, 0x01, 0, // LZW min code size 2, one block: clear, 0, end
    0x3b,
  ]);
}

/** The content type of image bytes, by their magic number. */
export function imageType(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('ascii') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WEBP') return 'image/webp';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  return 'application/octet-stream';
}

/** Width and height of a PNG (IHDR) or GIF (logical screen), as Discord reports them for image attachments; null for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const type = imageType(bytes);
  if (type === 'image/png' && bytes.length >= 24 && bytes.subarray(12, 16).toString('ascii') === 'IHDR') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (type === 'image/gif' && bytes.length >= 10) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  return null;
}
