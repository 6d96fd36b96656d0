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
