/**
 * One board as a hand-rolled WebSocket client (as bench/load/fanout.ts's boards, one object per
 * board): a raw TCP socket, the upgrade, then what tRPC's wsLink sends — a connectionParams frame
 * and one `live.watch` subscription. Frames are read without JSON.parse: `"kind"`, `"seq"` and
 * `"prev"` are found by byte search. The stream is checked as it arrives: `started`, a snapshot,
 * then deltas whose `prev` the board has (else a gap) and whose seq is new (else a duplicate).
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect as tcpConnect } from 'node:net';
import { eachFrame } from './ws-frames.ts';

export interface RawBoard {
  readonly live: boolean;
  readonly failed: boolean;
  readonly closed: boolean;
  /** The newest seq the board has (snapshot or delta); -1 before the snapshot. */
  readonly lastSeq: number;
  readonly gaps: number;
  readonly duplicates: number;
  /** Deltas that came before the snapshot. */
  readonly noSnapshot: number;
  close(): void;
}

export interface RawBoardOptions {
  port: number;
  apiKey: string;
  topics: readonly string[];
  /** A delta frame that is new to the board. */
  onDelta(seq: number): void;
  onProblem(what: string): void;
  /** Once: the board is live (snapshot), refused, or closed before it got there. */
  onSettled(): void;
}

const KIND = Buffer.from('"kind":"');
const SEQ = Buffer.from('"seq":');
const PREV = Buffer.from('"prev":');
const HTTP_END = Buffer.from('\r\n\r\n');

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

export function openRawBoard(o: RawBoardOptions): RawBoard {
  const wsKey = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${wsKey}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  const state = { upgraded: false, started: false, live: false, failed: false, closed: false, lastSeq: -1, gaps: 0, duplicates: 0, noSnapshot: 0 };
  let settled = false;
  const settle = () => {
    if (!settled) {
      settled = true;
      o.onSettled();
    }
  };
  let pending: Buffer | null = null;
  let stopping = false;

  const onText = (data: Buffer, s: number, e: number) => {
    const k = data.indexOf(KIND, s);
    if (k < 0 || k >= e) {
      const text = data.toString('utf8', s, Math.min(e, s + 300));
      if (text.includes('"type":"started"')) state.started = true;
      else {
        o.onProblem(`unexpected frame: ${text}`);
        if (!state.live) {
          state.failed = true;
          settle();
        }
      }
      return;
    }
    const q = data.indexOf(SEQ, k);
    const seq = q < 0 || q >= e ? -1 : numberAt(data, q + SEQ.length, e);
    if (seq < 0) return o.onProblem('a frame without seq');
    if (data[k + KIND.length] === 0x73) { // 's'napshot
      if (!state.started || state.live) o.onProblem('snapshot before started, or a second snapshot');
      state.live = true;
      state.lastSeq = seq;
      settle();
      return;
    }
    if (!state.live) {
      state.noSnapshot++;
      return o.onProblem(`delta ${seq} before a snapshot`);
    }
    if (seq <= state.lastSeq) {
      state.duplicates++;
      return;
    }
    const p = data.indexOf(PREV, q);
    const prev = p < 0 || p >= e ? -1 : numberAt(data, p + PREV.length, e);
    if (prev < 0 || prev > state.lastSeq) {
      state.gaps++;
      o.onProblem(`gap: delta ${seq} has prev ${prev}, the board had ${state.lastSeq}`);
    }
    state.lastSeq = seq;
    o.onDelta(seq);
  };

  const onFrames = (data: Buffer) => {
    const s = eachFrame(data, data.length, (opcode, from, to) => {
      if (opcode === 1) onText(data, from, to);
      else if (opcode === 9) socket.write(clientFrame(0xa, Buffer.from(data.subarray(from, to)))); // ping → pong
      else if (opcode === 8) o.onProblem(`close frame ${to - from >= 2 ? data.readUInt16BE(from) : ''} ${data.toString('utf8', from + 2, to)}`);
    });
    pending = s < data.length ? Buffer.from(data.subarray(s)) : null;
  };

  const socket = tcpConnect({ host: '127.0.0.1', port: o.port, noDelay: true });
  socket.on('connect', () => {
    socket.write(`GET /trpc?connectionParams=1 HTTP/1.1\r\nHost: 127.0.0.1:${o.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
      + `Sec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  });
  socket.on('data', (chunk: Buffer) => {
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    if (!state.upgraded) {
      const headEnd = data.indexOf(HTTP_END);
      if (headEnd < 0) {
        pending = data;
        return;
      }
      const head = data.toString('latin1', 0, headEnd);
      if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) {
        o.onProblem(`upgrade refused: ${head.split('\r\n')[0]}`);
        state.failed = true;
        socket.destroy();
        settle();
        return;
      }
      state.upgraded = true;
      socket.write(Buffer.concat([
        clientFrame(0x1, Buffer.from(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${o.apiKey}` } }))),
        clientFrame(0x1, Buffer.from(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: o.topics } } } }))),
      ]));
      if (headEnd + 4 < data.length) onFrames(data.subarray(headEnd + 4));
      return;
    }
    onFrames(data);
  });
  socket.on('error', (err) => o.onProblem(`socket error: ${err.message}`));
  socket.on('close', () => {
    if (!stopping && !state.closed) o.onProblem('connection closed by the server');
    state.closed = true;
    state.live = false;
    settle();
  });

  return {
    get live() { return state.live; },
    get failed() { return state.failed; },
    get closed() { return state.closed; },
    get lastSeq() { return state.lastSeq; },
    get gaps() { return state.gaps; },
    get duplicates() { return state.duplicates; },
    get noSnapshot() { return state.noSnapshot; },
    close() {
      stopping = true;
      socket.destroy();
    },
  };
}
