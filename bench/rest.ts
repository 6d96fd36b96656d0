/**
 * `npm run bench -- rest [--only health|clock] [--rounds n] [--warmup s] [--duration s] [--connections n] [--people n] [--profile dir]`
 * (defaults: 3 rounds of 2 s warm-up + 4 s measured per contender, 32 connections, 200 people; about 2 min in all).
 *
 * Two ratios, each against a reference measured in the same run on the same box:
 *   health:      GET /api/v1/health on the server   vs the same bytes from bare uWS     (target >= 0.8x);
 *                GET /api/v1/ready (public, inputless, through its tRPC procedure like every route but
 *                health) shows what the REST procedure path costs (informational)
 *   clock pairs: clock-in + clock-out by badge       vs raw postgres.js insert + update  (target >= 0.5x),
 *                one loop each (the target), and `--connections` loops each in one guild (informational);
 *                bare uWS in front of the raw loop's own two statements shows what any HTTP server in front
 *                of the database costs, bare uWS running only the server's two clock statements how much the
 *                statements themselves (shift + event + seq) add, and the server what its stack adds (informational)
 * Contenders alternate over the rounds and the best round of each counts: outside load on a shared
 * box only lowers throughput, and the `other CPU` column shows how much there was.
 * The server and bare uWS run pinned to CPU 0, the load generator (and the raw SQL loop) to CPU 1;
 * PostgreSQL is not pinned. Misses are printed as MISSED; the exit code stays 0.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeBadge } from '../server/core/badge.ts';
import { createApiKey } from '../server/domains/apikeys/service.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { insertPerson } from '../server/domains/people/store.ts';
import { benchDatabase, type BenchDatabase } from './lib/db.ts';
import { benchRun, canPin, settled, spawnNode } from './lib/procs.ts';
import type { LoadJob, LoadReport } from './load/rest.ts';
import { runWrites } from './rest-writes.ts';

const GUILD = '900000000000000001';
const file = (rel: string) => new URL(rel, import.meta.url).pathname;

interface Contender {
  label: string;
  kind: 'health' | 'clock';
  /** What the verdicts look the row up by. */
  id: 'bare' | 'health' | 'procedure' | 'clock1' | 'statements1' | 'hop1' | 'sql1' | 'clockN' | 'sqlN';
  unit: string;
  /** Writes to the database: checkpoint before, check for open shifts after. */
  db?: boolean;
  job: () => LoadJob;
}

interface Row {
  id: Contender['id'];
  label: string;
  unit: string;
  rounds: LoadReport[];
  /** The best round: outside load on a shared box only ever lowers throughput. */
  report: LoadReport;
}

export async function run(args: string[]): Promise<void> {
  // `--only writes`: server CPU, statements and round trips per REST write (rest-writes.ts).
  const onlyAt = args.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (onlyAt >= 0 && (args[onlyAt] === '--only=writes' || args[onlyAt + 1] === 'writes')) return runWrites(args);
  const { values } = parseArgs({
    args,
    options: {
      warmup: { type: 'string', default: '2' },
      duration: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      people: { type: 'string', default: '200' },
      profile: { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const warmupMs = seconds(values.warmup, 'warmup') * 1000;
  const durationMs = seconds(values.duration, 'duration') * 1000;
  const rounds = count(values.rounds, 'rounds');
  const connections = count(values.connections, 'connections');
  const people = count(values.people, 'people');
  if (people < connections) throw new Error(`--people (${people}) must be at least --connections (${connections}): each connection needs its own badges`);
  const only = values.only;
  if (only !== undefined && only !== 'health' && only !== 'clock') throw new Error('--only must be health, clock or writes');
  const profileDir = values.profile ? resolve(values.profile) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const run = benchRun();
  const { started, stopped } = run;
  const load = async (job: LoadJob): Promise<LoadReport> => {
    const child = started(spawnNode(file('./load/rest.ts'), { cpu: 1, args: [JSON.stringify(job)] }));
    try {
      return (await child.firstMessage) as unknown as LoadReport;
    } finally {
      await stopped(child);
    }
  };
  const common = { connections, warmupMs, durationMs };

  try {
    const t0 = performance.now();
    canPin();
    process.stdout.write(`bench rest: ${connections} connections, ${people} people; per contender ${rounds} round(s) of ${warmupMs / 1000} s warm-up + ${durationMs / 1000} s measured, best round counts\n`);
    const db = run.database(await benchDatabase());
    const { key, badges, userIds } = await seed(db, people);
    const postmasterPid = db.postmasterPid ?? undefined;
    const notes: string[] = [];

    const bare = started(spawnNode(file('./targets/bare-uws.ts'), { cpu: 0 }));
    const server = started(spawnNode(file('./targets/server.ts'), {
      cpu: 0,
      env: { BENCH_DATABASE_URL: db.url },
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    }));
    const statements = started(spawnNode(file('./targets/clock-statements.ts'), { cpu: 0, env: { BENCH_DATABASE_URL: db.url, BENCH_GUILD_ID: GUILD } }));
    const rawStatements = started(spawnNode(file('./targets/raw-statements.ts'), { cpu: 0, env: { BENCH_DATABASE_URL: db.url, BENCH_GUILD_ID: GUILD } }));
    const barePort = (await bare.firstMessage).port as number;
    const statementsPort = (await statements.firstMessage).port as number;
    const rawStatementsPort = (await rawStatements.firstMessage).port as number;
    const port = (await server.firstMessage).port as number;
    // Round 1 measured the targets' start-up tail as well (the first contender to run came out at about
    // half its later rate): every target shares CPU 0.
    if (!(await settled([bare.pid, server.pid, statements.pid, rawStatements.pid]))) notes.push('the targets were still busy 30 s after they started: round 1 includes their start-up');
    const contenders: Contender[] = ([
      { kind: 'health', id: 'bare', label: 'bare uWS   GET /api/v1/health', unit: 'req/s', job: () => ({ kind: 'health', port: barePort, serverPid: bare.pid, ...common }) },
      { kind: 'health', id: 'health', label: 'server     GET /api/v1/health', unit: 'req/s', job: () => ({ kind: 'health', port, serverPid: server.pid, ...common }) },
      { kind: 'health', id: 'procedure', label: 'server     GET /api/v1/ready, procedure path', unit: 'req/s', job: () => ({ kind: 'health', path: '/api/v1/ready', port, serverPid: server.pid, ...common }) },
      { kind: 'clock', id: 'clock1', label: 'server     clock-in + clock-out, 1 loop', unit: 'pairs/s', db: true, job: () => ({ kind: 'clock', port, key, badges, serverPid: server.pid, postmasterPid, ...common, connections: 1 }) },
      { kind: 'clock', id: 'hop1', label: 'bare uWS   the raw loop\'s statements, 1 loop', unit: 'pairs/s', db: true, job: () => ({ kind: 'clock', port: rawStatementsPort, key, badges, serverPid: rawStatements.pid, postmasterPid, ...common, connections: 1 }) },
      { kind: 'clock', id: 'statements1', label: 'bare uWS   the two clock statements, 1 loop', unit: 'pairs/s', db: true, job: () => ({ kind: 'clock', port: statementsPort, key, badges, serverPid: statements.pid, postmasterPid, ...common, connections: 1 }) },
      { kind: 'clock', id: 'sql1', label: 'raw SQL    insert + update, 1 loop', unit: 'pairs/s', db: true, job: () => ({ kind: 'sql', databaseUrl: db.url, guildId: GUILD, userIds, postmasterPid, ...common, connections: 1 }) },
      { kind: 'clock', id: 'clockN', label: `server     clock-in + clock-out, ${connections} loops`, unit: 'pairs/s', db: true, job: () => ({ kind: 'clock', port, key, badges, serverPid: server.pid, postmasterPid, ...common }) },
      { kind: 'clock', id: 'sqlN', label: `raw SQL    insert + update, ${connections} loops`, unit: 'pairs/s', db: true, job: () => ({ kind: 'sql', databaseUrl: db.url, guildId: GUILD, userIds, postmasterPid, ...common }) },
    ] satisfies Contender[]).filter((c) => !only || c.kind === only);
    // Rounds interleave the contenders, so a burst of outside load hurts one round, not one contender.
    const reports: LoadReport[][] = contenders.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of contenders.entries()) {
        if (c.db) await db.sql`checkpoint`; // no checkpoint of the previous run's writes inside this window
        reports[i].push(await load(c.job()));
        if (c.db) notes.push(...(await openShiftsCheck(db, `after ${c.label.replace(/\s+/g, ' ')}`)));
      }
    }
    await stopped(bare);
    await stopped(server);
    await stopped(statements);
    await stopped(rawStatements);
    if (server.stderr.length) notes.push(`server wrote ${server.stderr.length} log line(s) to stderr, first: ${server.stderr.slice(0, 3).join(' | ')}`);

    const rows: Row[] = contenders.map((c, i) => ({ id: c.id, label: c.label, unit: c.unit, rounds: reports[i], report: best(reports[i]) }));
    printTable(rows);
    const row = (id: Contender['id']) => rows.find((r) => r.id === id);
    const [bareH, serverH, procH] = [row('bare'), row('health'), row('procedure')];
    const [clock, stmts, hop, raw, clockN, rawN] = [row('clock1'), row('statements1'), row('hop1'), row('sql1'), row('clockN'), row('sqlN')];
    process.stdout.write('\n');
    if (bareH && serverH) {
      process.stdout.write(verdict('health', rate(serverH) / rate(bareH), 'bare uWS', 0.8));
      process.stdout.write(`(server CPU per request: health ${(usPerOp(serverH) / usPerOp(bareH)).toFixed(1)}x bare uWS; health is rest.constant: its body comes from the procedure's first answer)\n`);
      if (procH) process.stdout.write(`${'procedure:'.padEnd(14)}${(rate(procH) / rate(bareH)).toFixed(2)}x bare uWS (informational: GET /api/v1/ready, like every route but health, pays the tRPC procedure call and an async reply, ${usPerOp(procH).toFixed(0)} us/request here)\n`);
      if (saturated(bareH.report)) {
        notes.push(`the load generator, not bare uWS, was the limit (loadgen ${cpuPct(bareH.report.cpuMs.loadgen, bareH)}, bare uWS ${cpuPct(bareH.report.cpuMs.server, bareH)} of a core): the health ratio is an upper bound`);
      }
    }
    if (clock && raw && clockN && rawN) {
      process.stdout.write(verdict('clock-in/out', rate(clock) / rate(raw), 'raw SQL loop, one loop each', 0.5));
      // Adjacent rounds share the box's conditions; the best-of ratio above pairs whichever rounds were quietest.
      const paired = clock.rounds.map((r, i) => perSecond(r) / perSecond(raw.rounds[i])).sort((a, b) => a - b);
      process.stdout.write(`${''.padEnd(14)}(round by round: ${paired.map((x) => x.toFixed(2)).join(', ')}x; median ${paired[Math.floor(paired.length / 2)].toFixed(2)}x)\n`);
      if (hop) process.stdout.write(`${'http hop:'.padEnd(14)}${(rate(hop) / rate(raw)).toFixed(2)}x raw SQL loop (informational: bare uWS in front of the raw loop's own two statements: what any HTTP server in front of the database costs)\n`);
      if (stmts) process.stdout.write(`${'statements:'.padEnd(14)}${(rate(stmts) / rate(raw)).toFixed(2)}x raw SQL loop (informational: bare uWS in front of the server's two statements${hop ? `, ${(rate(stmts) / rate(hop)).toFixed(2)}x of the hop alone: the event log's share` : ''}; the server reaches ${(rate(clock) / rate(stmts)).toFixed(2)}x of it)\n`);
      process.stdout.write(`${'clock-in/out:'.padEnd(14)}${(rate(clockN) / rate(rawN)).toFixed(2)}x raw SQL loops, ${connections} loops each, one guild (informational: a guild's writes commit one at a time,\n${' '.repeat(14)}because each takes the next number of the guild's gap-free event stream inside its transaction)\n`);
    }
    for (const { label, rounds } of rows) {
      const errs: Record<string, number> = {};
      for (const r of rounds) for (const [s, n] of Object.entries(r.errors)) errs[s] = (errs[s] ?? 0) + n;
      if (Object.keys(errs).length) notes.push(`${label.replace(/\s+/g, ' ')}: non-200 answers ${Object.entries(errs).map(([s, n]) => `${s} x${n}`).join(', ')}`);
    }
    if (profileDir) notes.push(`server CPU profile (.cpuprofile, main thread = *.0.001.*) written to ${profileDir}`);
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    if (!postmasterPid) notes.push('DATABASE_URL given: PostgreSQL CPU not measured');
    const busiest = Math.max(...rows.map((r) => r.report.cpuMs.other / r.report.measuredMs));
    if (busiest > 0.25) notes.push(`other processes used up to ${Math.round(busiest * 100)}% of a core during the counted rounds: the box was not quiet, expect noise`);
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

/** A guild, `n` people with badges 1..n (stored normalised, like the CLI does) and an unscoped key. */
async function seed(db: BenchDatabase, n: number) {
  await insertGuild(db.sql, GUILD, 'Bench');
  const badges: number[] = [];
  const userIds: string[] = [];
  for (let i = 1; i <= n; i++) {
    const userId = `bench-${i}`;
    await insertPerson(db.sql, GUILD, { userId, nickname: `Bench ${i}`, badge: normalizeBadge(i), rankId: null, isAdmin: false });
    badges.push(i);
    userIds.push(userId);
  }
  const { key } = await createApiKey(db.sql, GUILD, 'bench', null);
  return { key, badges, userIds };
}

/** Every pair ends clocked out; an open shift left behind means a lost clock-out. */
async function openShiftsCheck(db: BenchDatabase, when: string): Promise<string[]> {
  const [{ n }] = await db.sql`select count(*)::int as n from shifts where clock_out_at is null`;
  if (n === 0) return [];
  await db.sql`update shifts set clock_out_at = now(), status = 'CLOSED' where clock_out_at is null`;
  return [`${n} shift(s) were still open ${when} (closed now)`];
}

const perSecond = (r: LoadReport) => (r.ops * 1000) / r.measuredMs;
const rate = (row: Row) => perSecond(row.report);
const best = (rs: LoadReport[]) => rs.reduce((a, b) => (perSecond(b) > perSecond(a) ? b : a));
const cpuPct = (ms: number | null, row: Row) => (ms === null ? '-' : `${Math.round((ms * 100) / row.report.measuredMs)}%`);
const usPerOp = (row: Row) => ((row.report.cpuMs.server ?? NaN) * 1000) / Math.max(1, row.report.ops);
const saturated = (r: LoadReport) => r.cpuMs.loadgen / r.measuredMs > 0.9 && (r.cpuMs.server ?? 0) < r.cpuMs.loadgen;

function printTable(rows: Row[]) {
  const head = ['contender', 'best rate', 'all rounds', 'p50 ms', 'p99 ms', 'server CPU', 'server us/op', 'loadgen CPU', 'postgres CPU', 'other CPU', 'non-200'];
  const body = rows.map((r) => [
    r.label,
    `${Math.round(rate(r))} ${r.unit}`,
    r.rounds.map((x) => Math.round(perSecond(x))).join(' / '),
    r.report.p50.toFixed(2),
    r.report.p99.toFixed(2),
    cpuPct(r.report.cpuMs.server, r),
    r.report.cpuMs.server === null ? '-' : usPerOp(r).toFixed(0),
    cpuPct(r.report.cpuMs.loadgen, r),
    cpuPct(r.report.cpuMs.postgres, r),
    cpuPct(r.report.cpuMs.other, r),
    String(Object.values(r.report.errors).reduce((a, b) => a + b, 0)),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${body.map(line).join('\n')}\n`);
  process.stdout.write('(latency and CPU of the best round; CPU = % of one core over the measured window; loadgen = the load-generator process, which also runs the raw SQL loop; other = all other processes on the box)\n');
}

function verdict(name: string, ratio: number, reference: string, target: number): string {
  const ok = ratio >= target;
  return `${`${name}:`.padEnd(14)}${ratio.toFixed(2)}x ${reference} (target >= ${target}x)  ${ok ? 'ok' : 'MISSED'}\n`;
}

function seconds(v: string, name: string): number {
  const n = Number(v);
  if (!(n > 0 && n <= 120)) throw new Error(`--${name} must be seconds between 0 and 120`);
  return n;
}

function count(v: string, name: string): number {
  const n = Number(v);
  if (!(Number.isInteger(n) && n > 0 && n <= 10_000)) throw new Error(`--${name} must be a whole number from 1 to 10000`);
  return n;
}
