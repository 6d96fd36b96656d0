/**
 * `npm run bench -- positions [--guilds 200] [--units 50] [--boards 20] [--nodes 2] [--minutes 5]
 *                             [--seconds s] [--reference-seconds 60] [--ingest 15] [--warmup 10]
 *                             [--interval 1000] [--slot 500] [--per position|put] [--connections 48]`
 *
 * Unit positions from the game to the boards' maps (issue 31): G guilds × U units at 1 Hz (G·U
 * position updates/s in) × B boards per guild, through the real server (startServer, from the
 * sources as the other benches run it) pinned to CPU 0; the load generator — the PUT senders
 * (positions-senders.ts) and the boards (positions-boards.ts), each a child process — on CPU 1.
 * Input: the real HTTP PUT /api/v1/integrations/ingame/positions with a key scoped to it; a
 * guild's resource batches as the shipped FiveM resource does: every `slot` ms (500) one PUT with
 * the units whose 1 Hz tick fell into that slot (U/2 positions per PUT, 2·G PUTs/s). Every phase
 * gets exactly the same input.
 * Phases, each with fresh nodes on the same data:
 *   per-event — the reference: the same server and PUTs, boards on `live.watch` units, and each
 *               accepted position update an event of the guild's stream, sent by the hub's
 *               serialize-once fan-out (positions-event-bus.ts, passed through startServer's `bus`
 *               option; `--per put`: one event per PUT); `--reference-seconds` long;
 *   coalesced — the product: boards on `live.positions` (one frame per interval with what moved);
 *               `--minutes` long, its heap after GC before and after (memory flat) and RSS every 5 s;
 *   two nodes — (`--nodes 2`) coalesced on two nodes with Redis: PUTs to node A, every other board
 *               of each guild on node B; `--reference-seconds` long.
 * Per phase: the PUTs start, the boards join, `--warmup`, then the measured window: server CPU per second (/proc), frames
 * and bytes the boards received per second, position age on the boards p50/p99 (receive time minus
 * the position's `at`, one machine clock; and since the PUT left), server RSS every 5 s, the load
 * generator's own CPU; after it, the boards leave and the same PUTs run on alone for `--ingest` s
 * (the server CPU of taking positions in, which both sides pay alike). Targets (PASS / MISSED; exit code 0 either way): frames per-event/coalesced
 * ≥ 10×, server CPU per-event/coalesced ≥ 5× (total, and the delivery alone: minus the ingest
 * CPU), age p99 ≤ 1.5 s (one node, and node B of two), RSS flat over the coalesced window.
 */
import { parseArgs } from 'node:util';
import { whole } from './lib/args.ts';
import { benchDatabase } from './lib/db.ts';
import { ipcPeer } from './lib/ipc.ts';
import { benchRun, canPin, cpuMsOf, openFileLimits, settled, spawnNode, systemBusyMs, type BenchChild } from './lib/procs.ts';
import { startRedisServer } from './lib/redis-server.ts';
import { rssMb } from './lib/start-procs.ts';
import type { BoardsJob, BoardsWindow } from './lib/positions-boards.ts';
import { printPositions, type PhaseFigures, type PositionsOptions } from './lib/positions-report.ts';
import { seedPositionsGuilds, type PositionsGuild } from './lib/positions-seed.ts';
import type { SendersJob, SendersWindow } from './lib/positions-senders.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const SAMPLE_MS = 5_000;

interface ServerStats { delivery: { frames: number; skipped: number; subscriptions: number }; positions: { received: number }; referenceEvents: number }

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      guilds: { type: 'string', default: '200' },
      units: { type: 'string', default: '50' },
      boards: { type: 'string', default: '20' },
      nodes: { type: 'string', default: '2' },
      minutes: { type: 'string', default: '5' },
      seconds: { type: 'string' },
      'reference-seconds': { type: 'string', default: '60' },
      ingest: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '10' },
      interval: { type: 'string', default: '1000' },
      slot: { type: 'string', default: '500' },
      per: { type: 'string', default: 'position' },
      connections: { type: 'string', default: '48' },
    },
    strict: true,
  });
  if (values.per !== 'put' && values.per !== 'position') throw new Error(`--per: "${values.per}" must be put or position`);
  const seconds = values.seconds === undefined ? null : whole(values.seconds, 'seconds', 1, 3600);
  const o: PositionsOptions = {
    guilds: whole(values.guilds, 'guilds', 1, 2000),
    units: whole(values.units, 'units', 1, 500),
    boards: whole(values.boards, 'boards', 1, 100),
    nodes: whole(values.nodes, 'nodes', 1, 2),
    coalescedMs: (seconds ?? whole(values.minutes, 'minutes', 1, 60) * 60) * 1000,
    referenceMs: (seconds ?? whole(values['reference-seconds'], 'reference-seconds', 1, 3600)) * 1000,
    ingestMs: whole(values.ingest, 'ingest', 1, 600) * 1000,
    warmupMs: whole(values.warmup, 'warmup', 0, 600) * 1000,
    intervalMs: whole(values.interval, 'interval', 250, 10_000),
    slotMs: whole(values.slot, 'slot', 10, 1000),
    per: values.per,
    connections: whole(values.connections, 'connections', 1, 1000),
  };
  if (1000 % o.slotMs) throw new Error('--slot must divide 1000');
  const boards = o.guilds * o.boards;
  const limits = openFileLimits();
  if (limits.hard < boards + o.connections + 1024) throw new Error(`open-file limit too low: ${boards} boards need ${boards + o.connections + 1024}, hard limit is ${limits.hard}`);
  const nofile = Math.min(limits.hard, Math.max(boards + o.connections + 4096, 8192));

  const runCtl = benchRun();
  const redis = o.nodes > 1 ? await startRedisServer() : null;
  try {
    const t0 = performance.now();
    canPin();
    process.stdout.write(`bench positions: ${o.guilds} guilds x ${o.units} units at 1 Hz (${o.guilds * o.units} positions/s in) x ${o.boards} boards per guild (${boards} subscriptions); `
      + `PUTs batched per guild every ${o.slotMs} ms (${(o.guilds * 1000) / o.slotMs} PUTs/s, ~${(o.units * o.slotMs) / 1000} positions each); coalesced interval ${o.intervalMs} ms; `
      + `windows: per-event ${o.referenceMs / 1000} s, coalesced ${o.coalescedMs / 1000} s${o.nodes > 1 ? `, two nodes ${o.referenceMs / 1000} s` : ''}; server on CPU 0, load generator on CPU 1\n`);
    const db = runCtl.database(await benchDatabase());
    const guilds = await seedPositionsGuilds(db, o.guilds, o.units);
    process.stdout.write(`  seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const phases: { name: PhaseFigures['name']; mode: string; nodes: number; windowMs: number }[] = [
      { name: 'per-event', mode: o.per === 'put' ? 'per-put' : 'per-position', nodes: 1, windowMs: o.referenceMs },
      { name: 'coalesced', mode: 'coalesced', nodes: 1, windowMs: o.coalescedMs },
      ...(o.nodes > 1 ? [{ name: 'two nodes' as const, mode: 'coalesced', nodes: 2, windowMs: o.referenceMs }] : []),
    ];
    const results: PhaseFigures[] = [];
    for (const p of phases) {
      const r = await measurePhase(p, o, db.url, redis?.url ?? null, guilds, nofile, runCtl);
      results.push(r);
      process.stdout.write(`  ${p.name}: ${r.error ? `FAILED: ${r.error}` : `${(r.serverCpuMs / r.windowMs * 1000).toFixed(0)} ms server CPU/s, ${(r.frames / r.windowMs * 1000).toFixed(0)} frames/s on the boards`}\n`);
    }
    printPositions(o, results);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await runCtl.close();
    await redis?.close();
  }
}

async function measurePhase(
  p: { name: PhaseFigures['name']; mode: string; nodes: number; windowMs: number }, o: PositionsOptions, databaseUrl: string,
  redisUrl: string | null, guilds: PositionsGuild[], nofile: number, runCtl: ReturnType<typeof benchRun>,
): Promise<PhaseFigures> {
  const r: PhaseFigures = {
    name: p.name, nodes: p.nodes, windowMs: p.windowMs, ingestCpuMs: 0, ingestMs: 0, serverCpuMs: 0, serverCpuByNode: [], framesByNode: [], bytesByNode: [],
    frames: 0, positions: 0, agesByNode: [], sentAgesByNode: [], rss: [], heapMb: { first: [], last: [] }, boardsCpuMs: 0, sendersCpuMs: 0, boxBusyMs: 0, closed: 0, problems: [],
    serverFrames: 0, skipped: 0, referenceEvents: 0,
  };
  const servers: BenchChild[] = [];
  const children: BenchChild[] = [];
  try {
    for (let i = 0; i < p.nodes; i++) {
      servers.push(runCtl.started(spawnNode(file('./lib/positions-server.ts'), {
        cpu: 0, nofile, ipc: true, args: [p.mode], nodeArgs: ['--expose-gc'], env: { BENCH_DATABASE_URL: databaseUrl, ...(p.nodes > 1 && redisUrl ? { BENCH_REDIS_URL: redisUrl } : {}) },
      })));
    }
    const ports = await Promise.all(servers.map(async (s) => ((await s.firstMessage) as { port: number }).port));
    await settled(servers.map((s) => s.pid), { maxMs: 30_000 });
    const peers = servers.map((s, i) => ipcPeer(s.proc, `node ${i}`));
    const serverCpu = () => servers.map((s) => cpuMsOf(s.pid));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

    const sendersJob: SendersJob = { port: ports[0], guilds: guilds.map((g) => ({ key: g.gameKey, callsigns: g.callsigns })), slotMs: o.slotMs, connections: o.connections, maxQueue: 5000 };
    const sendersChild = runCtl.started(spawnNode(file('./lib/positions-senders.ts'), { cpu: 1, ipc: true, nofile }));
    children.push(sendersChild);
    const senders = ipcPeer(sendersChild.proc, 'PUT senders');
    await senders.call('start', sendersJob);
    const boardsJob: BoardsJob = {
      stream: p.mode === 'coalesced' ? 'coalesced' : 'per-event', intervalMs: o.intervalMs, nodes: p.nodes, concurrency: 200, connectTimeoutMs: 180_000,
      boards: guilds.flatMap((g) => Array.from({ length: o.boards }, (_, k) => ({ port: ports[k % p.nodes], node: k % p.nodes, key: g.boardKey }))),
    };
    const boardsChild = runCtl.started(spawnNode(file('./lib/positions-boards.ts'), { cpu: 1, ipc: true, nofile }));
    children.push(boardsChild);
    const boardsPeer = ipcPeer(boardsChild.proc, 'boards');
    const connected = await boardsPeer.call<{ ready: number; total: number; ms: number; problems: string[] }>('connect', boardsJob, boardsJob.connectTimeoutMs + 10_000);
    if (connected.ready < connected.total) throw new Error(`only ${connected.ready} of ${connected.total} boards live after ${Math.round(connected.ms)} ms: ${connected.problems.slice(0, 3).join('; ')}`);
    r.connectMs = connected.ms;
    await new Promise((res) => setTimeout(res, o.warmupMs));

    r.heapMb.first = await Promise.all(peers.map((x) => x.call<number>('heapAfterGc')));
    const stats0 = await Promise.all(peers.map((x) => x.call<ServerStats>('stats')));
    const cpu0 = serverCpu();
    const boards0 = cpuMsOf(boardsChild.pid);
    const senders0 = cpuMsOf(sendersChild.pid);
    const box0 = systemBusyMs();
    const w0 = performance.now();
    await Promise.all([boardsPeer.call('mark'), senders.call('mark')]);
    r.rss.push({ s: 0, mb: servers.map((s) => rssMb(s.pid)) });
    for (let next = SAMPLE_MS; next <= p.windowMs; next += SAMPLE_MS) {
      await new Promise((res) => setTimeout(res, Math.max(0, w0 + next - performance.now())));
      r.rss.push({ s: next / 1000, mb: servers.map((s) => rssMb(s.pid)) });
    }
    await new Promise((res) => setTimeout(res, Math.max(0, w0 + p.windowMs - performance.now())));
    const [win, puts] = await Promise.all([boardsPeer.call<BoardsWindow>('unmark'), senders.call<SendersWindow>('unmark')]);
    const cpu1 = serverCpu();
    r.windowMs = performance.now() - w0;
    r.boardsCpuMs = cpuMsOf(boardsChild.pid) - boards0;
    r.sendersCpuMs = cpuMsOf(sendersChild.pid) - senders0;
    r.boxBusyMs = systemBusyMs() - box0;
    const stats1 = await Promise.all(peers.map((x) => x.call<ServerStats>('stats')));
    r.heapMb.last = await Promise.all(peers.map((x) => x.call<number>('heapAfterGc')));
    r.serverCpuByNode = cpu1.map((c, i) => c - cpu0[i]);
    r.serverCpuMs = sum(r.serverCpuByNode);
    r.framesByNode = win.framesByNode;
    r.bytesByNode = win.bytesByNode;
    r.frames = sum(win.framesByNode);
    r.positions = sum(win.positionsByNode);
    r.agesByNode = win.agesByNode;
    r.sentAgesByNode = win.sentAgesByNode;
    r.closed = win.closed;
    r.puts = puts;
    r.serverFrames = sum(stats1.map((s, i) => s.delivery.frames - stats0[i].delivery.frames));
    r.skipped = sum(stats1.map((s, i) => s.delivery.skipped - stats0[i].delivery.skipped));
    r.referenceEvents = sum(stats1.map((s, i) => s.referenceEvents - stats0[i].referenceEvents));
    r.problems = [...win.problems, ...puts.problems];
    // The ingest alone: the same PUTs with the boards gone, on the same warm process (measured
    // before the boards joined, it also counted the server's own warm-up).
    await boardsPeer.call('close').catch(() => {});
    await new Promise((res) => setTimeout(res, 2000));
    const ingest0 = sum(serverCpu());
    const ingestT0 = performance.now();
    await senders.call('mark');
    await new Promise((res) => setTimeout(res, o.ingestMs));
    r.ingestPuts = await senders.call<SendersWindow>('unmark');
    r.ingestCpuMs = sum(serverCpu()) - ingest0;
    r.ingestMs = performance.now() - ingestT0;
    await senders.call('stop', undefined, 20_000);
  } catch (err) {
    r.error = (err as Error).message;
    for (const s of [...servers, ...children]) if (s.stderr.length) r.problems.push(...s.stderr.slice(-3));
  } finally {
    for (const c of children) await runCtl.stopped(c);
    for (const s of servers) await runCtl.stopped(s);
  }
  return r;
}
