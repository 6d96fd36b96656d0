/**
 * One board as a hand-rolled WebSocket client (as bench/load/fanout.ts's boards, one object per
 * board): a raw TCP socket, the upgrade, then what tRPC's wsLink sends — a connectionParams frame
 * and one `live.watch` subscription. Frames are read without JSON.parse: `"kind"`, `"seq"` and
 * `"prev"` are found by byte search. The stream is checked as it arrives: `started`, a snapshot,
 * then deltas whose `prev` the board has (else a gap) and whose seq is new (else a duplicate).
 */
import { openRawSocket } from './raw-socket.ts';
import { numberAt } from './ws-frames.ts';

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

export function openRawBoard(o: RawBoardOptions): RawBoard {
  const state = { started: false, live: false, failed: false, closed: false, lastSeq: -1, gaps: 0, duplicates: 0, noSnapshot: 0 };
  let settled = false;
  const settle = () => {
    if (!settled) {
      settled = true;
      o.onSettled();
    }
  };

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

  const socket = openRawSocket({
    port: o.port, apiKey: o.apiKey,
    subscription: { path: 'live.watch', input: { json: { topics: o.topics } } },
    onText, onProblem: o.onProblem,
    onRefused() {
      state.failed = true;
      settle();
    },
    onClosed(byServer) {
      if (byServer && !state.closed) o.onProblem('connection closed by the server');
      state.closed = true;
      state.live = false;
      settle();
    },
  });

  return {
    get live() { return state.live; },
    get failed() { return state.failed; },
    get closed() { return state.closed; },
    get lastSeq() { return state.lastSeq; },
    get gaps() { return state.gaps; },
    get duplicates() { return state.duplicates; },
    get noSnapshot() { return state.noSnapshot; },
    close: () => socket.close(),
  };
}
