/**
 * `npm run bench -- medic [--batches n] [--warmup n] [--rounds n] [--citizens n] [--per-patient n] [--wal-events n] [--guilds n] [--profile dir]`
 * (defaults: 300 measured batches of 100 events after 20 warm-up ones, 3 rounds, 50 patients in every
 * batch, a new patient in a slot every 100 of its events, 100,000 events through the queue; 2–3 min).
 *
 * Medic ingest (issue 20), events of a busy server (85 % vitals, injuries, treatments; every batch touches
 * each citizen's patient file, and the server emits one topic notice per touched file and batch):
 *   ingest:  POST /api/v1/medic/events on the real server, batches of 100, one unscoped key, one batch
 *            in flight (the game queue's pattern)  vs  the same rows inserted by raw postgres.js multi-row
 *            inserts into the same tables, one transaction per batch (target >= 0.5x)
 *   guilds:  (informational, one run each, --guilds n, 0 = off) n game servers of n guilds sending at once, one
 *            batch in flight each, against the raw inserts of the same rows on n connections at once
 *   queue:   the medic queue (client-sdk/medic) carrying 100,000 events to the server: bytes its
 *            write-ahead log wrote to disk per event (records, tombstones, ack files, rewrites) against
 *            the JSON bytes of the events (the write amplification), and its enqueue cost (informational)
 * Contenders alternate over the rounds; the best round of each counts. The server runs pinned to CPU 0,
 * the load (and the raw SQL loop, and the queue) to CPU 1; PostgreSQL is not pinned. Misses are printed
 * as MISSED; the exit code stays 0.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../server/domains/apikeys/service.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { benchDatabase } from './lib/db.ts';
import type { MedicJob, MedicLoadReport, WalReport } from './lib/medic-load.ts';
import { benchRun, canPin, settled, spawnNode } from './lib/procs.ts';
import { whole } from './lib/args.ts';
import { table } from './lib/table.ts';

const GUILD = '900000000000000020';
const file = (rel: string) => new URL(rel, import.meta.url).pathname;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      batches: { type: 'string', default: '300' },
      warmup: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      citizens: { type: 'string', default: '50' },
      'per-patient': { type: 'string', default: '100' },
      'wal-events': { type: 'string', default: '100000' },
      guilds: { type: 'string', default: '4' },
      profile: { type: 'string' },
    },
    strict: true,
  });
  const batches = whole(values.batches, 'batches', 1, 100_000);
  const warmup = whole(values.warmup, 'warmup', 0, 10_000);
  const rounds = whole(values.rounds, 'rounds', 1, 20);
  const mix = { citizens: whole(values.citizens, 'citizens', 1, 100), perPatient: whole(values['per-patient'], 'per-patient', 1, 10_000_000) };
  const walEvents = whole(values['wal-events'], 'wal-events', 100, 10_000_000);
  const guilds = whole(values.guilds, 'guilds', 0, 32);

  const run = benchRun();
  try {
    const t0 = performance.now();
    canPin();
    const notes: string[] = [];
    process.stdout.write(`bench medic: ${rounds} round(s) of ${warmup} warm-up + ${batches} measured batches of 100 events per contender (85 vitals, 10 injuries, 5 treatments; ${mix.citizens} patients, a new one per slot every ${mix.perPatient} events); ${walEvents} events through the queue\n`);
    const db = run.database(await benchDatabase());
    await insertGuild(db.sql, GUILD, 'Bench');
    const { key } = await createApiKey(db.sql, GUILD, 'game', null);
    const many: { id: string; key: string }[] = []; // --guilds: game servers of their own guilds sending at once
    for (let k = 1; k <= guilds; k++) {
      const id = String(BigInt(GUILD) + BigInt(k));
      await insertGuild(db.sql, id, `Bench ${k}`);
      many.push({ id, key: (await createApiKey(db.sql, id, 'game', null)).key });
    }
    const profileDir = values.profile ? resolve(values.profile) : null;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const server = run.started(spawnNode(file('./targets/server.ts'), {
      cpu: 0, env: { BENCH_DATABASE_URL: db.url }, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    }));
    const port = (await server.firstMessage).port as number;
    if (!(await settled([server.pid]))) notes.push('the server was still busy 30 s after it started: round 1 includes its start-up');

    const load = async <T>(job: MedicJob): Promise<T> => {
      const child = run.started(spawnNode(file('./lib/medic-load.ts'), { cpu: 1, args: [JSON.stringify(job)] }));
      try {
        return (await child.firstMessage) as unknown as T;
      } finally {
        await run.stopped(child);
      }
    };
    const eventTime = Date.now() - 86_400_000;
    const common = { t0: eventTime, mix, serverPid: server.pid, postmasterPid: db.postmasterPid ?? undefined, warmup, batches };
    const rest: MedicLoadReport[] = [], sql: MedicLoadReport[] = [];
    for (let r = 0; r < rounds; r++) {
      await db.sql`checkpoint`;
      rest.push(await load<MedicLoadReport>({ kind: 'rest', port, key, prefix: `rest${r}`, ...common }));
      await db.sql`checkpoint`;
      sql.push(await load<MedicLoadReport>({ kind: 'sql', databaseUrl: db.url, guildId: GUILD, prefix: `sql${r}`, ...common }));
    }
    let par: { rest: MedicLoadReport; sql: MedicLoadReport } | null = null;
    if (guilds) {
      await db.sql`checkpoint`;
      const parRest = await load<MedicLoadReport>({ kind: 'rest', port, key, keys: many.map((g) => g.key), prefix: 'par', ...common });
      await db.sql`checkpoint`;
      const parSql = await load<MedicLoadReport>({ kind: 'sql', databaseUrl: db.url, guildId: GUILD, guildIds: many.map((g) => g.id), prefix: 'psql', ...common });
      par = { rest: parRest, sql: parSql };
    }
    await db.sql`checkpoint`;
    const wal = await load<WalReport>({ kind: 'wal', port, key, prefix: 'wal', t0: eventTime, mix, events: walEvents });
    await run.stopped(server);
    if (server.stderr.length) notes.push(`server wrote ${server.stderr.length} line(s) to stderr, first: ${server.stderr.slice(0, 3).join(' | ')}`);
    for (const [name, reports] of [['REST', rest], ['raw SQL', sql], ['REST, several guilds', par ? [par.rest] : []], ['raw SQL, several guilds', par ? [par.sql] : []]] as const) {
      const errors = reports.flatMap((x) => x.errors);
      if (errors.length) notes.push(`${name}: ${errors.length} failed batch(es), first: ${errors[0]}`);
    }
    if (wal.errors.length) notes.push(`queue: ${wal.errors.length} warning(s), first: ${wal.errors[0]}`);

    // Every event of every contender is stored once: a fast wrong answer is not a good figure.
    const perContender = rounds * (warmup + batches) * 100;
    /** Events stored (vital samples and other events) whose ids start with `prefix`. */
    const storedCount = async (prefix: string) => {
      const [{ n }] = await db.sql`select (select count(*) from medic_vitals where event_id like ${`${prefix}%`})
        + (select count(*) from medic_events where event_id like ${`${prefix}%`}) as n`;
      return Number(n);
    };
    const restRows = await storedCount('rest');
    if (restRows !== perContender) notes.push(`MISMATCH: the server stored ${restRows} REST events, expected ${perContender}`);
    if (par) {
      const parRows = await storedCount('par');
      if (parRows !== guilds * (warmup + batches) * 100) notes.push(`MISMATCH: the server stored ${parRows} events of the ${guilds} guilds, expected ${guilds * (warmup + batches) * 100}`);
    }
    const walRows = await storedCount('wal-');
    if (walRows !== walEvents) notes.push(`MISMATCH: the server stored ${walRows} events sent through the queue, expected ${walEvents}`);

    const rate = (x: MedicLoadReport) => (x.events * 1000) / x.measuredMs;
    const best = (xs: MedicLoadReport[]) => xs.reduce((a, b) => (rate(b) > rate(a) ? b : a));
    const pct = (ms: number | null, x: MedicLoadReport) => (ms === null ? '-' : `${Math.round((ms * 100) / x.measuredMs)}%`);
    const rows = [['server  POST /medic/events, 100 per batch', rest], ['raw SQL multi-row inserts, 1 tx per batch', sql]] as const;
    const head = ['contender', 'best events/s', 'all rounds', 'batch p50 ms', 'p99 ms', 'server CPU', 'postgres CPU', 'loadgen CPU'];
    const body = rows.map(([label, xs]) => {
      const b = best(xs);
      return [label, String(Math.round(rate(b))), xs.map((x) => Math.round(rate(x))).join(' / '), b.p50.toFixed(2), b.p99.toFixed(2), pct(b.cpuMs.server, b), pct(b.cpuMs.postgres, b), pct(b.cpuMs.loadgen, b)];
    });
    process.stdout.write(`\n${table(head, body)}`);
    process.stdout.write('(CPU of the best round as % of one core over the measured window)\n\n');

    const ratio = rate(best(rest)) / rate(best(sql));
    process.stdout.write(`${'ingest:'.padEnd(10)}${ratio.toFixed(2)}x raw postgres.js multi-row inserts (target >= 0.5x)  ${ratio >= 0.5 ? 'ok' : 'MISSED'}\n`);
    const paired = rest.map((x, i) => rate(x) / rate(sql[i])).sort((a, b) => a - b);
    process.stdout.write(`${''.padEnd(10)}(round by round: ${paired.map((x) => x.toFixed(2)).join(', ')}x)\n`);
    if (par) {
      const r = rate(par.rest) / rate(par.sql);
      process.stdout.write(`${'guilds:'.padEnd(10)}${guilds} game servers (own guild and key, one batch in flight each): server ${Math.round(rate(par.rest))} events/s (p50 ${par.rest.p50.toFixed(2)} ms, server CPU ${pct(par.rest.cpuMs.server, par.rest)}, postgres ${pct(par.rest.cpuMs.postgres, par.rest)})\n`);
      process.stdout.write(`${''.padEnd(10)}vs raw inserts on ${guilds} connections ${Math.round(rate(par.sql))} events/s (p50 ${par.sql.p50.toFixed(2)} ms, postgres ${pct(par.sql.cpuMs.postgres, par.sql)}): ${r.toFixed(2)}x (informational, one run)\n`);
    }
    const perEvent = wal.walBytes / wal.events, jsonPerEvent = wal.jsonBytes / wal.events;
    process.stdout.write(`${'queue:'.padEnd(10)}${perEvent.toFixed(1)} bytes written to disk per event against ${jsonPerEvent.toFixed(1)} JSON bytes per event: write amplification ${(wal.walBytes / wal.jsonBytes).toFixed(3)}x\n`);
    process.stdout.write(`${''.padEnd(10)}(${wal.events} events, ${wal.walBytes} bytes: records + ack files; enqueue ${wal.enqueueUs.toFixed(1)} us/event (one write(2) each); delivered through the queue at ${Math.round((wal.applied * 1000) / wal.elapsedMs)} events/s; ${wal.dirBytesAfter} bytes left on disk after the last ack)\n`);
    if (profileDir) notes.push(`server CPU profile (.cpuprofile, main thread = *.0.001.*) written to ${profileDir}`);
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    if (!db.postmasterPid) notes.push('DATABASE_URL given: PostgreSQL CPU not measured');
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}
