/**
 * The load generator of `bench scale`: every guild's boards on their nodes (raw WebSockets with
 * bench/lib/raw-board.ts, one `live.watch` each), and REST writes — unit status changes with the
 * guild's key — at one per guild per `writeIntervalMs`, spread over all nodes (a guild's successive
 * writes go to nodes g, g+1, g+2, …, so every node takes 1/N of the writes and most of a served
 * guild's events reach its node through Redis) or, with `affine`, to the guild's home node. Per board it checks the stream (snapshot first, no
 * gap, nothing twice); per node it counts the distinct events its boards got in the window.
 * Driven over IPC by the bench:
 *   connect → writes {on} → mark → unmark → writes {off} → drain {heads} → report → close
 */
import { Agent, request } from 'node:http';
import { openRawBoard, type RawBoard } from '../lib/raw-board.ts';
import { serveIpc } from '../lib/ipc.ts';

export interface ScaleGuild {
  id: string;
  key: string;
  callsigns: string[];
  /** Boards of this guild per node index (0 where the guild has none). */
  boards: number[];
}

export interface ScaleLoadJob {
  ports: number[];
  guilds: ScaleGuild[];
  topics: string[];
  writeIntervalMs: number;
  connectTimeoutMs: number;
  /** Handshakes in flight at once. */
  concurrency: number;
  /** Writes in flight per node at most; a write due beyond it is skipped and counted. */
  inFlightPerNode: number;
  /** `spread`: a guild's writes go to every node in turn; `affine`: to the guild's home node, as nginx routes a request naming its guild. */
  writes: 'spread' | 'affine';
}

export interface ScaleWindow {
  ms: number;
  /** Writes answered 200 in the window, per node they were sent to. */
  writesByNode: number[];
  /** Distinct events (guild, seq) the node's boards received in the window. */
  eventsSeenByNode: number[];
  /** Delta frames the node's boards received in the window (deliveries). */
  deliveriesByNode: number[];
  /** Writes answered 200 in the window, per guild. */
  writesByGuild: Record<string, number>;
}

export interface ScaleLoadReport {
  boards: number;
  gaps: number;
  duplicates: number;
  noSnapshot: number;
  closed: number;
  writes: number;
  writeErrors: number;
  skipped: number;
  writeP50Ms: number;
  writeP99Ms: number;
  problems: string[];
  /** This process's CPU from `mark` to `unmark`, ms. */
  cpuMs: number;
}

/** The FMS cycle a unit goes through (starting from status 2, each step differs from the one before). */
const CYCLE = ['3', '4', '7', '8', '1', '2'];

const job = JSON.parse(process.argv[2]) as ScaleLoadJob;
const N = job.ports.length;
const problems: string[] = [];
const problem = (what: string) => {
  if (problems.length < 8) problems.push(what);
};

// ---- boards ------------------------------------------------------------------------------------
const boards: { board: RawBoard; guild: number; node: number }[] = [];
let inWindow = false;
const seenByNode = Array.from({ length: N }, () => new Set<string>());
const deliveriesByNode = new Array<number>(N).fill(0);

function onDelta(node: number, guild: number, seq: number): void {
  if (!inWindow) return;
  deliveriesByNode[node]++;
  seenByNode[node].add(`${guild}:${seq}`);
}

function connectAll(): Promise<{ ready: number; total: number; ms: number; problems: string[] }> {
  const start = performance.now();
  const todo: { guild: number; node: number }[] = [];
  job.guilds.forEach((g, gi) => g.boards.forEach((count, node) => {
    for (let k = 0; k < count; k++) todo.push({ guild: gi, node });
  }));
  return new Promise((resolve) => {
    let next = 0;
    let inFlight = 0;
    const launch = () => {
      while (inFlight < job.concurrency && next < todo.length) {
        const { guild, node } = todo[next++];
        inFlight++;
        const board = openRawBoard({
          port: job.ports[node], apiKey: job.guilds[guild].key, topics: job.topics,
          onDelta: (seq) => onDelta(node, guild, seq), onProblem: (p) => problem(`node ${node} guild ${job.guilds[guild].id}: ${p}`),
          onSettled: () => {
            inFlight--;
            launch();
          },
        });
        boards.push({ board, guild, node });
      }
    };
    launch();
    const poll = setInterval(() => {
      const live = boards.filter((b) => b.board.live).length;
      const failed = boards.filter((b) => b.board.failed || b.board.closed).length;
      if ((next === todo.length && live + failed >= todo.length) || performance.now() > start + job.connectTimeoutMs) {
        clearInterval(poll);
        resolve({ ready: live, total: todo.length, ms: performance.now() - start, problems: [...problems] });
      }
    }, 20);
  });
}

// ---- writes ------------------------------------------------------------------------------------
const agents = job.ports.map(() => new Agent({ keepAlive: true, maxSockets: job.inFlightPerNode }));
const inFlight = new Array<number>(N).fill(0);
const unitWrites = job.guilds.map((g) => new Array<number>(g.callsigns.length).fill(0));
const writesByNode = new Array<number>(N).fill(0);
const writesByGuild = new Map<string, number>();
let writes = 0;
let writeErrors = 0;
let skipped = 0;
const writeMs: number[] = [];
let k = 0;
let writing: NodeJS.Timeout | null = null;
let writesT0 = 0;

function put(node: number, gi: number): void {
  const g = job.guilds[gi];
  const unit = Math.floor(k / job.guilds.length) % g.callsigns.length;
  if (inFlight[node] >= job.inFlightPerNode) {
    skipped++;
    return;
  }
  const status = CYCLE[unitWrites[gi][unit]++ % CYCLE.length];
  const body = JSON.stringify({ status });
  const counted = inWindow;
  const t = performance.now();
  inFlight[node]++;
  const req = request({
    host: '127.0.0.1', port: job.ports[node], method: 'PUT', agent: agents[node],
    path: `/api/v1/units/${encodeURIComponent(g.callsigns[unit])}/status`,
    headers: { authorization: `Bearer ${g.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  }, (res) => {
    res.resume();
    res.once('end', () => {
      inFlight[node]--;
      writeMs.push(performance.now() - t);
      if (res.statusCode !== 200) {
        writeErrors++;
        problem(`PUT status on node ${node} answered ${res.statusCode}`);
        return;
      }
      writes++;
      if (counted && inWindow) {
        writesByNode[node]++;
        writesByGuild.set(g.id, (writesByGuild.get(g.id) ?? 0) + 1);
      }
    });
  });
  req.once('error', (err) => {
    inFlight[node]--;
    writeErrors++;
    problem(`PUT status on node ${node}: ${err.message}`);
  });
  req.end(body);
}

/**
 * Write k is guild k mod G's; spread: a guild's successive writes go to nodes g, g+1, … (every node
 * takes 1/N of all writes); affine: to the first node that has the guild's boards.
 */
function startWrites(): void {
  writesT0 = performance.now();
  const every = job.writeIntervalMs / job.guilds.length;
  writing = setInterval(() => {
    const due = Math.floor((performance.now() - writesT0) / every);
    for (; k < due; k++) {
      const gi = k % job.guilds.length;
      put(job.writes === 'affine' ? job.guilds[gi].boards.findIndex((b) => b > 0) : (gi + Math.floor(k / job.guilds.length)) % N, gi);
    }
  }, 5);
}

async function stopWrites(): Promise<void> {
  if (writing) clearInterval(writing);
  writing = null;
  for (const until = performance.now() + 30_000; inFlight.some((n) => n > 0) && performance.now() < until;) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---- the window and the end --------------------------------------------------------------------
let windowStart = 0;
let windowMs = 0;
let cpuMark = process.cpuUsage();
let cpuMs = 0;

function percentile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

serveIpc({
  connect: () => connectAll(),
  writes: ({ on }: { on: boolean }) => (on ? startWrites() : stopWrites()),
  mark: () => {
    inWindow = true;
    windowStart = performance.now();
    cpuMark = process.cpuUsage();
  },
  unmark: (): ScaleWindow => {
    inWindow = false;
    windowMs = performance.now() - windowStart;
    const used = process.cpuUsage(cpuMark);
    cpuMs = (used.user + used.system) / 1000;
    return {
      ms: windowMs, writesByNode: [...writesByNode], eventsSeenByNode: seenByNode.map((s) => s.size),
      deliveriesByNode: [...deliveriesByNode], writesByGuild: Object.fromEntries(writesByGuild),
    };
  },
  /** Resolves once every live board has its guild's head (`heads`: guild id → seq), or after `timeoutMs`; the boards still behind. */
  drain: ({ heads, timeoutMs }: { heads: Record<string, number>; timeoutMs: number }) => new Promise<number>((resolve) => {
    const until = performance.now() + timeoutMs;
    const behind = () => boards.filter((b) => b.board.live && b.board.lastSeq < (heads[job.guilds[b.guild].id] ?? 0)).length;
    const poll = setInterval(() => {
      const n = behind();
      if (n === 0 || performance.now() > until) {
        clearInterval(poll);
        resolve(n);
      }
    }, 20);
  }),
  report: (): ScaleLoadReport => {
    let gaps = 0;
    let duplicates = 0;
    let noSnapshot = 0;
    let closed = 0;
    for (const { board } of boards) {
      gaps += board.gaps;
      duplicates += board.duplicates;
      noSnapshot += board.noSnapshot;
      if (board.closed) closed++;
    }
    return {
      boards: boards.length, gaps, duplicates, noSnapshot, closed, writes, writeErrors, skipped,
      writeP50Ms: percentile(writeMs, 0.5), writeP99Ms: percentile(writeMs, 0.99), problems: [...problems], cpuMs,
    };
  },
  close: () => {
    for (const { board } of boards) board.close();
    for (const a of agents) a.destroy();
  },
});

process.on('disconnect', () => process.exit(0)); // the bench is gone: so are we
