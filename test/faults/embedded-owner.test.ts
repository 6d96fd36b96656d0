/**
 * Who owns the embedded PostgreSQL (issue 15, item 8), with real `serve` processes on their own
 * DATA_DIR: a cluster left running by a server that was SIGKILLed is taken over by the next server,
 * which stops it when it stops; the CLI run while a server is still starting waits for the cluster.
 */
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPostmasterPid } from '../../server/store/pg-process.ts';
import { removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { exitedWithin, isAlive } from '../../server/store/pid.ts';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The environment of a server or CLI on `dataDir` with its embedded PostgreSQL (no DATABASE_URL). */
function envFor(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', DEMO: '0', LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'HOST']) delete env[name];
  return env;
}

interface Serving { child: ChildProcess; url: string; stderr: () => string; exited: Promise<number | null> }

/** `serve` on `dataDir`; resolves once it listens. Killed (SIGKILL) at the end of the test if still running. */
async function serve(t: Test, dataDir: string): Promise<Serving> {
  const child = spawn(process.execPath, [bin, 'serve'], { env: envFor(dataDir), cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}): ${out}${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

function cli(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: envFor(dataDir), cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const state = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8'));

t.test('a cluster orphaned by a SIGKILLed server is taken over by the next server and stopped with it', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-orphan-'));
  t.teardown(() => removeDataDir(dataDir));
  const first = await serve(t, dataDir);
  const postmaster = readPostmasterPid(join(dataDir, 'pg'))!;
  t.equal(state(dataDir).owner, first.child.pid, 'the first server owns its cluster');
  first.child.kill('SIGKILL');
  await first.exited;
  t.ok(isAlive(postmaster), 'its PostgreSQL outlived it: an orphan');

  const second = await serve(t, dataDir);
  t.match(second.stderr(), /taking over the embedded PostgreSQL whose owner is gone/, 'the next server says it takes the orphan over');
  t.equal(readPostmasterPid(join(dataDir, 'pg')), postmaster, 'the same postmaster, not a second one');
  t.equal(state(dataDir).owner, second.child.pid, 'and records itself as its owner');
  const ready = await fetch(`${second.url}/api/v1/ready`);
  t.equal(ready.status, 200, 'it serves from that cluster');

  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0, 'the second server stops cleanly');
  t.ok(await exitedWithin(postmaster, 15_000), 'and stops the PostgreSQL it took over');
  t.equal(state(dataDir).owner, undefined, 'which has no owner any more');
  t.notOk(existsSync(join(dataDir, 'pg', 'postmaster.pid')), 'shut down cleanly (no postmaster.pid left)');
});

t.test('the CLI run while a server is starting waits for the cluster', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-cli-start-'));
  t.teardown(() => removeDataDir(dataDir));
  // The CLI commands start while the server initialises a new cluster, starts it and migrates.
  const serving = serve(t, dataDir);
  const runs = await Promise.all([0, 150, 400, 800, 1500].map(async (delay, i) => {
    await new Promise((r) => setTimeout(r, delay));
    return cli(dataDir, ['guild', 'create', '--id', `g${i}`, '--name', `Wache ${i}`]);
  }));
  const server = await serving;
  for (const [i, run] of runs.entries()) {
    t.equal(run.code, 0, `CLI ${i} succeeded${run.code ? `: ${run.stderr.trim().split('\n').pop()}` : ''}`);
    t.equal(run.stdout, `guild g${i} created\n`);
  }
  t.equal(state(dataDir).owner, server.child.pid, 'the server owns the cluster, not a CLI');
  const postmaster = readPostmasterPid(join(dataDir, 'pg'))!;
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
  t.ok(await exitedWithin(postmaster, 15_000), 'and stops it when it stops');
});

t.test('a server started while a CLI command runs the cluster takes it over at once; the CLI leaves it running', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-cli-owner-'));
  t.teardown(() => removeDataDir(dataDir));
  const fixture = fileURLToPath(new URL('../store/fixtures/hold-embedded.ts', import.meta.url));
  const holder = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir, 'cli'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const holderExit = new Promise<number | null>((resolve) => holder.once('exit', (code) => resolve(code)));
  t.teardown(() => holder.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on('data', (d: Buffer) => /ready \d+/.test(d.toString()) && resolve());
    void holderExit.then((code) => reject(new Error(`holder exited (${code})`)));
  });
  const postmaster = readPostmasterPid(join(dataDir, 'pg'))!;

  const began = Date.now();
  const server = await serve(t, dataDir);
  t.match(server.stderr(), /taking over the embedded PostgreSQL from the CLI command that started it/, 'the server takes the CLI\'s cluster over');
  t.ok(Date.now() - began < 15_000, 'without waiting for the CLI to end');
  holder.kill('SIGTERM');
  t.equal(await holderExit, 0, 'the CLI command ends');
  await new Promise((r) => setTimeout(r, 500));
  t.ok(isAlive(postmaster), 'and leaves the cluster running for the server');
  t.equal((await fetch(`${server.url}/api/v1/ready`)).status, 200, 'which still serves from it');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
  t.ok(await exitedWithin(postmaster, 15_000), 'the server stops it when it stops');
});
