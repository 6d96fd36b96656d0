import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// tRPC and postgres.js are used through their public APIs only, so they take a range, not an exact
// version, and the range is tested at both ends: its lower end is what the lock installs (the whole
// suite runs on it); its upper end, the newest release in the range on the registry, runs the tests
// of the code that leans on them in a scratch copy of the project. Without the registry, the upper
// end is skipped with the reason.
const root = fileURLToPath(new URL('../..', import.meta.url));
const ranged = ['@trpc/server', '@trpc/client', 'postgres'];
const smokeTests = ['test/trpc/call.test.ts', 'test/trpc/public-api.test.ts', 'test/live/socket.test.ts', 'test/store/tx-connections.test.ts', 'test/timeclock/clock-facts.test.ts'];
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const installed = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

t.setTimeout(10 * 60_000);

t.test('a caret or tilde range whose lower end the lock installs', async (t) => {
  for (const name of ranged) {
    const range = manifest.dependencies[name];
    t.match(range, /^[\^~]\d+\.\d+\.\d+$/, `${name}: ${range} is a caret or tilde range`);
    t.equal(installed(name), range.slice(1), `${name}: the suite runs on the range's lower end`);
  }
});

t.test('the newest release in each range runs the tests that lean on it', async (t) => {
  const newest = new Map<string, string>();
  for (const name of ranged) {
    const found = spawnSync('npm', ['view', `${name}@${manifest.dependencies[name]}`, 'version', '--json'], { encoding: 'utf8', timeout: 60_000 });
    if (found.status !== 0) {
      const why = `the npm registry did not answer (${found.stderr.trim().split('\n')[0] || found.status}): the upper ends are not tested`;
      t.pass(why, { skip: why });
      return;
    }
    const versions = [JSON.parse(found.stdout)].flat() as string[];
    newest.set(name, versions.at(-1)!);
  }
  const newer = [...newest].filter(([name, version]) => version !== installed(name));
  if (newer.length === 0) {
    t.pass(`the newest releases in range are the installed ones (${[...newest].map(([n, v]) => `${n} ${v}`).join(', ')}): the suite tests them`);
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'dt-ranges-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const project = join(scratch, 'project');
  for (const tracked of execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)) {
    cpSync(join(root, tracked), join(project, tracked));
  }
  // node_modules: the installed packages, linked, except those under test, unpacked fresh from the registry.
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@trpc'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === '@trpc') continue;
    symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(root, 'node_modules', '@trpc'))) {
    if (!newest.has(`@trpc/${entry}`) || newest.get(`@trpc/${entry}`) === installed(`@trpc/${entry}`)) symlinkSync(join(root, 'node_modules', '@trpc', entry), join(modules, '@trpc', entry));
  }
  for (const [name, version] of newer) {
    if (name === 'postgres') rmSync(join(modules, name));
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: scratch, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    mkdirSync(join(modules, name), { recursive: true });
    execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', join(modules, name), '--strip-components=1']);
  }
  const run = spawnSync('node', ['--import', 'tsx', 'test/run.ts', ...smokeTests], { cwd: project, encoding: 'utf8', env: { ...process.env, TEST_DATABASE_URL: '' }, timeout: 8 * 60_000 });
  const summary = /(\d+) passed, (\d+) failed/.exec(run.stdout);
  t.ok(summary, `the scratch run ended with its summary (${newer.map(([n, v]) => `${n} ${v}`).join(', ')})`, { output: `${run.stdout}\n${run.stderr}`.slice(-3000), error: run.error?.message });
  t.ok(Number(summary?.[1]) > 0, `the scratch run tested something: ${summary?.[0]}`);
  t.equal(summary?.[2], '0', `no test failed on ${newer.map(([n, v]) => `${n} ${v}`).join(', ')}:\n${run.stdout.split('\n').filter((l) => l.startsWith('not ok') || l.startsWith('FAILED')).join('\n')}`);
});
