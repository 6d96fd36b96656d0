/**
 * The game side of `bench positions`, in a child process of its own (pinned to the load CPU): per
 * guild, U units whose positions change at 1 Hz, each unit at its own phase within the second
 * (seeded, the same in every phase of the run). Grouping: a guild's resource batches at 10 Hz
 * (`slotMs` 100): every 100 ms it sends one PUT /integrations/ingame/positions with the units whose
 * tick fell into that slot (about U/10 each; guilds' slots staggered). Requests go over `connections` keep-alive
 * sockets to one node, one in flight per socket; a PUT that finds none free waits in a queue.
 * Each position's `z` carries the send time (ms mod 10 s), so boards can tell the age since the
 * PUT left. Driven over IPC: start {job} → mark → unmark → stop.
 */
import { connect, type Socket } from 'node:net';
import { serveIpc } from './ipc.ts';

export interface SendersJob {
  port: number;
  guilds: { key: string; callsigns: string[] }[];
  slotMs: number;
  connections: number;
  /** PUTs waiting beyond this are dropped and counted (a server that cannot keep up). */
  maxQueue: number;
}

export interface SendersWindow {
  ms: number;
  puts: number;
  positions: number;
  errors: number;
  dropped: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  maxQueue: number;
  problems: string[];
}

let job: SendersJob;
const PATH = '/api/v1/integrations/ingame/positions';
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
let slots = 10;
const problems: string[] = [];
const problem = (what: string) => {
  if (problems.length < 8) problems.push(what);
};

/** A seeded generator (mulberry32): the same phases and paths in every phase of the run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Unit { callsign: string; x: number; y: number; heading: number; speed: number }
let guilds: { key: string; bySlot: Unit[][]; offsetMs: number; next: number }[] = [];
const rnd = random(31);

function setUp(given: SendersJob): void {
  job = given;
  slots = Math.round(1000 / job.slotMs);
  guilds = job.guilds.map((g, gi) => {
    const units: Unit[] = g.callsigns.map((callsign) => ({ callsign, x: rnd() * 8000 - 4000, y: rnd() * 8000 - 2000, heading: rnd() * 360, speed: rnd() * 30 }));
    const bySlot: Unit[][] = Array.from({ length: slots }, () => []);
    for (const u of units) bySlot[Math.floor(rnd() * slots)].push(u);
    return { key: g.key, bySlot, offsetMs: (gi * job.slotMs) / job.guilds.length, next: 0 };
  });
}

const round = (v: number) => Math.round(v * 100) / 100;
function move(u: Unit): void {
  u.heading = (u.heading + rnd() * 20 - 10 + 360) % 360;
  u.speed = Math.max(0, Math.min(60, u.speed + rnd() * 4 - 2));
  const rad = (u.heading * Math.PI) / 180;
  u.x = Math.max(-4000, Math.min(4000, u.x + Math.sin(rad) * u.speed));
  u.y = Math.max(-4000, Math.min(8000, u.y + Math.cos(rad) * u.speed));
}

function request(key: string, units: Unit[]): Buffer {
  const z = Date.now() % 10_000;
  const body = JSON.stringify({ positions: units.map((u) => ({ callsign: u.callsign, x: round(u.x), y: round(u.y), z, heading: round(u.heading), speed: round(u.speed) })) });
  return Buffer.from(`PUT ${PATH} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\nAuthorization: Bearer ${key}\r\n`
    + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

// ---- connections -------------------------------------------------------------------------------
interface Conn { socket: Socket; busy: boolean; sentAt: number; counted: boolean; buf: Buffer | null; positions: number }
const queue: { bytes: Buffer; positions: number; at: number }[] = [];
const conns: Conn[] = [];
let counting = false;
let stopping = false;
let w = { t0: 0, puts: 0, positions: 0, errors: 0, dropped: 0, maxQueue: 0, latencies: [] as number[] };

function pump(c: Conn): void {
  const next = queue.shift();
  if (!next) return;
  c.busy = true;
  c.sentAt = next.at;
  c.counted = counting;
  c.positions = next.positions;
  c.socket.write(next.bytes);
}

function answered(c: Conn, status: number, body: string): void {
  c.busy = false;
  if (c.counted && counting) {
    w.latencies.push(performance.now() - c.sentAt);
    if (status === 200) {
      w.puts++;
      w.positions += c.positions;
    } else w.errors++;
  }
  if (status !== 200) problem(`PUT answered ${status}: ${body.slice(0, 200)}`);
  else if (!body.includes('"unknown":[]')) problem(`PUT named unknown callsigns: ${body.slice(0, 200)}`);
  pump(c);
}

/** One keep-alive connection; one that the server closes (idle timeout) is replaced, and a PUT it had in flight counts as an error. */
function openOne(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: job.port, noDelay: true });
    const c: Conn = { socket, busy: false, sentAt: 0, counted: false, buf: null, positions: 0 };
    socket.once('connect', () => {
      conns.push(c);
      resolve();
      pump(c);
    });
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      let data = c.buf ? Buffer.concat([c.buf, chunk]) : chunk;
      c.buf = null;
      for (;;) {
        const end = data.indexOf(HEADER_END);
        if (end < 0) break;
        const head = data.toString('latin1', 0, end);
        const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
        if (data.length < end + 4 + length) break;
        answered(c, Number(head.slice(9, 12)), data.toString('utf8', end + 4, end + 4 + length));
        data = data.subarray(end + 4 + length);
      }
      if (data.length) c.buf = Buffer.from(data);
    });
    socket.on('close', () => {
      const at = conns.indexOf(c);
      if (at >= 0) conns.splice(at, 1);
      if (stopping) return;
      if (c.busy) {
        if (c.counted && counting) w.errors++;
        problem('a PUT connection was closed with a request in flight');
      }
      openOne().catch((err) => problem(`reconnecting: ${(err as Error).message}`));
    });
  });
}

function open(): Promise<void> {
  return Promise.all(Array.from({ length: job.connections }, openOne)).then(() => {});
}

function send(key: string, units: Unit[]): void {
  if (!units.length) return;
  for (const u of units) move(u);
  if (queue.length >= job.maxQueue) {
    if (counting) w.dropped++;
    return;
  }
  queue.push({ bytes: request(key, units), positions: units.length, at: performance.now() });
  if (counting) w.maxQueue = Math.max(w.maxQueue, queue.length);
  const free = conns.find((c) => !c.busy);
  if (free) pump(free);
}

// ---- the 10 Hz batches -------------------------------------------------------------------------
let timer: NodeJS.Timeout | null = null;
function start(): void {
  const t0 = performance.now();
  timer = setInterval(() => {
    const now = performance.now() - t0;
    for (const g of guilds) {
      for (const due = Math.floor((now - g.offsetMs) / job.slotMs); g.next <= due; g.next++) send(g.key, g.bySlot[g.next % slots]);
    }
  }, 5);
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
}

serveIpc({
  /** The job comes over IPC (too large for argv at hundreds of guilds). */
  async start(given: SendersJob) {
    setUp(given);
    await open();
    start();
  },
  mark() {
    w = { t0: performance.now(), puts: 0, positions: 0, errors: 0, dropped: 0, maxQueue: 0, latencies: [] };
    counting = true;
  },
  unmark(): SendersWindow {
    counting = false;
    const sorted = w.latencies.sort((a, b) => a - b);
    return {
      ms: performance.now() - w.t0, puts: w.puts, positions: w.positions, errors: w.errors, dropped: w.dropped,
      latencyP50Ms: percentile(sorted, 0.5), latencyP99Ms: percentile(sorted, 0.99), maxQueue: w.maxQueue, problems: [...problems],
    };
  },
  async stop() {
    stopping = true;
    if (timer) clearInterval(timer);
    timer = null;
    queue.length = 0;
    for (const until = performance.now() + 10_000; conns.some((c) => c.busy) && performance.now() < until;) await new Promise((r) => setTimeout(r, 10));
    for (const c of conns) c.socket.destroy();
  },
});
process.on('disconnect', () => process.exit(0));
