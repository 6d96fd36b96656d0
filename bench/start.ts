/**
 * `npm run bench -- start [--runs n] [--before <git ref>] [--no-loader]` (defaults: 5 runs; about 1-2 min).
 *
 * Whole-process figures of starting the product, each contender on its own DATA_DIR (embedded PostgreSQL):
 *   first start   spawn -> GET /api/v1/health 200 on an empty DATA_DIR (initdb, migrations, demo seed); one run
 *   restart       spawn -> health 200 on that DATA_DIR, its PostgreSQL stopped with the server before (target <= 1.5 s),
 *                 and the user + system CPU the server process had used by then (what a busy box does not stretch)
 *   idle RSS      the server's resident memory once it has settled after a restart (target <= 120 MB)
 *   login-link,   one CLI process each (GNU time: wall, user + system CPU, peak RSS) while the server runs
 *   key create    (target <= 1 s wall)
 * Contenders, run in turn (A B A B ...) so drift of the shared box hits each alike:
 *   compiled      node server/bin/dispatch-terminal.mjs: dist/, what `npm start` and the bin run (built first here when stale)
 *   tsx loader    node --import tsx server/cli.ts: the same sources through tsx's loader, the way `npm start`
 *                 ran before the compiled build (the board is prebuilt for it too, so it shows the loader's share)
 *   --before REF  that commit's own bin, unpacked with git archive beside this node_modules: the product as it was
 * Figures are min / median / max over the runs; misses print MISSED, the exit code stays 0.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, root, targets } from '../server/build-check.mjs';
import { whole } from './lib/args.ts';
import { settled } from './lib/procs.ts';
import { freePort, hasGnuTime, median, rssMb, serveUntilHealthy, spread, timeCommand, type Launcher } from './lib/start-procs.ts';
import { table } from './lib/table.ts';

const DEMO_GUILD = '100000000000000001';
const DEMO_ADMIN = '200000000000000001';

interface Figures { first: number[]; restart: number[]; restartCpu: number[]; rss: number[]; cliWall: Record<string, number[]>; cliCpu: Record<string, number[]>; cliPeak: Record<string, number[]> }

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '5' }, before: { type: 'string' }, 'no-loader': { type: 'boolean' } }, strict: true });
  const runs = whole(values.runs, 'runs', 1, 50);
  if (!hasGnuTime()) throw new Error('the start bench times CLI processes with GNU time: apt-get install time');
  const t0 = performance.now();
  await ensureBuilt(targets.product, (line) => process.stdout.write(`${line}\n`));
  await ensureBuilt(targets.boardTest, (line) => process.stdout.write(`${line}\n`));

  const scratch: string[] = [];
  const launchers: Launcher[] = [{ label: 'compiled', cwd: root, nodeArgs: [join(root, 'server/bin/dispatch-terminal.mjs')] }];
  if (!values['no-loader']) launchers.push({ label: 'tsx loader', cwd: root, nodeArgs: ['--import', 'tsx', join(root, 'server/cli.ts')] });
  if (values.before) launchers.push(unpacked(values.before, scratch));
  const figures = new Map<Launcher, Figures>(launchers.map((l) => [l, { first: [], restart: [], restartCpu: [], rss: [], cliWall: {}, cliCpu: {}, cliPeak: {} }]));
  const dataDirs = new Map(launchers.map((l) => [l, mkdtempSync(join(tmpdir(), 'dt-bench-start-'))]));
  scratch.push(...dataDirs.values());
  const env = (l: Launcher) => ({ DATA_DIR: dataDirs.get(l)!, DEMO: '1' });
  /** Runs in which the bin built dist/ first (the sources changed during the bench): their figures include a build. */
  let rebuilt = 0;
  const rebuiltIn = (output: string) => { if (/^building /m.test(output)) rebuilt++; };
  /** Servers running now: stopped (with their PostgreSQL) when the bench is interrupted. */
  const running = new Set<{ stop(): Promise<void> }>();
  const interrupted = () => void Promise.all([...running].map((s) => s.stop())).finally(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const serve = async (l: Launcher) => {
    const s = await serveUntilHealthy(l, env(l), await freePort());
    running.add(s);
    return { ...s, stop: async () => { await s.stop(); running.delete(s); } };
  };

  try {
    for (const l of launchers) {
      const s = await serve(l);
      figures.get(l)!.first.push(s.healthMs);
      rebuiltIn(s.output());
      await s.stop();
    }
    const commands: Record<string, (i: number) => string[]> = {
      'login-link': () => ['login-link', '--guild', DEMO_GUILD, '--user', DEMO_ADMIN],
      'key create': (i) => ['key', 'create', '--guild', DEMO_GUILD, '--name', `bench ${i}`],
    };
    for (let i = 0; i < runs; i++) {
      for (const l of launchers) {
        const f = figures.get(l)!;
        const s = await serve(l);
        try {
          f.restart.push(s.healthMs);
          f.restartCpu.push(s.healthCpuMs);
          rebuiltIn(s.output());
          await settled([s.pid], { windowMs: 500, busyMs: 10, maxMs: 20_000 });
          f.rss.push(rssMb(s.pid));
          for (const [name, argv] of Object.entries(commands)) {
            const t = timeCommand(l, argv(i), env(l));
            if (t.status !== 0) throw new Error(`${l.label}: ${name} failed (${t.status}): ${t.stderr}`);
            rebuiltIn(t.stderr);
            (f.cliWall[name] ??= []).push(t.wallMs);
            (f.cliCpu[name] ??= []).push(t.cpuMs);
            (f.cliPeak[name] ??= []).push(t.peakMb);
          }
        } finally {
          await s.stop();
        }
      }
    }
    report(launchers, figures, runs);
    if (rebuilt) process.stdout.write(`note: in ${rebuilt} run(s) the bin built dist/ first (the sources changed meanwhile): those figures include a build\n`);
    process.stdout.write(`note: load average at the end ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (${cpus().length} cores)\n`);
    process.stdout.write(`done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }
}

/** `ref`'s tree (server, board, sql, client-sdk, package.json, tsconfig.json) in a scratch directory, using this node_modules. */
function unpacked(ref: string, scratch: string[]): Launcher {
  const dir = mkdtempSync(join(tmpdir(), 'dt-bench-before-'));
  scratch.push(dir);
  const tar = execFileSync('git', ['archive', ref], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const short = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  return { label: `before (${short})`, cwd: dir, nodeArgs: [join(dir, 'server/bin/dispatch-terminal.mjs')] };
}

function report(launchers: Launcher[], figures: Map<Launcher, Figures>, runs: number) {
  const s = (ms: number[]) => spread(ms.map((x) => x / 1000), 2);
  const rows: string[][] = [
    ['first start -> health, s (1 run)', ...launchers.map((l) => s(figures.get(l)!.first))],
    [`restart -> health, s (${runs})`, ...launchers.map((l) => s(figures.get(l)!.restart))],
    ['restart: server CPU by then, s', ...launchers.map((l) => s(figures.get(l)!.restartCpu))],
    ['idle RSS after restart, MB', ...launchers.map((l) => spread(figures.get(l)!.rss, 0))],
  ];
  for (const name of Object.keys(figures.get(launchers[0])!.cliWall)) {
    rows.push([`${name}: wall, s`, ...launchers.map((l) => s(figures.get(l)!.cliWall[name]))]);
    rows.push([`${name}: user+sys CPU, s`, ...launchers.map((l) => s(figures.get(l)!.cliCpu[name]))]);
    rows.push([`${name}: peak RSS, MB`, ...launchers.map((l) => spread(figures.get(l)!.cliPeak[name], 0))]);
  }
  process.stdout.write(`\nNode ${process.version}; min / median / max\n${table(['', ...launchers.map((l) => l.label)], rows)}\n`);
  const c = figures.get(launchers[0])!;
  const verdict = (name: string, value: number, target: number, unit: string) =>
    process.stdout.write(`${`${name}:`.padEnd(18)}${value.toFixed(unit === 'MB' ? 0 : 2)} ${unit} median (target <= ${target} ${unit})  ${value <= target ? 'ok' : 'MISSED'}\n`);
  verdict('restart', median(c.restart) / 1000, 1.5, 's');
  verdict('idle RSS', median(c.rss), 120, 'MB');
  for (const name of Object.keys(c.cliWall)) verdict(name, median(c.cliWall[name]) / 1000, 1, 's');
  if (launchers.length > 1) {
    for (const l of launchers.slice(1)) {
      const f = figures.get(l)!;
      process.stdout.write(`${l.label} / compiled, medians: restart ${(median(f.restart) / median(c.restart)).toFixed(1)}x, idle RSS ${(median(f.rss) / median(c.rss)).toFixed(1)}x, `
        + `${Object.keys(c.cliWall).map((n) => `${n} ${(median(f.cliWall[n]) / median(c.cliWall[n])).toFixed(1)}x`).join(', ')}\n`);
    }
  }
  process.stdout.write('note: the CLI runs beside the running server (it uses the server\'s PostgreSQL); `npm start` adds npm\'s own start-up to the figures of the bin\n');
}
