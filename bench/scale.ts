/**
 * `npm run bench -- scale [--nodes 4] [--guilds 400] [--boards-per-guild 10] [--shared 0.25]
 *                         [--write-interval 2000] [--writes spread|affine] [--warmup 5] [--duration 20]
 *                         [--phases single,broadcast,guild,postgres] [--pg-loops 16] [--pg-duration 10]`
 *
 * Scale-out on one machine: a real redis-server on loopback, the bench PostgreSQL, N server nodes
 * (separate processes, all pinned to CPU 0; the load generator on CPU 1), G guilds with units and
 * an API key each. Each guild's boards (raw WebSockets, one `live.watch` each) sit on one node,
 * guild-affine (guild g on node g mod N; for `shared` of the guilds half of them on the next node
 * too); REST writes (unit status changes) at one per guild per `write-interval` go to all nodes in
 * turn (`--writes affine`: to the guild's home node, as nginx routes a request that names its
 * guild). Phases, each with fresh nodes on the same data:
 *   single    — the same load on one node (the product's bus): the reference for total CPU;
 *   broadcast — N nodes on the bus before issue 30 (bench/lib/broadcast-bus.ts: one channel that
 *               every node receives and parses), passed in through startServer's `bus` option;
 *   guild     — N nodes on the product's bus (a channel per guild, followed while served);
 *   postgres  — the status change through the service, in this process, no HTTP: what the
 *               single PostgreSQL takes at most on this box (writes/s, its CPU per write).
 * Per node: events received through Redis (`bus_events_received_total` from /metrics), the events
 * of the guilds it serves (writes of those guilds in the window; its boards' distinct events as a
 * check), CPU (/proc/<pid>/stat) per write, RSS. Targets (ok / MISSED; exit code 0 either way):
 * a node receives ≤ 1.2× the events of the guilds it serves; total CPU per write of N nodes ≤ 1.3×
 * that of one node.
 */
import { parseArgs } from 'node:util';
import { whole } from './lib/args.ts';
import { benchDatabase, type BenchDatabase } from './lib/db.ts';
import { benchRun, canPin, cpuMsOf, openFileLimits, postgresPids, settled, spawnNode, systemBusyMs, type BenchChild } from './lib/procs.ts';
import { redisCommandCounts, startRedisServer } from './lib/redis-server.ts';
import { measurePostgres } from './lib/scale-pg.ts';
import { printScale, type NodeFigures, type PhaseResult, type ScaleOptions } from './lib/scale-report.ts';
import { placeBoards, resetStatuses, seedGuilds, streamHeads, type ScaleSeeded } from './lib/scale-seed.ts';
import { rssMb } from './lib/start-procs.ts';
import type { ScaleLoadJob, ScaleLoadReport, ScaleWindow } from './load/scale.ts';
import { ipcPeer } from './lib/ipc.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const phases = ['single', 'broadcast', 'guild', 'postgres'] as const;
type Phase = (typeof phases)[number];
const METRICS_TOKEN = 'bench-scale-metrics-token';
const UNITS_PER_GUILD = 10;
const DRAIN_MS = 15_000;
const IDLE_MS = 3_000;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      nodes: { type: 'string', default: '4' },
      guilds: { type: 'string', default: '400' },
      'boards-per-guild': { type: 'string', default: '10' },
      shared: { type: 'string', default: '0.25' },
      'write-interval': { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '5' },
      duration: { type: 'string', default: '20' },
      phases: { type: 'string', default: phases.join(',') },
      writes: { type: 'string', default: 'spread' },
      'pg-loops': { type: 'string', default: '16' },
      'pg-duration': { type: 'string', default: '10' },
    },
    strict: true,
  });
  const shared = Number(values.shared);
  if (!(shared >= 0 && shared <= 1)) throw new Error(`--shared: "${values.shared}" must be a number from 0 to 1`);
  const o: ScaleOptions = {
    nodes: whole(values.nodes, 'nodes', 2, 16),
    guilds: whole(values.guilds, 'guilds', 1, 10_000),
    boardsPerGuild: whole(values['boards-per-guild'], 'boards-per-guild', 1, 20),
    shared,
    writeIntervalMs: whole(values['write-interval'], 'write-interval', 100, 600_000),
    warmupMs: whole(values.warmup, 'warmup', 0, 600) * 1000,
    durationMs: whole(values.duration, 'duration', 1, 3600) * 1000,
    pgLoops: whole(values['pg-loops'], 'pg-loops', 1, 64),
    pgDurationMs: whole(values['pg-duration'], 'pg-duration', 1, 600) * 1000,
    writes: 'spread',
  };
  if (values.writes !== 'spread' && values.writes !== 'affine') throw new Error(`--writes: "${values.writes}" must be spread or affine`);
  o.writes = values.writes;
  const chosen = values.phases.split(',').map((p) => {
    if (!(phases as readonly string[]).includes(p)) throw new Error(`--phases: unknown "${p}" (choose from ${phases.join(', ')})`);
    return p as Phase;
  });
  const boards = o.guilds * o.boardsPerGuild;
  const limits = openFileLimits();
  if (limits.hard < boards + 1024) throw new Error(`open-file limit too low: ${boards} boards need ${boards + 1024}, hard limit is ${limits.hard}`);
  const nofile = Math.min(limits.hard, Math.max(boards + 4096, 8192));

  const runCtl = benchRun();
  const redis = await startRedisServer();
  try {
    const t0 = performance.now();
    canPin();
    process.stdout.write(`bench scale: ${o.guilds} guilds x ${o.boardsPerGuild} boards (${boards}; ${Math.round(shared * 100)}% of guilds on two nodes), `
      + `1 status change per guild every ${o.writeIntervalMs} ms (${((o.guilds * 1000) / o.writeIntervalMs).toFixed(0)} writes/s) ${o.writes === 'spread' ? 'over all nodes' : 'to the guild\'s home node'}; `
      + `${o.warmupMs / 1000} s warm-up + ${o.durationMs / 1000} s window; nodes on CPU 0, load generator on CPU 1, PostgreSQL and Redis unpinned\n`);
    const db = runCtl.database(await benchDatabase());
    const guilds = await seedGuilds(db, o.guilds, UNITS_PER_GUILD);
    process.stdout.write(`  seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const results: PhaseResult[] = [];
    for (const phase of chosen.filter((p) => p !== 'postgres')) {
      const n = phase === 'single' ? 1 : o.nodes;
      const result = await measurePhase(phase === 'broadcast' ? 'broadcast' : 'guild', phase, n, o, db, guilds, redis, nofile, runCtl);
      results.push(result);
      const cpu = result.nodes.reduce((s, x) => s + x.cpuMs, 0);
      process.stdout.write(`  ${phase} (${n} node${n > 1 ? 's' : ''}): ${result.error ? `FAILED: ${result.error}` : `${result.writes} writes, ${(cpu / Math.max(1, result.writes)).toFixed(2)} ms node CPU per write`}\n`);
    }
    const pg = chosen.includes('postgres') ? await measurePostgres(db, guilds, o.pgLoops, o.pgDurationMs) : null;
    printScale(o, results, pg);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await runCtl.close();
    await redis.close();
  }
}

/** A scrape of the node's /metrics: the figures the bench reads. */
async function scrape(port: number): Promise<{ received: number; followed: number; hubGuilds: number }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  const text = await res.text();
  const read = (suffix: string) => {
    const m = new RegExp(`^\\w*${suffix}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
    return m ? Number(m[1]) : NaN;
  };
  return { received: read('bus_events_received_total'), followed: read('bus_guilds_followed'), hubGuilds: read('hub_guilds') };
}

async function measurePhase(
  bus: 'guild' | 'broadcast', phase: Phase, n: number, o: ScaleOptions, db: BenchDatabase, guilds: ScaleSeeded[],
  redis: { url: string; port: number; pid: number }, nofile: number, runCtl: ReturnType<typeof benchRun>,
): Promise<PhaseResult> {
  const placement = placeBoards(o.guilds, n, o.boardsPerGuild, n > 1 ? o.shared : 0);
  const result: PhaseResult = { phase, bus, nodes: [], windowMs: 0, writes: 0, pgCpuMs: NaN, redisCpuMs: 0, loadCpuMs: 0, otherCpuMs: 0, boxBusyMs: 0, publishes: NaN, behind: 0 };
  const servers: BenchChild[] = [];
  let load: BenchChild | null = null;
  try {
    await resetStatuses(db, guilds);
    for (let i = 0; i < n; i++) {
      servers.push(runCtl.started(spawnNode(file('./targets/scale-server.ts'), {
        cpu: 0, nofile, args: [bus], ipc: true, nodeArgs: ['--expose-gc'], env: { BENCH_DATABASE_URL: db.url, BENCH_REDIS_URL: redis.url, BENCH_METRICS_TOKEN: METRICS_TOKEN },
      })));
    }
    const ports = await Promise.all(servers.map(async (s) => ((await s.firstMessage) as { port: number }).port));
    await settled(servers.map((s) => s.pid), { maxMs: 30_000 });
    const peers = servers.map((s, i) => ipcPeer(s.proc, `node ${i}`));
    const heap = () => Promise.all(peers.map(async (p) => (await p.call<{ heapUsed: number }>('mem')).heapUsed / 2 ** 20));
    const rssIdle = servers.map((s) => rssMb(s.pid));
    const heapIdle = await heap();
    const job: ScaleLoadJob = {
      ports, topics: ['units', 'alarm'], writeIntervalMs: o.writeIntervalMs, connectTimeoutMs: 180_000, concurrency: 200, inFlightPerNode: 64, writes: o.writes,
      guilds: guilds.map((g, i) => ({ id: g.id, key: g.key, callsigns: g.callsigns, boards: placement[i] })),
    };
    load = runCtl.started(spawnNode(file('./load/scale.ts'), { cpu: 1, ipc: true, nofile, args: [JSON.stringify(job)] }));
    const lg = ipcPeer(load.proc, 'load generator');
    const connected = await lg.call<{ ready: number; total: number; ms: number; problems: string[] }>('connect', undefined, job.connectTimeoutMs + 10_000);
    if (connected.ready < connected.total) throw new Error(`only ${connected.ready} of ${connected.total} boards live after ${Math.round(connected.ms)} ms: ${connected.problems.slice(0, 3).join('; ')}`);
    result.connectMs = connected.ms;
    await settled(servers.map((s) => s.pid), { maxMs: 30_000 });
    const rssBoards = servers.map((s) => rssMb(s.pid));
    const heapBoards = await heap();
    const heads0 = await streamHeads(db, guilds);
    // What a node costs with its boards and no writes (timers, position checks, pings), before the writes start.
    const idle0 = servers.map((s) => cpuMsOf(s.pid));
    const idleT0 = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleMs = performance.now() - idleT0;
    const idleCpu = servers.map((s, i) => ((cpuMsOf(s.pid) - idle0[i]) * 1000) / idleMs);

    await lg.call('writes', { on: true });
    await new Promise((r) => setTimeout(r, o.warmupMs));
    const pgPids = db.postmasterPid ? postgresPids(db.postmasterPid) : [];
    const pgCpu = () => pgPids.reduce((s, pid) => s + cpuMsOf(pid), 0);
    const before = await Promise.all(ports.map(scrape));
    const commands0 = await redisCommandCounts(redis.port);
    const cpu0 = servers.map((s) => cpuMsOf(s.pid));
    const pg0 = pgCpu();
    const redis0 = cpuMsOf(redis.pid);
    const load0 = cpuMsOf(load.pid);
    const box0 = systemBusyMs();
    await lg.call('mark');
    await new Promise((r) => setTimeout(r, o.durationMs));
    const win = await lg.call<ScaleWindow>('unmark');
    const cpu1 = servers.map((s) => cpuMsOf(s.pid));
    result.pgCpuMs = db.postmasterPid ? pgCpu() - pg0 : NaN;
    result.redisCpuMs = cpuMsOf(redis.pid) - redis0;
    result.loadCpuMs = cpuMsOf(load.pid) - load0;
    result.boxBusyMs = systemBusyMs() - box0;
    const commands1 = await redisCommandCounts(redis.port);
    const after = await Promise.all(ports.map(scrape));
    result.publishes = ['publish', 'spublish'].reduce((s, c) => s + (commands1[c] ?? 0) - (commands0[c] ?? 0), 0);
    result.windowMs = win.ms;
    result.writes = win.writesByNode.reduce((s, x) => s + x, 0);
    result.nodes = servers.map((s, i): NodeFigures => {
      const served = guilds.filter((_, g) => placement[g][i] > 0);
      return {
        cpuMs: cpu1[i] - cpu0[i],
        received: after[i].received - before[i].received,
        servedGuilds: served.length,
        boards: placement.reduce((sum, p) => sum + p[i], 0),
        servedEvents: served.reduce((sum, g) => sum + (win.writesByGuild[g.id] ?? 0), 0),
        seenEvents: win.eventsSeenByNode[i],
        deliveries: win.deliveriesByNode[i],
        writesTaken: win.writesByNode[i],
        followed: after[i].followed,
        hubGuilds: after[i].hubGuilds,
        idleCpuMsPerS: idleCpu[i],
        rssIdleMb: rssIdle[i], rssBoardsMb: rssBoards[i], rssEndMb: rssMb(s.pid),
      };
    });
    result.otherCpuMs = Math.max(0, result.boxBusyMs - result.nodes.reduce((s, x) => s + x.cpuMs, 0) - (result.pgCpuMs || 0) - result.redisCpuMs - result.loadCpuMs);
    await lg.call('writes', { on: false });
    const heads1 = await streamHeads(db, guilds);
    result.behind = await lg.call<number>('drain', { heads: heads1, timeoutMs: DRAIN_MS }, DRAIN_MS + 10_000);
    const heapEnd = await heap();
    result.nodes.forEach((node, i) => {
      node.heapIdleMb = heapIdle[i];
      node.heapBoardsMb = heapBoards[i];
      node.heapEndMb = heapEnd[i];
      node.appliedEvents = guilds.reduce((sum, g, gi) => sum + (placement[gi][i] > 0 ? heads1[g.id] - heads0[g.id] : 0), 0);
    });
    result.load = await lg.call<ScaleLoadReport>('report');
    result.stderr = servers.flatMap((s) => s.stderr).slice(0, 3);
    await lg.call('close').catch(() => {});
  } catch (err) {
    result.error = (err as Error).message.split('\n')[0];
    result.stderr = servers.flatMap((s) => s.stderr).slice(-3);
  } finally {
    if (load) await runCtl.stopped(load);
    await Promise.all(servers.map((s) => runCtl.stopped(s)));
  }
  return result;
}
