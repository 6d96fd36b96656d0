/**
 * The boards of `bench positions`, in a child process of their own (pinned to the load CPU): each
 * a raw WebSocket (positions-board.ts) on its node, reading the coalesced stream or the per-event
 * reference. Between `mark` and `unmark` it counts, per node, the data frames, their bytes and the
 * positions in them, and two ages per position: board receive time minus the server's `at`, and
 * minus the sender's stamp (the age since the PUT left the game side). Driven over IPC:
 *   connect {job} → mark → unmark → close
 */
import { serveIpc } from './ipc.ts';
import { countAge, newAges, packAges } from './positions-ages.ts';
import { openPositionsBoard, type BoardStream, type PositionsBoard } from './positions-board.ts';

export interface BoardsJob {
  stream: BoardStream;
  intervalMs: number;
  /** One entry per board: the node's port, its index, the guild's key. */
  boards: { port: number; node: number; key: string }[];
  nodes: number;
  concurrency: number;
  connectTimeoutMs: number;
}

export interface BoardsWindow {
  ms: number;
  framesByNode: number[];
  bytesByNode: number[];
  positionsByNode: number[];
  /** Packed histograms (positions-ages.ts) per node. */
  agesByNode: [number, number][][];
  sentAgesByNode: [number, number][][];
  closed: number;
  problems: string[];
}

let job: BoardsJob;
const problems: string[] = [];
const problem = (what: string) => {
  if (problems.length < 8) problems.push(what);
};
const boards: PositionsBoard[] = [];
let counting = false;
let t0 = 0;
const perNode = () => Array.from({ length: job.nodes }, () => 0);
let frames: number[] = [];
let bytes: number[] = [];
let positions: number[] = [];
let ages: number[][] = [];
let sentAges: number[][] = [];

/** The job comes over IPC (too large for argv at thousands of boards). */
function connect(given: BoardsJob): Promise<{ ready: number; total: number; ms: number; problems: string[] }> {
  job = given;
  const start = performance.now();
  return new Promise((resolve) => {
    let next = 0;
    let inFlight = 0;
    const launch = () => {
      while (inFlight < job.concurrency && next < job.boards.length) {
        const b = job.boards[next++];
        inFlight++;
        boards.push(openPositionsBoard({
          port: b.port, apiKey: b.key, stream: job.stream, intervalMs: job.intervalMs,
          onFrame(n, count) {
            if (!counting) return;
            frames[b.node]++;
            bytes[b.node] += n;
            positions[b.node] += count;
          },
          onPosition(at, sentMod) {
            if (!counting) return;
            const now = Date.now();
            countAge(ages[b.node], now - at);
            countAge(sentAges[b.node], (((now % 10_000) - sentMod) + 10_000) % 10_000);
          },
          onProblem: (p) => problem(`node ${b.node}: ${p}`),
          onSettled() {
            inFlight--;
            launch();
          },
        }));
      }
    };
    launch();
    const poll = setInterval(() => {
      const live = boards.filter((x) => x.live).length;
      const gone = boards.filter((x) => x.closed).length;
      if ((next === job.boards.length && live + gone >= job.boards.length) || performance.now() > start + job.connectTimeoutMs) {
        clearInterval(poll);
        resolve({ ready: live, total: job.boards.length, ms: performance.now() - start, problems: [...problems] });
      }
    }, 20);
  });
}

serveIpc({
  connect,
  mark() {
    frames = perNode();
    bytes = perNode();
    positions = perNode();
    ages = Array.from({ length: job.nodes }, newAges);
    sentAges = Array.from({ length: job.nodes }, newAges);
    t0 = performance.now();
    counting = true;
  },
  unmark(): BoardsWindow {
    counting = false;
    return {
      ms: performance.now() - t0, framesByNode: frames, bytesByNode: bytes, positionsByNode: positions,
      agesByNode: ages.map(packAges), sentAgesByNode: sentAges.map(packAges),
      closed: boards.filter((x) => x.closed).length, problems: [...problems],
    };
  },
  close() {
    for (const b of boards) b.close();
    setTimeout(() => process.exit(0), 50);
  },
});
process.on('disconnect', () => process.exit(0));
