/**
 * `npm run bench -- fanout [--boards 1000,5000] [--rate 10] [--warmup 3] [--duration 10]
 *                          [--max-window 15] [--contenders bare,hub,stock] [--profile dir] [--nice=n] [--verbose]`
 * (defaults: about 2 minutes in all). With `--guilds N` it runs the many-guilds mode instead
 * (lib/fanout-guilds.ts): N guilds, boards in each, real REST writes through PostgreSQL.
 *
 * One guild, N boards, each one WebSocket with one `live.watch` subscription to units, alarm, onDuty
 * and dispatchers; events at `rate`/s, each touching one or two of those topics with a ~300 B op.
 * Contenders, each a server process pinned to CPU 0, the load generator pinned to CPU 1:
 *   bare     — bare uWS, one `app.publish` of the hub's frame bytes per event (the physical limit);
 *   hub      — the real server (startServer): uWS, our tRPC protocol, serialize-once fan-out;
 *   stock    — tRPC's own `applyWSSHandler` on `ws` with a board procedure written the way a tRPC
 *              user writes one (an `events.on` listener per subscriber yielding `tracked(id, delta)`,
 *              its own frames, serialized per subscriber; lib/fanout-stock.ts): the reference;
 *   portable — `applyWSSHandler` on `ws` serving our appRouter: live.watch's portable path (our hub's
 *              listener and mailbox); not a reference, only there to see that path (opt in).
 * Events are injected inside the server process through the bus the hub listens to.
 *
 * Per contender and N: memory per connection (RSS and live heap after GC while the boards join in
 * tenths: the slope per added board, and the plain (after − before) / N), then warm-up, then a
 * window of `duration` s of events (cut at `max-window` s when the
 * contender cannot keep the rate: it is then reported as saturated). Server CPU (process.cpuUsage in
 * the server, from the first measured event until every board had the last one) over the deliveries
 * the boards received meanwhile gives µs per delivery. Completion latency: per event, publish stamp
 * to the moment the last board had it. Gaps: per board, every delta's `prev` must be a seq it has.
 * Targets, printed as ok / MISSED (exit code 0 either way): hub ≥ 5× cheaper than stock and within
 * 1.5× of bare per delivery, p99 completion ≤ 50 ms at 1000 boards, ≤ 10 KB per connection, 0 gaps.
 * Latencies need a quiet box: the `other CPU` column shows what else ran; as root, `--nice=-10`
 * runs the servers and the load generator ahead of other work (CPU per delivery does not change).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { createApiKey } from '../server/domains/apikeys/service.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { insertPerson, insertRank } from '../server/domains/people/store.ts';
import { benchDatabase, type BenchDatabase } from './lib/db.ts';
import type { WindowCpu, WindowEnd, WindowStart } from './lib/fanout-control.ts';
import type { Memory } from './lib/memory.ts';
import { BENCH_GUILD, BOARD_TOPICS, benchPeople, benchRanks, benchUnits } from './lib/fanout-events.ts';
import { Latencies } from './lib/http-load.ts';
import { ipcPeer } from './lib/ipc.ts';
import { benchRun, canNice, canPin, cpuMsOf, openFileLimits, spawnNode, systemBusyMs, type BenchChild } from './lib/procs.ts';
import type { ConnectResult, FanoutLoadJob, FanoutLoadReport } from './load/fanout.ts';
import { whole } from './lib/args.ts';
import { runGuilds } from './lib/fanout-guilds.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;

const contenders = ['bare', 'hub', 'stock', 'portable'] as const;
const defaultContenders = ['bare', 'hub', 'stock'];
type Contender = (typeof contenders)[number];

interface Options {
  rate: number;
  warmupMs: number;
  events: number;
  maxWindowMs: number;
  profileDir: string | null;
  keys: string[];
  boardsPerKey: number;
  databaseUrl: string;
  nofile: number | undefined;
  /** Niceness of the servers and the load generator (0: unchanged). */
  nice: number;
}

interface Row {
  contender: Contender;
  boards: number;
  /** Why the row has no numbers (the contender failed to set up). */
  error?: string;
  connect?: ConnectResult;
  memBefore?: Memory;
  /** Readings as the boards joined, from 0 to all. */
  memSteps?: { boards: number; mem: Memory }[];
  memAfter?: Memory;
  window?: WindowEnd;
  cpu?: WindowCpu;
  load?: FanoutLoadReport;
  drained?: boolean;
  /** CPU of every other process on the box during the window, % of one core. */
  otherPct?: number;
  stderr: string[];
}

export async function run(args: string[]): Promise<void> {
  if (args.some((a) => a === '--guilds' || a.startsWith('--guilds='))) return runGuilds(args);
  const { values } = parseArgs({
    args,
    options: {
      boards: { type: 'string', default: '1000,5000' },
      rate: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      'max-window': { type: 'string', default: '15' },
      contenders: { type: 'string', default: defaultContenders.join(',') },
      profile: { type: 'string' },
      nice: { type: 'string', default: '0' },
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const boardCounts = values.boards.split(',').map((v) => whole(v, 'boards', 1, 20_000));
  const rate = positive(values.rate, 'rate', 100);
  const warmupMs = positive(values.warmup, 'warmup', 60) * 1000;
  const durationMs = positive(values.duration, 'duration', 120) * 1000;
  const maxWindowMs = Math.max(durationMs, positive(values['max-window'], 'max-window', 300) * 1000);
  const chosen = values.contenders.split(',').map((c) => {
    if (!(contenders as readonly string[]).includes(c)) throw new Error(`--contenders: unknown "${c}" (choose from ${contenders.join(', ')})`);
    return c as Contender;
  });
  const nice = Number(values.nice);
  if (!(Number.isInteger(nice) && nice >= -20 && nice <= 19)) throw new Error(`--nice: "${values.nice}" must be a whole number from -20 to 19`);
  if (nice < 0 && !canNice(nice)) throw new Error(`--nice ${nice}: not permitted here (a negative niceness needs root or CAP_SYS_NICE)`);
  const profileDir = values.profile ? resolve(values.profile) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  // Sockets: the server and the load generator each hold one per board, plus their own files.
  const needFiles = Math.max(...boardCounts) + 1024;
  const limits = openFileLimits();
  if (limits.hard < needFiles) throw new Error(`open-file limit too low: ${Math.max(...boardCounts)} boards need ${needFiles}, hard limit is ${limits.hard} (raise it with ulimit -Hn)`);
  const nofile = limits.soft < needFiles ? Math.min(limits.hard, 65_536) : undefined;

  const run = benchRun();
  const { started, stopped } = run;

  try {
    const t0 = performance.now();
    canPin();
    const events = Math.max(2, Math.round((durationMs / 1000) * rate));
    process.stdout.write(`bench fanout: 1 guild, ${boardCounts.join(' and ')} boards, each 1 subscription to ${BOARD_TOPICS.join(', ')}; `
      + `${rate} events/s; ${warmupMs / 1000} s warm-up + ${events} measured events (cut at ${maxWindowMs / 1000} s); server on CPU 0, load generator on CPU 1`
      + `${nice ? `, both at nice ${nice}` : ''}\n`);
    const db = run.database(await benchDatabase());
    // The server allows a few sockets per credential (limits.wsSocketsPerPrincipal): boards share keys in small groups.
    const perPrincipal = loadConfig({ DEMO: '0' }).limits.wsSocketsPerPrincipal;
    const boardsPerKey = Math.max(1, Math.floor(perPrincipal / 2));
    const keys = await seed(db, Math.ceil(Math.max(...boardCounts) / boardsPerKey));
    const opts: Options = { rate, warmupMs, events, maxWindowMs, profileDir, keys, boardsPerKey, databaseUrl: db.url, nofile, nice };

    const rows: Row[] = [];
    for (const boards of boardCounts) {
      for (const contender of chosen) {
        const row = await measure(contender, boards, opts, started, stopped);
        rows.push(row);
        process.stdout.write(`  ${contender} x ${boards}: ${row.error ? `FAILED: ${row.error}` : `${usPerDelivery(row).toFixed(2)} us/delivery, completion p99 ${fmtMs(completion(row).p99)} ms`}\n`);
      }
    }

    const notes: string[] = [];
    for (const boards of boardCounts) printTable(boards, rows.filter((r) => r.boards === boards), opts);
    process.stdout.write(`(${LEGEND.join(';\n ')})\n\n`);
    for (const boards of boardCounts) {
      const by = (c: Contender) => rows.find((r) => r.boards === boards && r.contender === c && !r.error);
      const [bare, hub, stock] = [by('bare'), by('hub'), by('stock')];
      const at = `N=${boards}`.padEnd(7);
      if (hub && stock) {
        const suffix = saturated(stock, opts) ? ' (stock saturated: its number is its ceiling)' : '';
        process.stdout.write(verdict(`${at} stock/hub CPU per delivery`, usPerDelivery(stock) / usPerDelivery(hub), 'x', '>=', 5) + suffix + '\n');
      }
      const portable = by('portable');
      if (hub && portable) {
        const ratio = usPerDelivery(portable) / usPerDelivery(hub);
        process.stdout.write(`${`${at} portable/hub CPU per delivery`.padEnd(38)} ${`${ratio.toFixed(2)}x`.padStart(14)}  (our own portable path, not a reference)${saturated(portable, opts) ? ' (portable saturated)' : ''}\n`);
      }
      if (hub && bare) process.stdout.write(verdict(`${at} hub/bare CPU per delivery`, usPerDelivery(hub) / usPerDelivery(bare), 'x', '<=', 1.5) + '\n');
      if (hub) {
        if (boards === 1000) process.stdout.write(verdict(`${at} hub completion p99`, completion(hub).p99, ' ms', '<=', 50) + '\n');
        process.stdout.write(verdict(`${at} hub memory per connection`, perConnKb(hub), ' KB', '<=', 10)
          + ` (per added board: RSS ${slopeKb(hub, resident).toFixed(1)} KB, live heap ${slopeKb(hub, live).toFixed(1)} KB; (RSS after - before) / N: ${avgConnKb(hub).toFixed(1)} KB)\n`);
        process.stdout.write(verdict(`${at} hub gaps + duplicates`, gapCount(hub) + hub.load!.duplicates, '', '<=', 0) + '\n');
      }
    }
    if (values.verbose) {
      for (const r of rows.filter((x) => !x.error)) {
        const mb = (k: 'rss' | 'young' | 'heapTotal' | 'heapUsed') => r.memSteps!.map((p) => (p.mem[k] / 2 ** 20).toFixed(1)).join(' ');
        process.stdout.write(`memory MiB ${r.contender} x ${r.boards} at ${r.memSteps!.map((p) => p.boards).join(' ')} boards: rss ${mb('rss')} | young ${mb('young')} | heapTotal ${mb('heapTotal')} | heapUsed ${mb('heapUsed')}\n`);
      }
    }
    for (const r of rows) {
      const who = `${r.contender} x ${r.boards}`;
      if (r.error) {
        const cause = r.stderr.find((l) => /error/i.test(l)) ?? r.stderr.slice(-1)[0];
        notes.push(`${who} failed: ${r.error}${cause ? ` | stderr: ${cause.trim()}` : ''}`);
      } else {
        if (r.load!.problems.length) notes.push(`${who}: ${r.load!.problems.slice(0, 3).join('; ')}`);
        if (!r.drained) notes.push(`${who}: boards still missed the last event ${Math.round(DRAIN_MS / 1000)} s after it was published (counted as gaps)`);
        if (saturated(r, opts)) notes.push(`${who}: saturated — published ${r.window!.achievedRate.toFixed(1)} of ${rate} events/s at ${pct(r.cpu!.cpuUs / 1000, r.cpu!.wallMs)} of a core; its CPU per delivery is its ceiling`);
        if (starved(r, opts)) notes.push(`${who}: starved — published ${r.window!.achievedRate.toFixed(1)} of ${rate} events/s using only ${pct(r.cpu!.cpuUs / 1000, r.cpu!.wallMs)} of a core while other processes used ${Math.round(r.otherPct!)}%: the box was busy; rerun when it is quiet (or with --nice=-10 as root)`);
        if (r.load!.cpuMs / r.cpu!.wallMs > 0.9) notes.push(`${who}: the load generator was busy ${pct(r.load!.cpuMs, r.cpu!.wallMs)} of the window: latencies include its queueing`);
        if (r.stderr.length) notes.push(`${who}: server wrote ${r.stderr.length} line(s) to stderr, first: ${r.stderr.slice(0, 2).join(' | ')}`);
      }
    }
    const busiest = Math.max(0, ...rows.filter((r) => !r.error).map((r) => r.otherPct!));
    if (busiest > 25) notes.push(`other processes used up to ${Math.round(busiest)}% of a core during a window: the box was not quiet, expect noise, above all in latencies${nice < 0 ? '' : ' (as root, --nice=-10 shields the contenders)'}`);
    if (profileDir) {
      for (const r of rows.filter((x) => x.cpu?.profile)) {
        const { busyMs, hot } = r.cpu!.profile!;
        process.stdout.write(`\nhottest JS in the window, ${r.contender} x ${r.boards}: server CPU ${Math.round(r.cpu!.cpuUs / 1000)} ms `
          + `(user ${Math.round(r.cpu!.userUs / 1000)}, kernel ${Math.round(r.cpu!.systemUs / 1000)}), of it sampled in JS or GC ${Math.round(busyMs)} ms `
          + '(the rest is native code and the kernel: socket writes); self time, % of the sampled:\n');
        for (const h of hot) process.stdout.write(`  ${h.selfMs.toFixed(0).padStart(6)} ms ${h.pct.toFixed(1).padStart(5)}%  ${h.fn}  ${h.where}\n`);
      }
      notes.push(`server CPU profiles of the measured windows (profiling slows the servers: do not compare these numbers) written to ${profileDir}/<contender>-<boards>.cpuprofile`);
    }
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

const DRAIN_MS = 10_000;

/** One contender at one N: its server, a load generator, memory, warm-up, the window. */
async function measure(
  contender: Contender, boards: number, o: Options,
  started: (c: BenchChild) => BenchChild, stopped: (c: BenchChild) => Promise<void>,
): Promise<Row> {
  const nodeArgs = ['--expose-gc'];
  // The profile covers the measured window only (see fanout-control.ts), not start-up and connects.
  const profile: Record<string, string> = o.profileDir ? { BENCH_CPU_PROFILE: join(o.profileDir, `${contender}-${boards}.cpuprofile`) } : {};
  const server = started(contender === 'bare'
    ? spawnNode(file('./targets/fanout-bare.ts'), { cpu: 0, nodeArgs, ipc: true, nofile: o.nofile, nice: o.nice, env: profile })
    : spawnNode(file('./targets/fanout-server.ts'), {
      cpu: 0, nodeArgs, ipc: true, nofile: o.nofile, nice: o.nice, args: [contender],
      env: { BENCH_DATABASE_URL: o.databaseUrl, BENCH_GUILD, ...profile },
    }));
  let load: BenchChild | null = null;
  const row: Row = { contender, boards, stderr: server.stderr };
  try {
    const { port, path } = (await server.firstMessage) as { port: number; path: string };
    const srv = ipcPeer(server.proc, `${contender} server`);
    row.memBefore = await srv.call<Memory>('mem');

    const job: FanoutLoadJob = {
      port, path, boards, keys: o.keys, boardsPerKey: o.boardsPerKey, topics: BOARD_TOPICS,
      connectTimeoutMs: 60_000, concurrency: 200,
    };
    load = started(spawnNode(file('./load/fanout.ts'), { cpu: 1, ipc: true, nofile: o.nofile, nice: o.nice, args: [JSON.stringify(job)] }));
    const lg = ipcPeer(load.proc, 'load generator');
    // Boards join in tenths, memory read after each: the slope past the first tenth is the cost of
    // one more board, free of the one-time costs (compiled code, compiler and pool memory) the
    // first boards pay; a least-squares fit over nine readings keeps one GC's luck out of it.
    row.memSteps = [{ boards: 0, mem: row.memBefore }];
    for (let step = 1; step <= MEMORY_STEPS; step++) {
      const count = Math.round((boards * step) / MEMORY_STEPS);
      row.connect = await lg.call<ConnectResult>('connect', { count }, job.connectTimeoutMs + 10_000);
      if (row.connect.ready < count) {
        throw new Error(`only ${row.connect.ready} of ${count} boards got started + snapshot in ${Math.round(row.connect.ms)} ms: ${row.connect.problems.slice(0, 3).join('; ')}`);
      }
      row.memSteps.push({ boards: count, mem: await srv.call<Memory>('mem') });
    }
    row.memAfter = row.memSteps[row.memSteps.length - 1].mem;

    const startArgs = { rate: o.rate, warmupMs: o.warmupMs, events: o.events, maxMeasureMs: o.maxWindowMs };
    const win = await srv.call<WindowStart>('start', startArgs, o.warmupMs + 60_000);
    await lg.call('mark', { t0: win.t0 });
    const sys0 = systemBusyMs();
    const own0 = cpuMsOf(server.pid) + cpuMsOf(load.pid);
    row.window = await srv.call<WindowEnd>('finish', undefined, o.maxWindowMs + 60_000);
    row.drained = await lg.call<boolean>('drain', { lastSeq: row.window.lastSeq, timeoutMs: DRAIN_MS }, DRAIN_MS + 10_000);
    row.cpu = await srv.call<WindowCpu>('cpu');
    row.otherPct = ((systemBusyMs() - sys0 - (cpuMsOf(server.pid) + cpuMsOf(load.pid) - own0)) * 100) / row.cpu.wallMs;
    row.load = await lg.call<FanoutLoadReport>('report', { t0: win.t0, tEnd: row.cpu.tEnd, firstSeq: win.firstSeq, lastSeq: row.window.lastSeq });
    await lg.call('close').catch(() => {});
  } catch (err) {
    row.error = (err as Error).message.split('\n')[0];
  } finally {
    if (load) await stopped(load);
    await stopped(server);
  }
  return row;
}

/** The guild's board state (people, ranks, units with crews, open shifts, dispatchers) and `keys` unscoped API keys. */
async function seed(db: BenchDatabase, keys: number): Promise<string[]> {
  const sql = db.sql;
  await insertGuild(sql, BENCH_GUILD, 'Bench Fan-out');
  const rankId = (name: string) => name.toLowerCase().replace(/[^a-z]+/g, '-');
  for (const [position, name] of benchRanks.entries()) await insertRank(sql, BENCH_GUILD, { id: rankId(name), name, position, capabilities: ['timeclock.own.use'] });
  for (const p of benchPeople) await insertPerson(sql, BENCH_GUILD, { userId: p.userId, nickname: p.nickname, badge: p.badge, rankId: rankId(p.rank), isAdmin: false });
  const unitRows = await sql`insert into units ${sql(benchUnits.map((u, i) => ({ guild_id: BENCH_GUILD, callsign: u.callsign, label: u.label, org_unit: u.orgUnit, status: String(1 + (i % 4)) })))} returning id`;
  const crews = unitRows.slice(0, 25).flatMap((u, i) => [0, 1].map((k) => ({ guild_id: BENCH_GUILD, unit_id: u.id, user_id: benchPeople[2 * i + k].userId })));
  await sql`insert into unit_members ${sql(crews)}`;
  await sql`insert into shifts ${sql(benchPeople.slice(0, 30).map((p) => ({ guild_id: BENCH_GUILD, user_id: p.userId })))}`;
  await sql`insert into dispatcher_slots ${sql([1, 2].map((slot) => ({ guild_id: BENCH_GUILD, slot, user_id: benchPeople[slot * 10].userId })))}`;
  const out: string[] = [];
  for (let i = 0; i < keys; i++) out.push((await createApiKey(sql, BENCH_GUILD, `board group ${i + 1}`, null)).key);
  return out;
}

// ---- derived numbers -----------------------------------------------------------------------------

const usPerDelivery = (r: Row) => (r.error ? NaN : r.cpu!.cpuUs / Math.max(1, r.load!.deliveriesInWindow));
const MEMORY_STEPS = 10;
/**
 * Memory readings: resident memory without V8's young generation (empty after a full GC; its size
 * follows V8's allocation-rate heuristics, not the number of boards), and the live JS heap.
 */
const resident = (m: Memory) => m.rss - m.young;
const live = (m: Memory) => m.heapUsed;

/** Per added board, KB: least-squares slope of the readings from 2/10 of the boards on (past the one-time costs). */
function slopeKb(r: Row, of: (m: Memory) => number): number {
  const pts = r.memSteps!.filter((p) => p.boards * MEMORY_STEPS >= 2 * r.boards).map((p) => [p.boards, of(p.mem)] as const);
  const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
  const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
  const sxy = pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxy / sxx / 1024;
}
/**
 * Memory per connection, KB: the larger of the resident and the live-heap slope. Resident memory
 * alone under-counts while new objects still fill heap pages committed at start-up; a board
 * costs at least the objects it keeps alive.
 */
const perConnKb = (r: Row) => Math.max(slopeKb(r, resident), slopeKb(r, live));
/** Everything the boards added to resident memory (one-time costs included) over their number: the plain (after − before) / N. */
const avgConnKb = (r: Row) => (resident(r.memAfter!) - resident(r.memBefore!)) / r.boards / 1024;
/** Gaps seen by boards, deltas before a snapshot, and boards that never got the last event. */
const gapCount = (r: Row) => r.load!.gaps + r.load!.noSnapshot + (r.drained ? 0 : r.load!.behind) + r.load!.closed;
/** The contender fell behind: it published below the rate, ran out of window, or boards missed the end. */
const behind = (r: Row, o: Options) => !r.error && (r.window!.achievedRate < 0.95 * o.rate || r.window!.events < o.events || !r.drained);
/** Behind while using (nearly) a whole core: its own limit, so its CPU per delivery is its ceiling. */
const saturated = (r: Row, o: Options) => behind(r, o) && r.cpu!.cpuUs / 1000 >= 0.85 * r.cpu!.wallMs;
/** Behind with CPU to spare: other processes took the core (a noisy box), not the contender's limit. */
const starved = (r: Row, o: Options) => behind(r, o) && !saturated(r, o);

function completion(r: Row): { p50: number; p99: number } {
  if (r.error) return { p50: NaN, p99: NaN };
  const l = new Latencies();
  for (const ms of r.load!.completionMs) l.add(ms);
  return l.percentiles();
}

const fmtMs = (ms: number) => (Number.isNaN(ms) ? '-' : ms === Infinity ? 'never' : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const pct = (part: number, whole: number) => `${Math.round((part * 100) / whole)}%`;

function printTable(boards: number, rows: Row[], o: Options) {
  const head = ['contender', 'events', 'ev/s', 'deliveries', 'server CPU', 'kernel', 'us/delivery', 'completion p50 ms', 'p99 ms', 'delivery p50 ms',
    'KB/conn', 'RSS slope', 'heap slope', 'RSS/N', 'gaps', 'dups', 'loadgen CPU', 'other CPU', 'status'];
  const body = rows.map((r) => {
    if (r.error) return [r.contender, ...head.slice(1, -1).map(() => '-'), 'FAILED'];
    const c = completion(r);
    return [
      r.contender,
      String(r.window!.events),
      r.window!.achievedRate.toFixed(1),
      String(r.load!.deliveriesInWindow),
      pct(r.cpu!.cpuUs / 1000, r.cpu!.wallMs),
      pct(r.cpu!.systemUs, r.cpu!.cpuUs),
      usPerDelivery(r).toFixed(2),
      fmtMs(c.p50),
      fmtMs(c.p99),
      fmtMs(r.load!.deliveryP50),
      perConnKb(r).toFixed(1),
      slopeKb(r, resident).toFixed(1),
      slopeKb(r, live).toFixed(1),
      avgConnKb(r).toFixed(1),
      String(gapCount(r)),
      String(r.load!.duplicates),
      pct(r.load!.cpuMs, r.cpu!.wallMs),
      `${Math.round(r.otherPct!)}%`,
      saturated(r, o) ? 'saturated' : starved(r, o) ? 'starved' : 'ok',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(`\n${boards} boards\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${body.map(line).join('\n')}\n`);
}

const LEGEND = [
  'server CPU: % of one core from the first measured event until every board had the last one (kernel: the system-time share of it); us/delivery: that CPU over the deltas the boards received meanwhile',
  'completion: publish stamp -> the last board has the event (per event); delivery p50: publish stamp -> a board has it (per delivery)',
  'memory, KB, read after GC as boards join in tenths, RSS without V8\'s young generation: RSS slope and heap slope (live JS heap) per added board from 2/10 of the boards on; KB/conn: the larger of the two; RSS/N: (RSS after - before) / N, one-time costs included',
  'gaps: deltas whose prev the board lacks + deltas before the snapshot + boards closed or still missing the last event after the drain; other CPU: every other process on the box',
];

function verdict(name: string, value: number, unit: string, op: '>=' | '<=', target: number): string {
  const ok = op === '>=' ? value >= target : value <= target;
  const shown = Number.isInteger(value) ? String(value) : value === Infinity ? 'never' : value.toFixed(value < 10 ? 2 : 1);
  return `${name.padEnd(38)} ${`${shown}${unit}`.padStart(14)}  (target ${op} ${target}${unit})  ${ok ? 'ok' : 'MISSED'}`;
}

function positive(v: string, name: string, max: number): number {
  const n = Number(v);
  if (!(n > 0 && n <= max)) throw new Error(`--${name}: "${v}" must be a number above 0 and at most ${max}`);
  return n;
}
