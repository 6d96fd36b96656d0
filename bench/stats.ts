/**
 * `npm run bench -- stats [--runs n] [--warmup n] [--shifts n] [--small n]`
 * (defaults: 30 measured requests per query after 3 warm-up ones; 1,000,000 and 10,000 shifts; 2–4 min in all,
 * about 15–25 s of it seeding).
 *
 * Guilds in one database, each with 500 people (bench/lib/stats-seed.ts): a big one (1,000,000 shifts
 * over three years), a small one (10,000 over the same years), and a control with the big one's
 * density over only the 4 weeks around the measured week. First the answers are checked against
 * plain SQL over the same rows (a fast wrong answer is a MISMATCH note, not a good figure). Then,
 * through the real server over HTTP, one request at a time, interleaved: leaderboard weekly and
 * alltime, a person's stats monthly and alltime, the heatmap weekly and monthly, in both guilds.
 * Targets, against references measured in the same run:
 *   weekly leaderboard at 1M  <= 2x  its time at 10k (cost follows the period, not the history);
 *   alltime leaderboard at 1M <= 10x a bare `select sum(...)` over the same rows (postgres.js, no server);
 *   chart PNGs               <= 1.2x chart.js drawn directly on a canvas (bench/lib/stats-charts.ts).
 * Informational: the weekly leaderboard at 1M against the control (same week, same density, no years
 * around it), and EXPLAIN (ANALYZE, BUFFERS) of the weekly leaderboard's statements at 1M (the
 * server's own SQL) with the index entries each scan read. The server runs pinned to CPU 0;
 * PostgreSQL is not pinned. Misses are printed as MISSED; the exit code stays 0.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { leaderboard } from '../server/domains/stats/service.ts';
import { parseDay } from '../server/domains/stats/zone.ts';
import { benchDatabase } from './lib/db.ts';
import { benchRun, canPin, settled, spawnNode } from './lib/procs.ts';
import { runChartBench } from './lib/stats-chart-run.ts';
import { checkAnswers } from './lib/stats-checks.ts';
import { captureStatements, explainStatements, formatPlans, readsWholeShifts } from './lib/stats-explain.ts';
import { queryTable, verdict, fmtMs, type QueryRow } from './lib/stats-report.ts';
import { HISTORY_YEARS, seedBenchGuilds, type SeededGuild } from './lib/stats-seed.ts';
import { getContender, timeInterleaved, type Contender } from './lib/stats-timing.ts';
import { whole } from './lib/args.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const PEOPLE = 500;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '3' },
      shifts: { type: 'string', default: '1000000' },
      small: { type: 'string', default: '10000' },
    },
    strict: true,
  });
  const runs = whole(values.runs, 'runs', 1, 10_000);
  const warmup = whole(values.warmup, 'warmup', 0, 1000);
  const bigShifts = whole(values.shifts, 'shifts', PEOPLE, 1_800_000); // more leaves slots under 7 h per shift
  const smallShifts = whole(values.small, 'small', PEOPLE, 1_800_000);
  const bigLabel = count(bigShifts), smallLabel = count(smallShifts);

  const run = benchRun();
  try {
    const t0 = performance.now();
    canPin();
    const notes: string[] = [];
    const verdicts: string[] = [];
    process.stdout.write(`bench stats: ${PEOPLE} people, ${HISTORY_YEARS} years of shifts, ${bigLabel} and ${smallLabel} shifts (and a control: the big density over 4 weeks); ${warmup} warm-up + ${runs} measured requests per query, one at a time, interleaved\n`);
    const db = run.database(await benchDatabase());

    let t = performance.now();
    const { big, small, control, mid } = await seedBenchGuilds(db.sql, { people: PEOPLE, bigShifts, smallShifts, now: Date.now() });
    process.stdout.write(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s (one INSERT … SELECT per guild, then VACUUM ANALYZE and a checkpoint); date=${mid} for daily, weekly and monthly\n`);

    const server = run.started(spawnNode(file('./targets/server.ts'), { cpu: 0, env: { BENCH_DATABASE_URL: db.url } }));
    const base = `http://127.0.0.1:${(await server.firstMessage).port as number}`;
    if (!(await settled([server.pid]))) notes.push('the server was still busy 30 s after it started: the first rounds include its start-up');

    const queries = [
      { label: 'leaderboard weekly', path: () => `/api/v1/stats/leaderboard?period=weekly&date=${mid}` },
      { label: 'leaderboard alltime', path: () => '/api/v1/stats/leaderboard?period=alltime' },
      { label: 'user stats monthly', path: (g: SeededGuild) => `/api/v1/stats/user/${g.someUserId}?period=monthly&date=${mid}` },
      { label: 'user stats alltime', path: (g: SeededGuild) => `/api/v1/stats/user/${g.someUserId}?period=alltime` },
      { label: 'heatmap weekly', path: () => `/api/v1/stats/heatmap?period=weekly&date=${mid}` },
      { label: 'heatmap monthly', path: () => `/api/v1/stats/heatmap?period=monthly&date=${mid}` },
    ];
    const bare = postgres(db.url, { max: 1, onnotice: () => {} });
    const bareSum = (g: SeededGuild): Contender => ({
      id: `bare ${g.guildId}`,
      async once() { await bare`select sum(extract(epoch from clock_out_at - clock_in_at)) from shifts where guild_id = ${g.guildId}`; },
    });
    try {
      notes.push(...(await checkAnswers(base, bare, [big, small, control], mid)));
      const contenders = [
        ...queries.flatMap((q) => [big, small].map((g) => getContender(`${q.label} ${g.guildId}`, base, q.path(g), g.key))),
        bareSum(big), bareSum(small),
        getContender(`leaderboard weekly ${control.guildId}`, base, queries[0].path(control), control.key),
      ];
      t = performance.now();
      const rounds = warmup + runs;
      const progress = process.stderr.isTTY ? (r: number) => process.stderr.write(`\rround ${r + 1}/${rounds}`) : undefined;
      const timings = await timeInterleaved(contenders, { warmup, runs, onRound: progress });
      if (progress) process.stderr.write('\r\x1b[2K');
      const byId = (id: string) => timings.find((x) => x.id === id)!;
      const rows: QueryRow[] = queries.map((q) => ({ label: `GET ${q.label}`, big: byId(`${q.label} ${big.guildId}`), small: byId(`${q.label} ${small.guildId}`) }));
      rows.push({ label: 'bare select sum(...) (postgres.js)', big: byId(`bare ${big.guildId}`), small: byId(`bare ${small.guildId}`) });
      await run.stopped(server);
      if (server.stderr.length) notes.push(`server wrote ${server.stderr.length} line(s) to stderr, first: ${server.stderr.slice(0, 3).join(' | ')}`);

      process.stdout.write(`\nrequests in ${((performance.now() - t) / 1000).toFixed(0)} s; times in ms, from the request to the last byte of the answer (p99 of ${runs} is their maximum)\n`);
      process.stdout.write(queryTable(rows, bigLabel, smallLabel));
      // Informational: the week at 1M against the same week with the same density but no years around it.
      const controlWeek = byId(`leaderboard weekly ${control.guildId}`), weekAtBig = rows[0].big;
      process.stdout.write(`history control: leaderboard weekly at ${bigLabel} over ${HISTORY_YEARS} years vs the same density over 4 weeks around it (${count(control.shifts)} shifts): p50 ${fmtMs(weekAtBig.p50)} vs ${fmtMs(controlWeek.p50)} ms = ${(weekAtBig.p50 / controlWeek.p50).toFixed(2)}x\n`);
      process.stdout.write(`${' '.repeat(17)}(informational: near 1x means the weekly cost follows the period alone; the ${bigLabel}/${smallLabel} target also carries a week of ${Math.round(bigShifts / smallShifts)}x the shifts)\n`);

      // The weekly leaderboard's own statements at 1M, explained with the server's SQL text.
      const week = { period: 'weekly', day: parseDay(mid)! } as const;
      const statements = await captureStatements(db.url, (deps) => leaderboard(deps, big.guildId, week, { limit: 10 }));
      const plans = await explainStatements(bare, statements);
      process.stdout.write(`\n${formatPlans(`EXPLAIN (ANALYZE, BUFFERS) of GET /stats/leaderboard?period=weekly&date=${mid} at ${bigLabel} (the service's statements, captured from postgres.js):`, plans)}`);
      if (readsWholeShifts(plans)) notes.push('a statement of the weekly leaderboard read the whole shifts table (see EXPLAIN above)');

      const weekly = rows[0], alltime = rows[1], bareRow = rows[rows.length - 1];
      verdicts.push(
        verdict('weekly leaderboard', weekly.big.p50 / weekly.small.p50, `its time at ${smallLabel} (p50 ${fmtMs(weekly.big.p50)} vs ${fmtMs(weekly.small.p50)} ms)`, 2).line,
        verdict('alltime leaderboard', alltime.big.p50 / bareRow.big.p50, `a bare select sum(...) at ${bigLabel} (p50 ${fmtMs(alltime.big.p50)} vs ${fmtMs(bareRow.big.p50)} ms)`, 10).line,
      );
    } finally {
      await bare.end({ timeout: 1 });
    }

    verdicts.push(...(await runChartBench(runs, notes)));
    process.stdout.write(`\n${verdicts.join('')}`);
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

/** 1000000 -> "1M", 10000 -> "10k". */
function count(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`;
  return String(n);
}
