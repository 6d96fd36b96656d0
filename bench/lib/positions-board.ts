/**
 * One map board of `bench positions` as a hand-rolled WebSocket client (the upgrade and frames of
 * raw-board.ts): a connectionParams frame, then one subscription — `live.positions` (the coalesced
 * stream) or `live.watch` on `units` (the per-event reference). Frames are not JSON-parsed: each
 * position in a frame is found by byte search (`"z":` and, after `"speed":`, `"at":`), so the
 * board costs about the same whichever stream it reads, and reports per position its age.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect as tcpConnect } from 'node:net';
import { clientFrame, numberAt } from './raw-board.ts';
import { eachFrame } from './ws-frames.ts';

export type BoardStream = 'coalesced' | 'per-event';

export interface PositionsBoardOptions {
  port: number;
  apiKey: string;
  stream: BoardStream;
  intervalMs: number;
  /** A data frame after the first: its byte length, and per position the server's `at` and the bench's send stamp (`z`, ms mod 10 s). */
  onFrame(bytes: number, positions: number): void;
  onPosition(at: number, sentMod: number): void;
  onProblem(what: string): void;
  /** Once: the first data frame (full / snapshot) arrived, or the board failed or closed before. */
  onSettled(): void;
}

export interface PositionsBoard {
  readonly live: boolean;
  readonly closed: boolean;
  close(): void;
}

const HTTP_END = Buffer.from('\r\n\r\n');
const DATA = Buffer.from('"type":"data"');
const Z = Buffer.from('"z":');
const SPEED = Buffer.from('"speed":');
const AT = Buffer.from('"at":');

export function openPositionsBoard(o: PositionsBoardOptions): PositionsBoard {
  const wsKey = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${wsKey}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  const state = { upgraded: false, live: false, closed: false, stopping: false, settled: false };
  const settle = () => {
    if (!state.settled) {
      state.settled = true;
      o.onSettled();
    }
  };
  let pending: Buffer | null = null;

  const onText = (data: Buffer, s: number, e: number) => {
    const d = data.indexOf(DATA, s);
    if (d < 0 || d >= e) {
      const text = data.toString('utf8', s, Math.min(e, s + 300));
      if (!text.includes('"type":"started"')) o.onProblem(`unexpected frame: ${text}`);
      return;
    }
    if (!state.live) { // the full frame or the snapshot: what the board starts from, not a change
      state.live = true;
      settle();
      return;
    }
    let n = 0;
    for (let k = data.indexOf(Z, d); k >= 0 && k < e; k = data.indexOf(Z, k + 1)) {
      const sp = data.indexOf(SPEED, k);
      const a = sp < 0 || sp >= e ? -1 : data.indexOf(AT, sp);
      if (a < 0 || a >= e) break;
      o.onPosition(numberAt(data, a + AT.length, e), numberAt(data, k + Z.length, e));
      n++;
      k = a;
    }
    o.onFrame(e - s, n);
  };

  const onFrames = (data: Buffer) => {
    const s = eachFrame(data, data.length, (opcode, from, to) => {
      if (opcode === 1) onText(data, from, to);
      else if (opcode === 9) socket.write(clientFrame(0xa, Buffer.from(data.subarray(from, to)))); // ping → pong
      else if (opcode === 8) o.onProblem(`close frame ${to - from >= 2 ? data.readUInt16BE(from) : ''} ${data.toString('utf8', from + 2, to)}`);
    });
    pending = s < data.length ? Buffer.from(data.subarray(s)) : null;
  };

  const subscription = o.stream === 'coalesced'
    ? { path: 'live.positions', input: { json: { intervalMs: o.intervalMs } } }
    : { path: 'live.watch', input: { json: { topics: ['units'] } } };
  const socket = tcpConnect({ host: '127.0.0.1', port: o.port, noDelay: true });
  socket.on('connect', () => {
    socket.write(`GET /trpc?connectionParams=1 HTTP/1.1\r\nHost: 127.0.0.1:${o.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
      + `Sec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  });
  socket.on('data', (chunk: Buffer) => {
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    if (state.upgraded) return onFrames(data);
    const headEnd = data.indexOf(HTTP_END);
    if (headEnd < 0) {
      pending = data;
      return;
    }
    const head = data.toString('latin1', 0, headEnd);
    if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) {
      o.onProblem(`upgrade refused: ${head.split('\r\n')[0]}`);
      socket.destroy();
      return;
    }
    state.upgraded = true;
    socket.write(Buffer.concat([
      clientFrame(0x1, Buffer.from(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${o.apiKey}` } }))),
      clientFrame(0x1, Buffer.from(JSON.stringify({ id: 1, method: 'subscription', params: subscription }))),
    ]));
    if (headEnd + 4 < data.length) onFrames(data.subarray(headEnd + 4));
  });
  socket.on('error', (err) => o.onProblem(`socket error: ${err.message}`));
  socket.on('close', () => {
    if (!state.stopping && !state.closed) o.onProblem('connection closed by the server');
    state.closed = true;
    state.live = false;
    settle();
  });

  return {
    get live() { return state.live; },
    get closed() { return state.closed; },
    close() {
      state.stopping = true;
      socket.destroy();
    },
  };
}
