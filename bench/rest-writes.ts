/**
 * `npm run bench -- rest --only writes [--before <checkout>] [--rounds n] [--warmup s] [--duration s] [--connections n] [--count n]`
 * (defaults: 3 rounds of 2 s warm-up + 4 s measured per contender, 1 connection, 40 counted writes; about 1 min,
 * 2 with --before).
 *
 * Server CPU per REST write, measured in the server process (/proc of its pid over the measured
 * window), for (a) a unit status change (PUT /units/{callsign}/status, FMS 1 and 2 in turn) and
 * (b) a call report from the game and its resolve, with PostgreSQL's CPU beside it; then the
 * statements and round trips each write sends, counted on the wire by a proxy between a second
 * server and PostgreSQL (test/helpers/pg-wire-counter.ts: nothing in server/ knows).
 *
 * `--before <dir>`: a checkout of another commit (e.g. `git worktree add /tmp/before HEAD~3`, with a
 * `node_modules` symlink) whose `bench/targets/server.ts` runs as a second contender on the same
 * database, alternating rounds with this checkout's server, so both see the same box; the verdict is
 * this checkout's CPU per write against it (target <= 0.6x). The server runs pinned to CPU 0, the load
 * generator to CPU 1. The lowest CPU per write of a contender's rounds counts: outside load only adds.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../server/domains/apikeys/service.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { startWireCounter } from '../test/helpers/pg-wire-counter.ts';
import { whole } from './lib/args.ts';
import { benchDatabase, type BenchDatabase } from './lib/db.ts';
import { benchRun, canPin, settled, spawnNode, type BenchChild } from './lib/procs.ts';
import type { WritesJob, WritesReport } from './load/writes.ts';

const GUILD = '900000000000000002';
const here = new URL('..', import.meta.url).pathname;
const serverFile = (root: string) => resolve(root, 'bench/targets/server.ts');

interface Row { label: string; kind: WritesJob['kind']; server: 'after' | 'before'; rounds: WritesReport[] }

export async function runWrites(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      only: { type: 'string' },
      before: { type: 'string' },
      warmup: { type: 'string', default: '2' },
      duration: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '1' },
      count: { type: 'string', default: '40' },
    },
    strict: true,
  });
  const warmupMs = Number(values.warmup) * 1000;
  const durationMs = Number(values.duration) * 1000;
  if (!(warmupMs > 0 && durationMs > 0 && durationMs <= 120_000)) throw new Error('--warmup and --duration are seconds (0 to 120)');
  const rounds = whole(values.rounds, 'rounds', 1, 20);
  const connections = whole(values.connections, 'connections', 1, 64);
  const counted = whole(values.count, 'count', 1, 1000);
  const before = values.before ? resolve(values.before) : null;
  if (before && !existsSync(serverFile(before))) throw new Error(`--before ${before}: no bench/targets/server.ts there`);

  const run = benchRun();
  const { started, stopped } = run;
  try {
    const t0 = performance.now();
    canPin();
    process.stdout.write(`bench rest --only writes: ${connections} connection(s); per contender ${rounds} round(s) of ${warmupMs / 1000} s warm-up + ${durationMs / 1000} s measured${before ? `; before: ${before}` : ''}\n`);
    const db = run.database(await benchDatabase());
    const { key, gameKeys, callsigns } = await seed(db, connections);
    const postmasterPid = db.postmasterPid ?? undefined;
    const notes: string[] = [];
    const servers: { server: Row['server']; child: BenchChild; port: number }[] = [];
    for (const [server, root] of [['after', here], ...(before ? [['before', before]] : [])] as [Row['server'], string][]) {
      const child = started(spawnNode(serverFile(root), { cpu: 0, env: { BENCH_DATABASE_URL: db.url } }));
      servers.push({ server, child, port: (await child.firstMessage).port as number });
    }
    if (!(await settled(servers.map((s) => s.child.pid)))) notes.push('the servers were still busy 30 s after they started: round 1 includes their start-up');

    const rows: Row[] = [];
    for (const kind of ['status', 'calls'] as const) {
      for (const s of servers) rows.push({ label: `${s.server.padEnd(6)} ${kind === 'status' ? 'unit status change' : 'call report + resolve'}`, kind, server: s.server, rounds: [] });
    }
    for (let round = 0; round < rounds; round++) {
      for (const row of rows) {
        const s = servers.find((x) => x.server === row.server)!;
        await db.sql`checkpoint`;
        const job: WritesJob = { kind: row.kind, port: s.port, key, gameKeys, callsigns, connections, warmupMs, durationMs, serverPid: s.child.pid, postmasterPid };
        const child = started(spawnNode(new URL('./load/writes.ts', import.meta.url).pathname, { cpu: 1, args: [JSON.stringify(job)] }));
        try {
          row.rounds.push((await child.firstMessage) as unknown as WritesReport);
        } finally {
          await stopped(child);
        }
      }
    }
    for (const s of servers) {
      await stopped(s.child);
      if (s.child.stderr.length) notes.push(`${s.server} server wrote to stderr: ${s.child.stderr.slice(0, 3).join(' | ')}`);
    }

    // Statements and round trips: a server of each checkout behind the counting proxy, writes one at a time.
    const wire: Record<string, { statements: number; roundTrips: number }> = {};
    for (const [server, root] of [['after', here], ...(before ? [['before', before]] : [])] as [Row['server'], string][]) {
      const proxy = await startWireCounter(db.url);
      const child = started(spawnNode(serverFile(root), { cpu: 0, env: { BENCH_DATABASE_URL: proxy.url } }));
      try {
        const port = (await child.firstMessage).port as number;
        for (const kind of ['status', 'calls'] as const) wire[`${server} ${kind}`] = await countWire(proxy, port, key, callsigns[0], kind, counted);
      } finally {
        await stopped(child);
        await proxy.close();
      }
    }

    printTable(rows, wire);
    process.stdout.write('\n');
    if (before) {
      for (const kind of ['status', 'calls'] as const) {
        const after = usPerWrite(rows.find((r) => r.kind === kind && r.server === 'after')!);
        const old = usPerWrite(rows.find((r) => r.kind === kind && r.server === 'before')!);
        const ratio = after.min / old.min;
        process.stdout.write(`${`${kind}:`.padEnd(9)}server CPU per write ${after.min.toFixed(0)} us against ${old.min.toFixed(0)} us before: ${ratio.toFixed(2)}x (target <= 0.6x)  ${ratio <= 0.6 ? 'ok' : 'MISSED'}`
          + `  (medians ${after.median.toFixed(0)} / ${old.median.toFixed(0)} us: ${(after.median / old.median).toFixed(2)}x)\n`);
      }
    }
    for (const row of rows) {
      const errs: Record<string, number> = {};
      for (const r of row.rounds) for (const [s, n] of Object.entries(r.errors)) errs[s] = (errs[s] ?? 0) + n;
      if (Object.keys(errs).length) notes.push(`${row.label.replace(/\s+/g, ' ')}: non-200 answers ${Object.entries(errs).map(([s, n]) => `${s} x${n}`).join(', ')}`);
    }
    const busiest = Math.max(...rows.flatMap((r) => r.rounds.map((x) => x.cpuMs.other / x.measuredMs)));
    if (busiest > 0.25) notes.push(`other processes used up to ${Math.round(busiest * 100)}% of a core during the measured rounds: the box was not quiet, expect noise`);
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

/** A guild with an unscoped key, one unit per connection and a call rate limit the load stays under. */
async function seed(db: BenchDatabase, connections: number) {
  await insertGuild(db.sql, GUILD, 'Bench');
  const { key } = await createApiKey(db.sql, GUILD, 'bench', null);
  // The per-key rate limit of call reports is at most 6000 a minute: the game's reports rotate over keys.
  const gameKeys: string[] = [];
  for (let i = 0; i < 16; i++) gameKeys.push((await createApiKey(db.sql, GUILD, `bench-game-${i}`, null)).key);
  const callsigns = Array.from({ length: connections }, (_, i) => `RTW-${i + 1}`);
  for (const callsign of callsigns) await db.sql`insert into units (guild_id, callsign, status) values (${GUILD}, ${callsign}, '2')`;
  await db.sql`insert into guild_call_limits (guild_id, per_minute, burst) values (${GUILD}, 6000, 1000)`;
  return { key, gameKeys, callsigns };
}

/** Statements are not the write's when a timer of the server sent them (the hub's position check, leases). */
const background = /pg_try_advisory|from event_streams where guild_id = any|gateway_lease|from guilds where|select 1$/i;

/** Statements and round trips per write over `n` writes (a pair counts as two), after one of each to warm the caches. */
async function countWire(proxy: Awaited<ReturnType<typeof startWireCounter>>, port: number, key: string, callsign: string, kind: WritesJob['kind'], n: number) {
  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  let id = 0;
  const write = async (i: number) => {
    if (kind === 'status') return send('PUT', `/units/${callsign}/status`, { status: i % 2 ? '1' : '2' });
    const externalId = `count-${process.pid}-${port}-${++id}`;
    await send('POST', '/integrations/ingame/calls', { externalId, title: 'Notruf' });
    await send('POST', `/integrations/ingame/calls/${externalId}/resolve`, { resolution: 'reached' });
  };
  await write(1);
  const from = proxy.statements.length;
  const trips = proxy.roundTrips;
  for (let i = 0; i < n; i++) await write(i);
  const writes = kind === 'status' ? n : 2 * n;
  const statements = proxy.statements.slice(from).filter((s) => !background.test(s.text)).length;
  return { statements: statements / writes, roundTrips: (proxy.roundTrips - trips) / writes };
}

const writesPerOp = (row: Row) => (row.kind === 'status' ? 1 : 2);
const perSecond = (r: WritesReport) => (r.ops * 1000) / r.measuredMs;

/** Server CPU (µs) per write of each round: the lowest and the median. */
function usPerWrite(row: Row) {
  const xs = row.rounds.map((r) => ((r.cpuMs.server ?? NaN) * 1000) / Math.max(1, r.ops * writesPerOp(row))).sort((a, b) => a - b);
  return { min: xs[0], median: xs[Math.floor((xs.length - 1) / 2)], all: xs };
}

function printTable(rows: Row[], wire: Record<string, { statements: number; roundTrips: number }>) {
  const head = ['contender', 'writes/s', 'server us/write (rounds)', 'postgres us/write', 'p50 ms/op', 'statements/write', 'round trips/write', 'other CPU'];
  const body = rows.map((row) => {
    const us = usPerWrite(row);
    const bestRound = row.rounds.reduce((a, b) => (perSecond(b) > perSecond(a) ? b : a));
    const pg = Math.min(...row.rounds.map((r) => ((r.cpuMs.postgres ?? NaN) * 1000) / Math.max(1, r.ops * writesPerOp(row))));
    const w = wire[`${row.server} ${row.kind}`];
    return [
      row.label,
      String(Math.round(perSecond(bestRound) * writesPerOp(row))),
      `${us.min.toFixed(0)} (${us.all.map((x) => x.toFixed(0)).join(' / ')})`,
      Number.isFinite(pg) ? pg.toFixed(0) : '-',
      bestRound.p50.toFixed(2),
      w ? w.statements.toFixed(2) : '-',
      w ? w.roundTrips.toFixed(2) : '-',
      `${Math.round((Math.max(...row.rounds.map((r) => r.cpuMs.other / r.measuredMs))) * 100)}%`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${body.map(line).join('\n')}\n`);
  process.stdout.write('(a call pair is two writes; server and postgres CPU: the lowest round; statements: BEGIN and COMMIT count, the server\'s timer queries do not; other: the busiest round\'s outside load, % of a core)\n');
}
