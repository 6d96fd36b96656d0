/**
 * The load generator of `bench fanout`: N boards, each a raw TCP socket with a hand-rolled
 * WebSocket client (handshake, masked client frames, header parser), sending what tRPC's wsLink
 * sends — a connectionParams frame, then one `live.watch` subscription — and reading frames without
 * JSON.parse: `"kind"`, `"seq"`, `"prev"` and the publisher's `"t"` stamp are found by byte search.
 * One shared read buffer (`onread`), so a read allocates nothing.
 *
 * Per board it checks the stream: `started`, then a snapshot, then deltas whose `prev` is at most
 * the last seq seen (else a gap) and whose seq is new (else a duplicate). Per event it records when
 * the last board got it (fan-out completion). Driven over IPC by the bench:
 *   connect {count} (repeatable) → mark {t0} → drain {lastSeq} → report {t0, tEnd, firstSeq, lastSeq} → close
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';
import { serveIpc } from '../lib/ipc.ts';
import { clientFrame, numberAt } from '../lib/ws-frames.ts';
import { eachFrame } from '../lib/ws-frames.ts';

export interface FanoutLoadJob {
  port: number;
  path: string;
  boards: number;
  /** One unscoped key per `boardsPerKey` boards (the server caps sockets per credential). */
  keys: string[];
  boardsPerKey: number;
  topics: readonly string[];
  connectTimeoutMs: number;
  /** Handshakes in flight at once. */
  concurrency: number;
}

export interface ConnectResult {
  ready: number;
  ms: number;
  problems: string[];
}

export interface FanoutLoadReport {
  /** Delta frames received between t0 and tEnd (by receive time), duplicates included. */
  deliveriesInWindow: number;
  deliveriesTotal: number;
  /** Per event of the window: ms from its publish stamp until the last board had it; Infinity when some board never did. */
  completionMs: number[];
  /** Per delivery of the window's events: ms from publish stamp to receipt (p50, p99). */
  deliveryP50: number;
  deliveryP99: number;
  incompleteEvents: number;
  gaps: number;
  duplicates: number;
  /** Deltas that arrived before the board's snapshot. */
  noSnapshot: number;
  /** Boards whose last seq is below the last published one at report time. */
  behind: number;
  closed: number;
  problems: string[];
  /** This process's CPU from `mark` to the end of `drain`, ms. */
  cpuMs: number;
}

const job = JSON.parse(process.argv[2]) as FanoutLoadJob;
const N = job.boards;

// ---- per-board state ---------------------------------------------------------------------
const Stage = { Connecting: 0, Upgraded: 1, Started: 2, Live: 3, Failed: 4, Closed: 5 } as const;
const stage = new Uint8Array(N);
const lastSeq = new Float64Array(N).fill(-1);
const pending: (Buffer | null)[] = new Array(N).fill(null);
const sockets: Socket[] = new Array(N);

let ready = 0;
let gaps = 0;
let duplicates = 0;
let noSnapshot = 0;
let closed = 0;
/** Boards the server answered with something other than started + snapshot (an error frame). */
let failed = 0;
let deliveriesTotal = 0;
const problems: string[] = [];
const problem = (i: number, what: string) => {
  if (problems.length < 8) problems.push(`board ${i}: ${what}`);
};

// ---- per-event and timeline statistics ----------------------------------------------------
interface EventStat { t: number; boards: number; last: number }
const events = new Map<number, EventStat>();
/** (receive time ns, delta frames in that read) pairs, for counting deliveries inside the server's CPU window. */
let timeline = new Float64Array(1 << 17);
let timelineLen = 0;
/** Per-delivery latency of events stamped after t0, in 0.1 ms buckets up to 10 s. */
const deliveryHist = new Uint32Array(100_001);
let windowT0 = Infinity;

// ---- frame parsing --------------------------------------------------------------------------
const KIND = Buffer.from('"kind":"');
const SEQ = Buffer.from('"seq":');
const PREV = Buffer.from('"prev":');
const T = Buffer.from('"t":"');
const HTTP_END = Buffer.from('\r\n\r\n');
const CH_s = 0x73; // 's'napshot
const CH_t = 0x74; // 'st'atus

/** Index of `needle` inside data[from, to), or -1. */
function find(data: Buffer, needle: Buffer, from: number, to: number): number {
  const at = data.indexOf(needle, from);
  return at >= 0 && at + needle.length <= to ? at : -1;
}

/** One text frame data[s, e) of board i, received at `recv` (ns); returns 1 for a delta frame, else 0. */
function onText(i: number, data: Buffer, s: number, e: number, recv: number): number {
  const k = find(data, KIND, s, e);
  if (k < 0) {
    const text = data.toString('utf8', s, Math.min(e, s + 400));
    if (text.includes('"type":"started"')) {
      if (stage[i] === Stage.Upgraded) stage[i] = Stage.Started;
      else problem(i, `started twice or out of order: ${text}`);
    } else {
      problem(i, `unexpected frame: ${text}`);
      if (stage[i] < Stage.Live) {
        stage[i] = Stage.Failed;
        failed++;
      }
    }
    return 0;
  }
  const q = find(data, SEQ, k, e);
  const seq = q < 0 ? -1 : numberAt(data, q + SEQ.length, e);
  if (seq < 0) {
    problem(i, `frame without seq: ${data.toString('utf8', s, Math.min(e, s + 200))}`);
    return 0;
  }
  if (data[k + KIND.length] === CH_s && data[k + KIND.length + 1] === CH_t) return 0; // a status frame (database down or back): no topic data
  if (data[k + KIND.length] === CH_s) {
    if (stage[i] !== Stage.Started) problem(i, 'snapshot before started, or a second snapshot');
    if (stage[i] === Stage.Failed) failed--;
    if (stage[i] !== Stage.Live) ready++;
    stage[i] = Stage.Live;
    lastSeq[i] = seq;
    return 0;
  }
  // a delta
  deliveriesTotal++;
  if (stage[i] !== Stage.Live) {
    noSnapshot++;
    problem(i, `delta ${seq} before a snapshot`);
  }
  const p = find(data, PREV, q, e);
  const prev = p < 0 ? -1 : numberAt(data, p + PREV.length, e);
  const last = lastSeq[i];
  if (seq <= last) {
    duplicates++;
    return 1;
  }
  if (prev < 0 || prev > last) {
    gaps++;
    problem(i, `gap: delta ${seq} has prev ${prev}, board had ${last}`);
  }
  lastSeq[i] = seq;
  const ts = find(data, T, p < 0 ? q : p, e);
  const t = ts < 0 ? -1 : numberAt(data, ts + T.length, e);
  let stat = events.get(seq);
  if (!stat) events.set(seq, (stat = { t, boards: 0, last: 0 }));
  stat.boards++;
  if (recv > stat.last) stat.last = recv;
  if (t >= windowT0) {
    const bucket = Math.min(100_000, Math.max(0, Math.round((recv - t) / 100_000)));
    deliveryHist[bucket]++;
  }
  return 1;
}

/** Parses every complete frame in data[0, end); keeps the rest (copied: `data` may be the shared read buffer). */
function onFrames(i: number, data: Buffer, end: number, recv: number): void {
  if (data.length > end) data = data.subarray(0, end); // byte searches must not run into stale bytes
  let deltas = 0;
  const s = eachFrame(data, end, (opcode, from, to) => {
    switch (opcode) {
      case 1:
        deltas += onText(i, data, from, to, recv);
        break;
      case 9: // protocol ping: answer with the same payload
        sockets[i].write(clientFrame(0xa, Buffer.from(data.subarray(from, to))));
        break;
      case 8:
        problem(i, `close frame ${to - from >= 2 ? data.readUInt16BE(from) : ''} ${data.toString('utf8', from + 2, to)}`);
        break;
      case 10:
        break;
      default:
        problem(i, `unexpected opcode ${opcode}`);
    }
  });
  pending[i] = s < end ? Buffer.from(data.subarray(s, end)) : null;
  if (deltas > 0) {
    if (timelineLen + 2 > timeline.length) {
      const bigger = new Float64Array(timeline.length * 2);
      bigger.set(timeline);
      timeline = bigger;
    }
    timeline[timelineLen++] = recv;
    timeline[timelineLen++] = deltas;
  }
}

const subscribeFrame = clientFrame(0x1, Buffer.from(JSON.stringify({
  id: 1, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: job.topics } } },
})));

// ---- connections ------------------------------------------------------------------------------
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);
const nowNs = () => Number(process.hrtime.bigint());

function openBoard(i: number, done: () => void): void {
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  const apiKey = job.keys[Math.floor(i / job.boardsPerKey)];
  let settled = false;
  const settle = () => {
    if (!settled) {
      settled = true;
      done();
    }
  };
  const socket = tcpConnect({
    host: '127.0.0.1',
    port: job.port,
    noDelay: true,
    onread: {
      buffer: READ_BUFFER,
      callback(n: number, buf: Buffer) {
        const recv = nowNs();
        let data = buf;
        let end = n;
        const rest = pending[i];
        if (rest) {
          data = Buffer.concat([rest, buf.subarray(0, n)]);
          end = data.length;
          pending[i] = null;
        }
        if (stage[i] === Stage.Connecting) {
          const headEnd = data.indexOf(HTTP_END);
          if (headEnd < 0 || headEnd >= end) {
            pending[i] = Buffer.from(data.subarray(0, end));
            return true;
          }
          const head = data.toString('latin1', 0, headEnd);
          if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) {
            problem(i, `upgrade refused: ${head.split('\r\n')[0]}`);
            socket.destroy();
            settle();
            return false;
          }
          stage[i] = Stage.Upgraded;
          settle();
          socket.write(Buffer.concat([
            clientFrame(0x1, Buffer.from(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${apiKey}` } }))),
            subscribeFrame,
          ]));
          const from = headEnd + 4;
          if (from < end) onFrames(i, Buffer.from(data.subarray(from, end)), end - from, recv);
          return true;
        }
        onFrames(i, data, end, recv);
        return true;
      },
    },
  });
  sockets[i] = socket;
  socket.on('connect', () => {
    socket.write(`GET ${job.path} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
      + `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  });
  socket.on('error', (err) => problem(i, `socket error: ${err.message}`));
  socket.on('close', () => {
    if (stage[i] !== Stage.Closed) {
      if (stage[i] === Stage.Live) ready--;
      if (stage[i] === Stage.Failed) failed--;
      stage[i] = Stage.Closed;
      closed++;
      if (!stopping) problem(i, 'connection closed by the server');
    }
    settle();
  });
}

let stopping = false;

let opened = 0;

/**
 * Opens boards up to `count` (boards 0…count-1; earlier calls' boards stay), `concurrency`
 * handshakes at a time; resolves once each is live (snapshot received) or refused, or the time is up.
 */
function connectUpTo(count: number): Promise<ConnectResult> {
  const start = performance.now();
  const target = Math.min(N, count);
  return new Promise((resolve) => {
    let inFlight = 0;
    const launch = () => {
      while (inFlight < job.concurrency && opened < target) {
        inFlight++;
        openBoard(opened++, () => {
          inFlight--;
          launch();
        });
      }
    };
    launch();
    const deadline = start + job.connectTimeoutMs;
    const poll = setInterval(() => {
      const allSettled = opened === target && inFlight === 0;
      if ((allSettled && ready + closed + failed >= target) || performance.now() > deadline) {
        clearInterval(poll);
        resolve({ ready, ms: performance.now() - start, problems: [...problems] });
      }
    }, 20);
  });
}

function percentileOfHist(q: number): number {
  let total = 0;
  for (const c of deliveryHist) total += c;
  if (total === 0) return NaN;
  const want = Math.ceil(q * total);
  let seen = 0;
  for (let b = 0; b < deliveryHist.length; b++) {
    seen += deliveryHist[b];
    if (seen >= want) return b / 10;
  }
  return Infinity;
}

let cpuMark: NodeJS.CpuUsage | null = null;
let cpuMs = 0;

serveIpc({
  connect: ({ count }: { count: number }) => connectUpTo(count),
  /** The server's window started at t0 (ns): latency histogram from here, CPU accounting from now. */
  mark: ({ t0 }: { t0: string }) => {
    windowT0 = Number(t0);
    cpuMark = process.cpuUsage();
  },
  /** Resolves once every live board has `lastSeq`, or after `timeoutMs`; true when all did. */
  drain: ({ lastSeq: want, timeoutMs }: { lastSeq: number; timeoutMs: number }) => new Promise<boolean>((resolve) => {
    const until = performance.now() + timeoutMs;
    const poll = setInterval(() => {
      let all = true;
      for (let i = 0; i < N && all; i++) if (stage[i] === Stage.Live && lastSeq[i] < want) all = false;
      if (all || performance.now() > until) {
        clearInterval(poll);
        if (cpuMark) {
          const used = process.cpuUsage(cpuMark);
          cpuMs = (used.user + used.system) / 1000;
        }
        resolve(all);
      }
    }, 5);
  }),
  report: ({ t0, tEnd, firstSeq, lastSeq: lastPublished }: { t0: string; tEnd: string; firstSeq: number; lastSeq: number }): FanoutLoadReport => {
    const from = Number(t0);
    const to = Number(tEnd);
    let deliveriesInWindow = 0;
    for (let k = 0; k < timelineLen; k += 2) if (timeline[k] >= from && timeline[k] <= to) deliveriesInWindow += timeline[k + 1];
    const completionMs: number[] = [];
    let incompleteEvents = 0;
    const live = ready;
    for (let seq = firstSeq; seq <= lastPublished; seq++) {
      const stat = events.get(seq);
      if (!stat || stat.boards < live || stat.t < 0) {
        incompleteEvents++;
        completionMs.push(Infinity);
      } else completionMs.push((stat.last - stat.t) / 1e6);
    }
    let behind = 0;
    for (let i = 0; i < N; i++) if (stage[i] === Stage.Live && lastSeq[i] < lastPublished) behind++;
    return {
      deliveriesInWindow, deliveriesTotal, completionMs, incompleteEvents,
      deliveryP50: percentileOfHist(0.5), deliveryP99: percentileOfHist(0.99),
      gaps, duplicates, noSnapshot, behind, closed, problems: [...problems], cpuMs,
    };
  },
  close: () => {
    stopping = true;
    for (const s of sockets) s?.destroy();
  },
});

process.on('disconnect', () => process.exit(0)); // the bench is gone: so are we
