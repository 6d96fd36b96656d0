/**
 * WebSocket frames at the byte level for the benchmarks' hand-rolled boards (raw-socket.ts and
 * load/fanout.ts): walking the frames a server sent, masking a client's, reading a number in place.
 */
import { randomBytes } from 'node:crypto';

/**
 * Walks the complete frames a server sent (unmasked) in data[0, end): calls `on` with each one's
 * opcode and payload bounds, and returns where the first incomplete frame starts (`end` when none).
 * The raw boards of the benchmarks read frames with it, without a WebSocket library in the way.
 */
export function eachFrame(data: Buffer, end: number, on: (opcode: number, from: number, to: number) => void): number {
  let s = 0;
  while (end - s >= 2) {
    let len = data[s + 1] & 0x7f;
    let head = 2;
    if (len === 126) {
      if (end - s < 4) break;
      len = data.readUInt16BE(s + 2);
      head = 4;
    } else if (len === 127) {
      if (end - s < 10) break;
      len = data.readUInt32BE(s + 2) * 2 ** 32 + data.readUInt32BE(s + 6);
      head = 10;
    }
    if (end - s < head + len) break;
    on(data[s] & 0x0f, s + head, s + head + len);
    s += head + len;
  }
  return s;
}

/** The unsigned decimal at data[at…], or -1. */
export function numberAt(data: Buffer, at: number, to: number): number {
  let v = 0;
  let digits = 0;
  for (let k = at; k < to; k++) {
    const c = data[k] - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
    digits++;
  }
  return digits ? v : -1;
}

/** A masked client frame (RFC 6455 §5.3). */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (head === 2) out[1] = 0x80 | len;
  else if (head === 4) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  mask.copy(out, head);
  for (let k = 0; k < len; k++) out[head + 4 + k] = payload[k] ^ mask[k & 3];
  return out;
}
