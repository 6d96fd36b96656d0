/**
 * The load generator of `bench fanout --guilds`: many guilds, each with its boards (one `ws`
 * WebSocket each, one `live.watch` subscription, as tRPC's wsLink sends it) and one dispatcher's
 * tool that sets a unit's status through REST (`PUT /api/v1/units/{callsign}/status` with the
 * guild's API key) every `writeIntervalMs`, the guilds' writes spread evenly over the interval.
 * A guild's next write waits for the answer to its last one (skipped, and counted, when it is late).
 *
 * Per board it checks the stream (started, snapshot, then deltas whose `prev` it has and whose seq
 * is new) and matches each delta to the write that caused it (same unit, same status), so each
 * delivery is timed from that write's answer (and from its sending). Driven over IPC by the bench:
 *   connect → writes → mark → stop → drain → report → close
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import { serveIpc } from '../lib/ipc.ts';

export interface GuildsLoadJob {
  port: number;
  path: string;
  restPort: number;
  topics: readonly string[];
  boardsPerGuild: number;
  /** Per guild: its API keys (board b uses keys[floor(b / boardsPerKey)], writes use keys[0]) and its units. */
  guilds: { keys: string[]; callsigns: string[] }[];
  boardsPerKey: number;
  /** Status codes a write cycles through (none sets off an alarm; consecutive ones differ). */
  statuses: string[];
  writeIntervalMs: number;
  connectTimeoutMs: number;
  concurrency: number;
}

export interface GuildsConnectResult { ready: number; ms: number; problems: string[] }

export interface GuildsLoadReport {
  /** Writes answered 2xx between mark and stop, failed ones, and ticks skipped because the guild's last write had no answer yet. */
  writes: number;
  failedWrites: number;
  skippedWrites: number;
  /** Delta frames received between t0 and tEnd (receive time). */
  deliveriesInWindow: number;
  /** Deliveries of the window's writes that no board got (after the drain). */
  missing: number;
  /** Per delivery of a window write, ms: from the write's answer (negative: the board had it first) and from its sending. */
  fromAnswer: { p50: number; p99: number };
  fromSend: { p50: number; p99: number };
  /** REST round trip of the window's writes, ms. */
  writeMs: { p50: number; p99: number };
  gaps: number;
  duplicates: number;
  noSnapshot: number;
  /** Deltas that matched no write (none expected). */
  unmatched: number;
  closed: number;
  problems: string[];
}

const job = JSON.parse(process.argv[2]) as GuildsLoadJob;
const G = job.guilds.length;
const B = job.boardsPerGuild;
const N = G * B;
const nowNs = () => Number(process.hrtime.bigint());
const problems: string[] = [];
const problem = (what: string) => {
  if (problems.length < 8) problems.push(what);
};

// ---- writes -----------------------------------------------------------------------------------
interface Write { callsign: string; status: string; sentNs: number; answerNs: number; ok: boolean; boards: number }
const writes: Write[][] = job.guilds.map(() => []);
const inFlight = new Uint8Array(G);
let skipped = 0;
let windowT0 = Infinity;
let stopped = false;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const timers: NodeJS.Timeout[] = [];

function writeOnce(g: number): void {
  if (stopped) return;
  if (inFlight[g]) {
    if (nowNs() >= windowT0) skipped++;
    return;
  }
  const { keys, callsigns } = job.guilds[g];
  const n = writes[g].length;
  const callsign = callsigns[n % callsigns.length];
  const status = job.statuses[Math.floor(n / callsigns.length) % job.statuses.length];
  const w: Write = { callsign, status, sentNs: nowNs(), answerNs: 0, ok: false, boards: 0 };
  writes[g].push(w);
  inFlight[g] = 1;
  const body = JSON.stringify({ status });
  const req = request({
    agent, host: '127.0.0.1', port: job.restPort, method: 'PUT', path: `/api/v1/units/${encodeURIComponent(callsign)}/status`,
    headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      w.answerNs = nowNs();
      w.ok = res.statusCode! >= 200 && res.statusCode! < 300;
      if (!w.ok) problem(`guild ${g}: PUT ${callsign} ${status}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`);
      inFlight[g] = 0;
    });
  });
  req.on('error', (err) => {
    w.answerNs = nowNs();
    problem(`guild ${g}: PUT ${callsign}: ${err.message}`);
    inFlight[g] = 0;
  });
  req.end(body);
}

// ---- boards ---------------------------------------------------------------------------------------
const Stage = { Connecting: 0, Started: 1, Live: 2, Failed: 3, Closed: 4 } as const;
const stage = new Uint8Array(N);
const lastSeq = new Float64Array(N).fill(-1);
/** Per board: index of the newest write of its guild it got. */
const gotWrite = new Int32Array(N).fill(-1);
const sockets: (WebSocket | undefined)[] = new Array(N);
let ready = 0, failed = 0, closed = 0, gaps = 0, duplicates = 0, noSnapshot = 0, unmatched = 0;
let closing = false;

/** Delta receipts (ns) and, per matched delivery, its guild, write and receive time. */
let deltaTimes = new Float64Array(1 << 16);
let deltaCount = 0;
let matched = { guild: new Int32Array(1 << 16), write: new Int32Array(1 << 16), recv: new Float64Array(1 << 16) };
let matchedCount = 0;

function recordDelta(recv: number) {
  if (deltaCount === deltaTimes.length) {
    const bigger = new Float64Array(deltaTimes.length * 2);
    bigger.set(deltaTimes);
    deltaTimes = bigger;
  }
  deltaTimes[deltaCount++] = recv;
}

function recordMatch(g: number, w: number, recv: number) {
  if (matchedCount === matched.recv.length) {
    const n = matched.recv.length * 2;
    const grown = { guild: new Int32Array(n), write: new Int32Array(n), recv: new Float64Array(n) };
    grown.guild.set(matched.guild);
    grown.write.set(matched.write);
    grown.recv.set(matched.recv);
    matched = grown;
  }
  matched.guild[matchedCount] = g;
  matched.write[matchedCount] = w;
  matched.recv[matchedCount++] = recv;
}

type Frame = { kind: string; seq: number; prev: number | null; topics: Record<string, { op: string; key: string; value?: { status?: string } }[]> };

function onDelta(i: number, frame: Frame, recv: number) {
  recordDelta(recv);
  if (stage[i] !== Stage.Live) {
    noSnapshot++;
    problem(`board ${i}: delta ${frame.seq} before a snapshot`);
  }
  if (frame.seq <= lastSeq[i]) {
    duplicates++;
    return;
  }
  if (frame.prev === null || frame.prev > lastSeq[i]) {
    gaps++;
    problem(`board ${i}: gap: delta ${frame.seq} has prev ${frame.prev}, board had ${lastSeq[i]}`);
  }
  lastSeq[i] = frame.seq;
  const g = Math.floor(i / B);
  const list = writes[g];
  for (const op of frame.topics.units ?? []) {
    if ((op.op !== 'patch' && op.op !== 'upsert') || op.value?.status === undefined) continue; // a status change patches the unit
    let hit = -1;
    for (let w = list.length - 1; w > gotWrite[i] && w >= list.length - 16; w--) {
      if (list[w].callsign === op.key && list[w].status === op.value?.status) {
        hit = w;
        break;
      }
    }
    if (hit < 0) {
      unmatched++;
      continue;
    }
    gotWrite[i] = hit;
    list[hit].boards++;
    recordMatch(g, hit, recv);
  }
}

function onMessage(i: number, data: WebSocket.RawData) {
  const recv = nowNs();
  const msg = JSON.parse(data.toString()) as { result?: { type: string; data?: { json?: { data?: Frame } } }; error?: unknown };
  if (msg.result?.type === 'started') {
    if (stage[i] === Stage.Connecting) stage[i] = Stage.Started;
    return;
  }
  const frame = msg.result?.data?.json?.data;
  if (!frame || typeof frame.kind !== 'string') {
    problem(`board ${i}: unexpected frame: ${data.toString().slice(0, 300)}`);
    if (stage[i] < Stage.Live && stage[i] !== Stage.Failed) {
      stage[i] = Stage.Failed;
      failed++;
    }
    return;
  }
  if (frame.kind === 'snapshot') {
    if (stage[i] !== Stage.Live) ready++;
    if (stage[i] === Stage.Failed) failed--;
    stage[i] = Stage.Live;
    lastSeq[i] = frame.seq;
  } else if (frame.kind === 'delta') onDelta(i, frame, recv);
}

const subscribe = JSON.stringify({ id: 1, method: 'subscription', params: { path: 'live.watch', input: { json: { topics: job.topics } } } });

function openBoard(i: number, done: () => void): void {
  const g = Math.floor(i / B);
  const key = job.guilds[g].keys[Math.floor((i % B) / job.boardsPerKey)];
  const ws = new WebSocket(`ws://127.0.0.1:${job.port}${job.path}`, { perMessageDeflate: false });
  sockets[i] = ws;
  let settled = false;
  const settle = () => {
    if (!settled) {
      settled = true;
      done();
    }
  };
  ws.on('open', () => {
    ws.send(JSON.stringify({ method: 'connectionParams', data: { authorization: `Bearer ${key}` } }));
    ws.send(subscribe);
    settle();
  });
  ws.on('message', (data) => onMessage(i, data));
  ws.on('error', (err) => problem(`board ${i}: ${err.message}`));
  ws.on('close', (code) => {
    if (stage[i] !== Stage.Closed) {
      if (stage[i] === Stage.Live) ready--;
      if (stage[i] === Stage.Failed) failed--;
      stage[i] = Stage.Closed;
      closed++;
      if (!closing) problem(`board ${i}: closed by the server (${code})`);
    }
    settle();
  });
}

function connectAll(): Promise<GuildsConnectResult> {
  const start = performance.now();
  return new Promise((resolve) => {
    let opened = 0;
    let inFlightOpens = 0;
    const launch = () => {
      while (inFlightOpens < job.concurrency && opened < N) {
        inFlightOpens++;
        openBoard(opened++, () => {
          inFlightOpens--;
          launch();
        });
      }
    };
    launch();
    const poll = setInterval(() => {
      const allSettled = opened === N && inFlightOpens === 0 && ready + closed + failed >= N;
      if (allSettled || performance.now() - start > job.connectTimeoutMs) {
        clearInterval(poll);
        resolve({ ready, ms: performance.now() - start, problems: [...problems] });
      }
    }, 20);
  });
}

function percentiles(values: number[]): { p50: number; p99: number } {
  if (!values.length) return { p50: NaN, p99: NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99) };
}

serveIpc({
  connect: () => connectAll(),
  /** Starts every guild's writes, spread evenly over one interval. */
  writes: () => {
    for (let g = 0; g < G; g++) {
      timers.push(setTimeout(() => {
        writeOnce(g);
        timers.push(setInterval(() => writeOnce(g), job.writeIntervalMs));
      }, (g * job.writeIntervalMs) / G));
    }
  },
  /** The measured window starts now; answers its start (hrtime ns, decimal). */
  mark: () => {
    windowT0 = nowNs();
    return String(windowT0);
  },
  /** No more writes; resolves once every write has its answer. */
  stop: () => new Promise<void>((resolve) => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    const poll = setInterval(() => {
      if (inFlight.every((x) => x === 0)) {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  }),
  /** Resolves once every live board has its guild's last successful write, or after timeoutMs; answers {all, tEnd}. */
  drain: ({ timeoutMs }: { timeoutMs: number }) => new Promise<{ all: boolean; tEnd: string }>((resolve) => {
    const lastOk = writes.map((list) => list.findLastIndex((w) => w.ok));
    const until = performance.now() + timeoutMs;
    const poll = setInterval(() => {
      let all = true;
      for (let i = 0; i < N && all; i++) if (stage[i] === Stage.Live && gotWrite[i] < lastOk[Math.floor(i / B)]) all = false;
      if (all || performance.now() > until) {
        clearInterval(poll);
        resolve({ all, tEnd: String(nowNs()) });
      }
    }, 5);
  }),
  report: ({ t0, tEnd }: { t0: string; tEnd: string }): GuildsLoadReport => {
    const from = Number(t0);
    const to = Number(tEnd);
    let deliveriesInWindow = 0;
    for (let k = 0; k < deltaCount; k++) if (deltaTimes[k] >= from && deltaTimes[k] <= to) deliveriesInWindow++;
    const inWindow = (w: Write) => w.sentNs >= from;
    let count = 0, failedWrites = 0, missing = 0;
    const writeMs: number[] = [];
    const livePerGuild = new Array(G).fill(0);
    for (let i = 0; i < N; i++) if (stage[i] === Stage.Live) livePerGuild[Math.floor(i / B)]++;
    for (let g = 0; g < G; g++) {
      for (const w of writes[g]) {
        if (!inWindow(w)) continue;
        if (!w.ok) {
          failedWrites++;
          continue;
        }
        count++;
        writeMs.push((w.answerNs - w.sentNs) / 1e6);
        missing += Math.max(0, livePerGuild[g] - w.boards);
      }
    }
    const fromAnswer: number[] = [];
    const fromSend: number[] = [];
    for (let k = 0; k < matchedCount; k++) {
      const w = writes[matched.guild[k]][matched.write[k]];
      if (!inWindow(w) || !w.ok) continue;
      fromAnswer.push((matched.recv[k] - w.answerNs) / 1e6);
      fromSend.push((matched.recv[k] - w.sentNs) / 1e6);
    }
    return {
      writes: count, failedWrites, skippedWrites: skipped, deliveriesInWindow, missing,
      fromAnswer: percentiles(fromAnswer), fromSend: percentiles(fromSend), writeMs: percentiles(writeMs),
      gaps, duplicates, noSnapshot, unmatched, closed, problems: [...problems],
    };
  },
  close: () => {
    closing = true;
    for (const ws of sockets) ws?.terminate();
    agent.destroy();
  },
});

process.on('disconnect', () => process.exit(0)); // the bench is gone: so are we
