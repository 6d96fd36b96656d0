/**
 * One map board of `bench positions` as a hand-rolled WebSocket client (raw-socket.ts): a connectionParams frame, then one subscription — `live.positions` (the coalesced
 * stream) or `live.watch` on `units` (the per-event reference). Frames are not JSON-parsed: each
 * position in a frame is found by byte search (`"z":` and, after `"speed":`, `"at":`), so the
 * board costs about the same whichever stream it reads, and reports per position its age.
 */
import { openRawSocket } from './raw-socket.ts';
import { numberAt } from './ws-frames.ts';

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

const DATA = Buffer.from('"type":"data"');
const Z = Buffer.from('"z":');
const SPEED = Buffer.from('"speed":');
const AT = Buffer.from('"at":');

export function openPositionsBoard(o: PositionsBoardOptions): PositionsBoard {
  const state = { live: false, closed: false, settled: false };
  const settle = () => {
    if (!state.settled) {
      state.settled = true;
      o.onSettled();
    }
  };

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

  const socket = openRawSocket({
    port: o.port, apiKey: o.apiKey,
    subscription: o.stream === 'coalesced'
      ? { path: 'live.positions', input: { json: { intervalMs: o.intervalMs } } }
      : { path: 'live.watch', input: { json: { topics: ['units'] } } },
    onText, onProblem: o.onProblem,
    onRefused() {},
    onClosed(byServer) {
      if (byServer && !state.closed) o.onProblem('connection closed by the server');
      state.closed = true;
      state.live = false;
      settle();
    },
  });

  return {
    get live() { return state.live; },
    get closed() { return state.closed; },
    close: () => socket.close(),
  };
}
