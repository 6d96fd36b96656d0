import t from 'tap';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `npm run bench -- positions` in a tiny configuration (2 guilds × 5 units × 2 boards, windows of
// 2 s, two nodes on Redis): it must run all three phases through the real server and print its
// figures and a verdict per target. Only what the run must show is checked, never a timing.

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = ['--import', 'tsx', 'bench/run.ts', 'positions', '--guilds', '2', '--units', '5', '--boards', '2', '--seconds', '2',
  '--ingest', '1', '--warmup', '1', '--nodes', '2', '--connections', '4'];

t.test('the positions bench runs in a tiny configuration and prints its figures', async (t) => {
  // The test cluster's admin URL: the bench creates (and drops) its own database there instead of starting a cluster.
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, DATABASE_URL: process.env.TEST_ADMIN_DATABASE_URL }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 0, `exits 0:\n${out}`);
  t.notMatch(out, /FAILED|failed:/, 'no phase failed');
  t.match(out, /^bench positions: 2 guilds x 5 units at 1 Hz \(10 positions\/s in\) x 2 boards per guild \(4 subscriptions\)/m, 'states the load');

  const row = (name: string) => {
    const line = out.split('\n').find((l) => l.startsWith(name));
    t.ok(line, `prints "${name}"`);
    return line ?? '';
  };
  t.match(out, /^\s+per-event\s+coalesced\s+two nodes$/m, 'a column per phase');
  for (const name of ['server CPU (ms/s; per node)', '  delivery: the rest (ms/s)', 'PUTs / positions in (/s)', 'frames received by boards (/s)',
    'positions received (/s)', 'server RSS first → last fifth (MB)', 'server heap after GC, start → end (MB)', 'load generator CPU: boards + PUTs (ms/s)']) {
    t.match(row(name), /\d/, `"${name}" has figures`);
  }
  const ages = row('age on boards p50 / p99 (ms, minus `at`)');
  t.match(ages, /\d+ \/ \d+\s+\d+ \/ \d+\s+\d+ \/ \d+ \(B: \d+ \/ \d+\)/, 'ages per phase, and on node B');
  t.match(row('PUT errors / dropped'), /^PUT errors \/ dropped\s+0 \/ 0\s+0 \/ 0\s+0 \/ 0$/, 'every PUT answered 200');
  t.match(row('boards closed'), /^boards closed\s+0\s+0\s+0$/, 'no board was closed');
  const frames = row('frames received by boards (/s)').split(/\s{2,}/).slice(1).map((c) => Number.parseFloat(c));
  t.ok(frames[0] > 0 && frames[1] > 0 && frames[2] > 0, `boards received frames in every phase: ${frames.join(', ')}`);
  t.ok(frames[1] <= 4 * 1.5, `coalesced: at most about one frame per board per second (${frames[1]}/s for 4 boards)`);
  for (const target of ['frames, per-event (one per position) / coalesced', 'server CPU, per-event / coalesced', '  delivery CPU alone',
    'age p99 on the boards, coalesced', 'server heap after GC over', 'age p99 on node B']) {
    t.match(out, new RegExp(`^${target.replace(/[()/]/g, '\\$&')}.*\\(target [<>]= [^)]+\\)  (PASS|MISSED)$`, 'm'), `a verdict for "${target.trim()}"`);
  }
});

t.test('npm run bench: --help describes a benchmark; a mistyped option is named, without a stack trace', async (t) => {
  const runBench = async (...benchArgs: string[]) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...benchArgs], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    return { code: await new Promise<number | null>((resolve) => child.once('exit', resolve)), out };
  };
  const help = await runBench('positions', '--help');
  t.equal(help.code, 0);
  t.match(help.out, /200 guilds x 50 units/, 'the summary');
  t.match(help.out, /bench\/README\.md, section "positions"/, 'where the options are described');
  const typo = await runBench('positions', '--gilds', '2');
  t.equal(typo.code, 2, 'exit 2 for a usage error');
  t.match(typo.out, /bench positions: Unknown option '--gilds'/);
  t.notMatch(typo.out, /\n\s+at /, 'no stack trace');
  const unknown = await runBench('nope');
  t.equal(unknown.code, 1);
  t.match(unknown.out, /unknown benchmark "nope"[\s\S]*positions/, 'the list of benchmarks');
});
