/**
 * `npm run bench -- fanout --guilds 200 [--boards-per-guild 20] [--write-interval 2000] [--units 10]
 *                          [--warmup 10] [--duration 30] [--contenders writes,hub,stock] [--nice=n]`
 *
 * The many-guilds mode: the load the way users make it. `guilds` guilds, each with
 * `boards-per-guild` boards (units, alarm, onDuty, dispatchers) and one dispatcher's tool that sets
 * one of its units' status through REST (`PUT /api/v1/units/{callsign}/status`, the guild's API
 * key, stored through PostgreSQL, published after commit) every `write-interval` ms, the guilds'
 * writes spread evenly. Contenders (server on CPU 0, load generator on CPU 1, PostgreSQL unpinned):
 *   writes   — the real server with no boards: what the writes alone cost;
 *   hub      — the real server's boards (uWS, serialize-once fan-out);
 *   stock    — the same server's writes, boards on tRPC's own `applyWSSHandler` on `ws` with a
 *              board procedure written the way a tRPC user writes one (fanout-stock.ts);
 *   portable — boards on `applyWSSHandler` serving our appRouter's portable path (opt in).
 * Per contender: server CPU over the window (from the first measured write until every board had
 * the last one), CPU per delivery, and the fan-out's share of it (minus the writes-only run's CPU
 * per second); delivery latency from the write's answer (and from its sending) to the board; the
 * writes' own round trip; gaps, duplicates and deliveries missing after the drain; PostgreSQL's CPU.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.ts';
import { createApiKey } from '../../server/domains/apikeys/service.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { whole } from './args.ts';
import { benchDatabase, type BenchDatabase } from './db.ts';
import type { Memory } from './memory.ts';
import { BOARD_TOPICS } from './fanout-events.ts';
import { ipcPeer } from './ipc.ts';
import { benchRun, canNice, canPin, cpuMsOf, openFileLimits, postgresPids, spawnNode, systemBusyMs, type BenchChild } from './procs.ts';
import { table } from './table.ts';
import type { GuildsConnectResult, GuildsLoadJob, GuildsLoadReport } from '../load/fanout-guilds.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const contenders = ['writes', 'hub', 'stock', 'portable'] as const;
type Contender = (typeof contenders)[number];
/** Statuses a write cycles through: none is an alarm, none acknowledges one, consecutive ones differ, the first is not the seeded '2'. */
const STATUSES = ['1', '4', '6', '8', '7', '2'];
const DRAIN_MS = 10_000;

interface Row {
  contender: Contender;
  error?: string;
  connect?: GuildsConnectResult;
  memBefore?: Memory;
  memAfter?: Memory;
  load?: GuildsLoadReport;
  drained?: boolean;
  wallMs?: number;
  cpu?: { server: number; loadgen: number; postgres: number; other: number };
  stderr: string[];
}

export async function runGuilds(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      guilds: { type: 'string' },
      'boards-per-guild': { type: 'string', default: '20' },
      'write-interval': { type: 'string', default: '2000' },
      units: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      duration: { type: 'string', default: '30' },
      contenders: { type: 'string', default: 'writes,hub,stock' },
      nice: { type: 'string', default: '0' },
    },
    strict: true,
  });
  const guilds = whole(values.guilds ?? '', 'guilds', 1, 5000);
  const boardsPerGuild = whole(values['boards-per-guild'], 'boards-per-guild', 1, 500);
  const writeIntervalMs = whole(values['write-interval'], 'write-interval', 50, 600_000);
  const units = whole(values.units, 'units', 1, 500);
  const warmupMs = whole(values.warmup, 'warmup', 0, 600) * 1000;
  const durationMs = whole(values.duration, 'duration', 1, 3600) * 1000;
  const chosen = values.contenders.split(',').map((c) => {
    if (!(contenders as readonly string[]).includes(c)) throw new Error(`--contenders: unknown "${c}" (choose from ${contenders.join(', ')})`);
    return c as Contender;
  });
  const nice = whole(values.nice, 'nice', -20, 19);
  if (nice < 0 && !canNice(nice)) throw new Error(`--nice ${nice}: not permitted here (a negative niceness needs root or CAP_SYS_NICE)`);
  const boards = guilds * boardsPerGuild;
  const needFiles = boards + 1024;
  const limits = openFileLimits();
  if (limits.hard < needFiles) throw new Error(`open-file limit too low: ${boards} boards need ${needFiles}, hard limit is ${limits.hard} (raise it with ulimit -Hn)`);
  const nofile = limits.soft < needFiles ? Math.min(limits.hard, 65_536) : undefined;

  const run = benchRun();
  try {
    const t0 = performance.now();
    process.stdout.write(`bench fanout, many guilds: ${guilds} guilds x ${boardsPerGuild} boards (${boards} boards, each 1 subscription to ${BOARD_TOPICS.join(', ')}); `
      + `one REST status write per guild every ${writeIntervalMs} ms (${((guilds * 1000) / writeIntervalMs).toFixed(1)} writes/s, spread); `
      + `${warmupMs / 1000} s warm-up + ${durationMs / 1000} s window; server on CPU 0, load generator on CPU 1, PostgreSQL unpinned${nice ? `, nice ${nice}` : ''}\n`);
    const db = run.database(await benchDatabase());
    const perPrincipal = loadConfig({ DEMO: '0' }).limits.wsSocketsPerPrincipal;
    const boardsPerKey = Math.max(1, Math.floor(perPrincipal / 2));
    const seeded = await seed(db, guilds, units, Math.ceil(boardsPerGuild / boardsPerKey));
    process.stdout.write(`  seeded ${guilds} guilds (${units} units each) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const rows: Row[] = [];
    for (const contender of chosen) {
      const job: Omit<GuildsLoadJob, 'port' | 'path' | 'restPort'> = {
        topics: BOARD_TOPICS, boardsPerGuild: contender === 'writes' ? 0 : boardsPerGuild, guilds: seeded, boardsPerKey,
        statuses: STATUSES, writeIntervalMs, connectTimeoutMs: 120_000, concurrency: 200,
      };
      const row = await measure(contender, job, { warmupMs, durationMs, databaseUrl: db.url, postmasterPid: db.postmasterPid, nofile, nice }, run);
      rows.push(row);
      process.stdout.write(`  ${contender}: ${row.error ? `FAILED: ${row.error}` : `server ${pct(row.cpu!.server, row.wallMs!)} of a core, ${row.load!.writes} writes, ${row.load!.deliveriesInWindow} deliveries`}\n`);
    }
    report(rows, { guilds, boardsPerGuild, writeIntervalMs });
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

/** Guilds with `units` units in status 2 and `keys` unscoped API keys each (the first also writes). */
async function seed(db: BenchDatabase, guilds: number, units: number, keys: number): Promise<GuildsLoadJob['guilds']> {
  const sql = db.sql;
  const out: GuildsLoadJob['guilds'] = [];
  const callsigns = Array.from({ length: units }, (_, i) => `RTW-${i + 1}`);
  for (let g = 0; g < guilds; g++) {
    const guildId = String(910000000000000000n + BigInt(g));
    await insertGuild(sql, guildId, `Bench guild ${g + 1}`);
    await sql`insert into units ${sql(callsigns.map((c, i) => ({ guild_id: guildId, callsign: c, label: `RTW ${i + 1}`, org_unit: 'RW Nord', status: '2' })))}`;
    const guildKeys: string[] = [];
    for (let k = 0; k < Math.max(1, keys); k++) guildKeys.push((await createApiKey(sql, guildId, `board group ${k + 1}`, null)).key);
    out.push({ keys: guildKeys, callsigns });
  }
  return out;
}

async function measure(
  contender: Contender, job: Omit<GuildsLoadJob, 'port' | 'path' | 'restPort'>,
  o: { warmupMs: number; durationMs: number; databaseUrl: string; postmasterPid: number | null; nofile: number | undefined; nice: number },
  run: ReturnType<typeof benchRun>,
): Promise<Row> {
  const server = run.started(spawnNode(file('../targets/fanout-server.ts'), {
    cpu: 0, nodeArgs: ['--expose-gc'], ipc: true, nofile: o.nofile, nice: o.nice, args: [contender === 'writes' ? 'hub' : contender],
    env: { BENCH_DATABASE_URL: o.databaseUrl },
  }));
  let load: BenchChild | null = null;
  const row: Row = { contender, stderr: server.stderr };
  try {
    const { port, path, restPort } = (await server.firstMessage) as { port: number; path: string; restPort: number };
    const srv = ipcPeer(server.proc, `${contender} server`);
    row.memBefore = await srv.call<Memory>('mem');
    const full: GuildsLoadJob = { ...job, port, path, restPort };
    load = run.started(spawnNode(file('../load/fanout-guilds.ts'), { cpu: 1, ipc: true, nofile: o.nofile, nice: o.nice, args: [JSON.stringify(full)] }));
    const lg = ipcPeer(load.proc, 'load generator');
    const want = job.guilds.length * job.boardsPerGuild;
    row.connect = await lg.call<GuildsConnectResult>('connect', undefined, job.connectTimeoutMs + 10_000);
    if (row.connect.ready < want) throw new Error(`only ${row.connect.ready} of ${want} boards got started + snapshot in ${Math.round(row.connect.ms)} ms: ${row.connect.problems.slice(0, 3).join('; ')}`);
    row.memAfter = await srv.call<Memory>('mem');

    await lg.call('writes');
    await sleep(o.warmupMs);
    const pg = o.postmasterPid ? postgresPids(o.postmasterPid) : [];
    const pgMs = () => pg.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
    const before = { server: cpuMsOf(server.pid), loadgen: cpuMsOf(load.pid), postgres: pgMs(), system: systemBusyMs(), at: performance.now() };
    const t0 = await lg.call<string>('mark');
    await sleep(o.durationMs);
    await lg.call('stop', undefined, 60_000);
    const drain = await lg.call<{ all: boolean; tEnd: string }>('drain', { timeoutMs: DRAIN_MS }, DRAIN_MS + 10_000);
    row.drained = drain.all;
    row.wallMs = performance.now() - before.at;
    const cpu = { server: cpuMsOf(server.pid) - before.server, loadgen: cpuMsOf(load.pid) - before.loadgen, postgres: pgMs() - before.postgres };
    row.cpu = { ...cpu, other: Math.max(0, systemBusyMs() - before.system - cpu.server - cpu.loadgen - cpu.postgres) };
    row.load = await lg.call<GuildsLoadReport>('report', { t0, tEnd: drain.tEnd });
    await lg.call('close').catch(() => {});
  } catch (err) {
    row.error = (err as Error).message.split('\n')[0];
  } finally {
    if (load) await run.stopped(load);
    await run.stopped(server);
  }
  return row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (part: number, whole: number) => `${Math.round((part * 100) / whole)}%`;
const fmt = (ms: number | null) => (ms === null || Number.isNaN(ms) ? '-' : Math.abs(ms) < 10 ? ms.toFixed(2) : ms.toFixed(1));
/** Server CPU per delivery, µs. */
const usPerDelivery = (r: Row) => (r.cpu!.server * 1000) / Math.max(1, r.load!.deliveriesInWindow);
/** The fan-out's share: server CPU per second above the writes-only run's, over deliveries per second, µs. */
const fanoutUs = (r: Row, writes: Row | undefined) => (writes
  ? ((r.cpu!.server / r.wallMs! - writes.cpu!.server / writes.wallMs!) * 1000) / (r.load!.deliveriesInWindow / r.wallMs!)
  : NaN);
const gapCount = (r: Row) => r.load!.gaps + r.load!.noSnapshot + r.load!.closed + r.load!.missing;

function report(rows: Row[], o: { guilds: number; boardsPerGuild: number; writeIntervalMs: number }) {
  const writes = rows.find((r) => r.contender === 'writes' && !r.error);
  const head = ['contender', 'writes/s', 'deliveries/s', 'server CPU', 'us/write', 'us/delivery', 'fan-out us/delivery', 'answer->board p50 ms', 'p99 ms',
    'send->board p99 ms', 'write p50 ms', 'write p99 ms', 'RSS/board KB', 'gaps', 'dups', 'PostgreSQL CPU', 'loadgen CPU', 'other CPU'];
  const body = rows.map((r) => {
    if (r.error) return [r.contender, ...head.slice(1).map(() => '-')];
    const l = r.load!;
    const s = r.wallMs! / 1000;
    const hasBoards = r.contender !== 'writes';
    const rssKb = hasBoards ? ((r.memAfter!.rss - r.memBefore!.rss) / (o.guilds * o.boardsPerGuild) / 1024).toFixed(1) : '-';
    return [
      r.contender, (l.writes / s).toFixed(1), (l.deliveriesInWindow / s).toFixed(0), pct(r.cpu!.server, r.wallMs!),
      ((r.cpu!.server * 1000) / Math.max(1, l.writes)).toFixed(0),
      hasBoards ? usPerDelivery(r).toFixed(1) : '-', hasBoards && writes ? fanoutUs(r, writes).toFixed(1) : '-',
      hasBoards ? fmt(l.fromAnswer.p50) : '-', hasBoards ? fmt(l.fromAnswer.p99) : '-', hasBoards ? fmt(l.fromSend.p99) : '-',
      fmt(l.writeMs.p50), fmt(l.writeMs.p99), rssKb, String(gapCount(r)), String(l.duplicates),
      pct(r.cpu!.postgres, r.wallMs!), pct(r.cpu!.loadgen, r.wallMs!), pct(r.cpu!.other, r.wallMs!),
    ];
  });
  process.stdout.write(`\n${o.guilds} guilds x ${o.boardsPerGuild} boards, a write per guild every ${o.writeIntervalMs} ms\n${table(head, body)}`);
  process.stdout.write(`(server CPU: the server process, % of one core, from the first measured write until every board had the last one; us/write and us/delivery: that CPU over the writes answered / deltas received in the window;
 fan-out us/delivery: server CPU per second above the writes-only run's, over deliveries per second (what the boards add);
 answer->board: a write's answer at its sender -> a board has its delta (negative: the board had it first); send->board: from the write's sending; write: the REST round trip;
 gaps: deltas whose prev the board lacks + deltas before the snapshot + boards closed + deliveries still missing after the drain; PostgreSQL CPU: the postmaster and its backends; other CPU: every other process on the box)\n\n`);

  const hub = rows.find((r) => r.contender === 'hub' && !r.error);
  for (const other of ['stock', 'portable'] as const) {
    const r = rows.find((x) => x.contender === other && !x.error);
    if (!hub || !r) continue;
    // The hub's share can be smaller than the run-to-run noise of the writes (then no ratio of shares is printed).
    const shares = !writes ? '' : fanoutUs(hub, writes) > 0.05 * fanoutUs(r, writes)
      ? `; fan-out share alone: ${(fanoutUs(r, writes) / fanoutUs(hub, writes)).toFixed(2)}x`
      : `; fan-out share alone: ${other} ${fanoutUs(r, writes).toFixed(1)} us per delivery, the hub's (${fanoutUs(hub, writes).toFixed(1)} us) is within the noise of the writes-only run`;
    process.stdout.write(`${other}/hub server CPU per delivery: ${(usPerDelivery(r) / usPerDelivery(hub)).toFixed(2)}x${shares}`
      + `; server CPU ${pct(r.cpu!.server, r.wallMs!)} against ${pct(hub.cpu!.server, hub.wallMs!)}\n`);
  }
  for (const r of rows) {
    if (r.error) {
      const cause = r.stderr.find((l) => /error/i.test(l)) ?? r.stderr.slice(-1)[0];
      process.stdout.write(`note: ${r.contender} failed: ${r.error}${cause ? ` | stderr: ${cause.trim()}` : ''}\n`);
      continue;
    }
    const l = r.load!;
    if (l.problems.length) process.stdout.write(`note: ${r.contender}: ${l.problems.slice(0, 3).join('; ')}\n`);
    if (l.failedWrites) process.stdout.write(`note: ${r.contender}: ${l.failedWrites} writes failed\n`);
    if (l.skippedWrites) process.stdout.write(`note: ${r.contender}: ${l.skippedWrites} writes skipped (the guild's previous write had no answer yet): the server or PostgreSQL fell behind\n`);
    if (l.unmatched) process.stdout.write(`note: ${r.contender}: ${l.unmatched} unit deltas matched no write\n`);
    if (!r.drained) process.stdout.write(`note: ${r.contender}: boards still missed writes ${DRAIN_MS / 1000} s after the last one (counted as gaps)\n`);
    if (r.stderr.length) process.stdout.write(`note: ${r.contender}: server wrote ${r.stderr.length} line(s) to stderr, first: ${r.stderr.slice(0, 2).join(' | ')}\n`);
    if (r.cpu!.other / r.wallMs! > 0.25) process.stdout.write(`note: ${r.contender}: other processes used ${pct(r.cpu!.other, r.wallMs!)} of a core: the box was not quiet, expect noise, above all in latencies\n`);
  }
  if (!canPin()) process.stdout.write('note: taskset missing: nothing was pinned\n');
}
