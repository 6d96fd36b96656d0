/**
 * `npm run bench -- incidents [--runs n] [--warmup n] [--sheets n] [--small n] [--noise n]`
 * (defaults: 30 measured requests per query after 3 warm-up ones; 100,000 sheets, a reference guild
 * of 1,000, and two noise guilds of 50,000 each in the same tables; about 1–2 min in all).
 *
 * Incident history search (GET /incidents?q=&unit=&from=&to=&cursor=, issue 29) through the real
 * server over HTTP, one request at a time, interleaved: the first page, rare and common words,
 * a street, a caller, two words, a unit, a week, a deep page by cursor, a number, words that match
 * nothing (3 letters: the trigram index answers; 2 letters: no trigram, the guild's sheets are read).
 * Each query runs against the big guild and against the reference guild with the same mix of
 * sheets; the ratio says how much the 100x history costs. Answers are checked first (each page
 * against the same filter in plain SQL over the search text, and paging through a whole result
 * without gaps or duplicates). Then EXPLAIN (ANALYZE, BUFFERS) of each query's statement at the big
 * guild, with the server's own SQL text (captured from postgres.js). Target: for every query with
 * a word of 3 letters or more, a unit, a week, a number or no filter, p50 at 100k <= 2x p50 at 1k
 * (the history's size costs at most that; absolute times on a shared 2-core box mean little);
 * misses are printed as MISSED, the exit code stays 0.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { listIncidents } from '../server/domains/incidents/search.ts';
import { ListIncidents } from '../server/domains/incidents/schema.ts';
import { encodeCursor } from '../server/domains/incidents/cursor.ts';
import { benchDatabase } from './lib/db.ts';
import { benchRun, canPin, settled, spawnNode } from './lib/procs.ts';
import { captureStatements, explainStatements, formatPlans } from './lib/stats-explain.ts';
import { fmtMs, queryTable, verdict, type QueryRow } from './lib/stats-report.ts';
import { getContender, getJson, timeInterleaved } from './lib/stats-timing.ts';
import { seedIncidentGuild, type SeededIncidents } from './lib/incidents-seed.ts';
import { whole } from './lib/args.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const TARGET_RATIO = 2;

interface Query { label: string; params: (g: SeededIncidents) => Record<string, string>; indexed: boolean }

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '30' }, warmup: { type: 'string', default: '3' },
      sheets: { type: 'string', default: '100000' }, small: { type: 'string', default: '1000' }, noise: { type: 'string', default: '50000' },
    },
    strict: true,
  });
  const runs = whole(values.runs, 'runs', 1, 10_000);
  const warmup = whole(values.warmup, 'warmup', 0, 1000);
  const bigSheets = whole(values.sheets, 'sheets', 1000, 2_000_000);
  const smallSheets = whole(values.small, 'small', 100, 2_000_000);
  const noiseSheets = whole(values.noise, 'noise', 0, 2_000_000);

  const run = benchRun();
  try {
    const t0 = performance.now();
    const notes: string[] = [];
    process.stdout.write(`bench incidents: ${bigSheets} sheets in one guild, ${smallSheets} in a reference guild, 2 noise guilds of ${noiseSheets}; ${warmup} warm-up + ${runs} measured requests per query, one at a time, interleaved\n`);
    const db = run.database(await benchDatabase());
    let t = performance.now();
    const now = Date.now();
    const big = await seedIncidentGuild(db.sql, '900000000000000301', bigSheets, now);
    const small = await seedIncidentGuild(db.sql, '900000000000000302', smallSheets, now);
    for (const id of ['900000000000000303', '900000000000000304']) if (noiseSheets) await seedIncidentGuild(db.sql, id, noiseSheets, now);
    await db.sql`vacuum (analyze) incidents, incident_units, incident_entries, calls, units, guilds`;
    await db.sql`checkpoint`;
    process.stdout.write(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s (INSERT … SELECT per table, the search text by sql/0023's backfill, then VACUUM ANALYZE)\n`);

    // A week about 400 days back (the same days in both guilds).
    const weekStart = new Date(now - 400 * 86_400_000);
    const week = { from: weekStart.toISOString().slice(0, 10), to: new Date(weekStart.getTime() + 6 * 86_400_000).toISOString().slice(0, 10) };
    const queries: Query[] = [
      { label: 'first page (50)', params: () => ({ limit: '50' }), indexed: true },
      { label: 'q=brand (common)', params: () => ({ q: 'brand', limit: '50' }), indexed: true },
      { label: 'q=gasaustritt (rare)', params: () => ({ q: 'gasaustritt', limit: '50' }), indexed: true },
      { label: 'q=hafenstraße', params: () => ({ q: 'hafenstraße', limit: '50' }), indexed: true },
      { label: 'q=greta kowalski', params: () => ({ q: 'greta kowalski', limit: '50' }), indexed: true },
      { label: 'q=brand hafenstraße', params: () => ({ q: 'brand hafenstraße', limit: '50' }), indexed: true },
      { label: 'unit=RTW 7', params: () => ({ unit: 'RTW 7', limit: '50' }), indexed: true },
      { label: 'from/to a week', params: () => ({ ...week, limit: '50' }), indexed: true },
      { label: 'q=brand, page at half', params: (g) => ({ q: 'brand', limit: '50', cursor: encodeCursor(Math.floor(g.sheets / 2)) }), indexed: true },
      { label: 'q=#number', params: (g) => ({ q: `#${Math.floor(g.sheets * 0.4711)}` }), indexed: true },
      { label: 'q=zzq (no match)', params: () => ({ q: 'zzq', limit: '50' }), indexed: true },
      { label: 'q=zq (2 letters, none)', params: () => ({ q: 'zq', limit: '50' }), indexed: false },
    ];
    const path = (q: Query, g: SeededIncidents) => `/api/v1/incidents?${new URLSearchParams(q.params(g))}`;

    const server = run.started(spawnNode(file('./targets/server.ts'), { cpu: 0, env: { BENCH_DATABASE_URL: db.url } }));
    const base = `http://127.0.0.1:${(await server.firstMessage).port as number}`;
    if (!(await settled([server.pid]))) notes.push('the server was still busy 30 s after it started: the first rounds include its start-up');
    const bare = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      notes.push(...(await checkAnswers(base, bare, big, queries)));
      const contenders = queries.flatMap((q) => [big, small].map((g) => getContender(`${q.label} ${g.guildId}`, base, path(q, g), g.key)));
      t = performance.now();
      const timings = await timeInterleaved(contenders, { warmup, runs });
      await run.stopped(server);
      if (server.stderr.length) notes.push(`server wrote ${server.stderr.length} line(s) to stderr, first: ${server.stderr.slice(0, 3).join(' | ')}`);
      const byId = (id: string) => timings.find((x) => x.id === id)!;
      const rows: QueryRow[] = queries.map((q) => ({ label: `GET ${q.label}`, big: byId(`${q.label} ${big.guildId}`), small: byId(`${q.label} ${small.guildId}`) }));
      process.stdout.write(`\nrequests in ${((performance.now() - t) / 1000).toFixed(0)} s; times in ms, from the request to the last byte of the answer (p99 of ${runs} is their maximum)\n`);
      process.stdout.write(queryTable(rows, count(bigSheets), count(smallSheets)));

      for (const q of queries) {
        const statements = (await captureStatements(db.url, (deps) => listIncidents({ ...deps, db: { begin: (fn: (sql: unknown) => unknown) => fn(deps.sql) } } as never, big.guildId, ListIncidents.parse(q.params(big)) ?? {})))
          .filter((x) => !/^\s*set /i.test(x.text));
        const plans = (await explainStatements(bare, statements)).map((p) => ({ ...p, label: 'the page and its rows' }));
        process.stdout.write(`\n${formatPlans(`EXPLAIN (ANALYZE, BUFFERS) of GET /incidents?${new URLSearchParams(q.params(big))} at ${count(bigSheets)}:`, plans)}`);
      }
      process.stdout.write('\n');
      for (const [i, q] of queries.entries()) {
        if (!q.indexed) continue;
        const { big: at, small: ref } = rows[i];
        process.stdout.write(verdict(q.label, at.p50 / ref.p50, `p50 at ${count(smallSheets)} (${fmtMs(at.p50)} vs ${fmtMs(ref.p50)} ms; p99 ${fmtMs(at.p99)} ms)`, TARGET_RATIO).line);
      }
    } finally {
      await bare.end({ timeout: 1 });
    }
    if (!canPin()) notes.push('taskset missing: nothing was pinned');
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    await run.close();
  }
}

/**
 * A fast wrong answer is no figure: each query's first page against plain SQL over the search
 * text, and one query paged to its end (every sheet once, newest first).
 */
async function checkAnswers(base: string, bare: postgres.Sql<{}>, g: SeededIncidents, queries: Query[]): Promise<string[]> {
  const notes: string[] = [];
  for (const q of queries) {
    const p = q.params(g);
    const page = await getJson(base, `/api/v1/incidents?${new URLSearchParams(p)}`, g.key);
    const got = (page.incidents as { number: number }[]).map((i) => i.number);
    if (!p.q || p.q.startsWith('#') || p.cursor || p.from) continue;
    const words = p.q.split(/\s+/).map((w) => `%${w}%`);
    const want = (await bare`select number from incidents where guild_id = ${g.guildId}
      and search_text like all(${words}::text[]) order by number desc limit ${Number(p.limit ?? 100)}`).map((r) => r.number as number);
    if (JSON.stringify(got) !== JSON.stringify(want)) notes.push(`MISMATCH ${q.label}: ${got.slice(0, 5).join(',')}… vs SQL ${want.slice(0, 5).join(',')}…`);
  }
  const seen: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await getJson(base, `/api/v1/incidents?q=gasaustritt&limit=500${cursor ? `&cursor=${cursor}` : ''}`, g.key);
    seen.push(...(page.incidents as { number: number }[]).map((i) => i.number));
    cursor = page.nextCursor as string | null;
  } while (cursor);
  const [{ n }] = await bare`select count(*)::int as n from incidents where guild_id = ${g.guildId} and search_text like '%gasaustritt%'`;
  const ordered = seen.every((x, i) => i === 0 || x < seen[i - 1]);
  if (seen.length !== n || !ordered) notes.push(`MISMATCH paging q=gasaustritt: ${seen.length} sheets over the pages (ordered: ${ordered}), SQL counts ${n}`);
  else notes.push(`checked: first pages match plain SQL; q=gasaustritt paged in 500s gives all ${n} sheets once, newest first`);
  return notes;
}

function count(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`;
  return String(n);
}
