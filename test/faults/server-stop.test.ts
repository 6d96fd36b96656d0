/**
 * A server leaves no PostgreSQL behind (issue 27, item 6): real `serve` processes, each its own
 * process group on its own DATA_DIR with the embedded defaults, stopped the way a terminal or a
 * service manager stops them (SIGTERM or SIGINT to the process group). Whichever postmaster the
 * server owns at that moment (a restarted one, after the first was SIGKILLed) must be gone soon
 * after, and so must every process of the cluster; also when the stop comes while the server
 * is still starting (before the fix, a signal then killed the server at once and left its
 * PostgreSQL running).
 */
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPostmasterFile } from '../../server/store/pg-process.ts';
import { removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { clusterProcesses, killCluster, within } from '../helpers/faults.ts';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const GONE_MS = 15_000;

interface Serving { child: ChildProcess; clusterDir: string; listening: Promise<string>; exited: Promise<string>; output: () => string }

/** A new DATA_DIR, removed at the end, with whatever PostgreSQL still runs on it. */
function dataDirFor(t: Test): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-stop-'));
  t.teardown(() => {
    killCluster(join(dataDir, 'pg'));
    removeDataDir(dataDir);
  });
  return dataDir;
}

/** `serve` on `dataDir`, as the leader of its own process group; killed at the end of the test if it still runs. */
function serve(t: Test, dataDir: string): Serving {
  const clusterDir = join(dataDir, 'pg');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', DEMO: '0', LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'HOST']) delete env[name];
  const child = spawn(process.execPath, [bin, 'serve'], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    killCluster(clusterDir);
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  listening.catch(() => {});
  return { child, clusterDir, listening, exited, output: () => out };
}

/** Stops the server with `signal` to its process group; asserts it exits and that no process of its cluster is left. */
async function stopAndCheck(t: Test, server: Serving, signal: NodeJS.Signals) {
  const before = clusterProcesses(server.clusterDir);
  t.ok(before.length > 0, `the cluster runs (${before.length} processes)`);
  process.kill(-server.child.pid!, signal);
  const exit = await Promise.race([server.exited, new Promise<string>((r) => setTimeout(() => r('still running'), GONE_MS))]);
  t.not(exit, 'still running', `the server exits (${exit})`);
  const gone = await within(GONE_MS, () => clusterProcesses(server.clusterDir).length === 0);
  t.ok(gone !== null, gone !== null
    ? `no PostgreSQL process of its cluster is left (${gone} ms after the server exited)`
    : `PostgreSQL processes left ${GONE_MS / 1000} s after the server exited: ${clusterProcesses(server.clusterDir).join(', ')}`);
}

t.test('a server whose postmaster was killed and restarted, stopped by a signal to its process group, leaves no PostgreSQL', async (t) => {
  const dataDir = dataDirFor(t); // one cluster for both: the second server starts it again without initdb
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    t.comment(`stopped with ${signal}`);
    const server = serve(t, dataDir);
    const url = await server.listening;
    const first = readPostmasterFile(server.clusterDir)!;
    process.kill(first.pid, 'SIGKILL');
    const restarted = await within(GONE_MS, () => {
      const now = readPostmasterFile(server.clusterDir);
      return now !== null && now.pid !== first.pid && now.status === 'ready';
    });
    t.ok(restarted !== null, 'the server restarted its PostgreSQL');
    t.ok(await within(GONE_MS, async () => (await fetch(`${url}/api/v1/ready`).catch(() => null))?.status === 200) !== null, 'and serves from it');
    await stopAndCheck(t, server, signal);
  }
});

t.test('a server stopped by SIGTERM to its process group while it starts (its PostgreSQL runs, it does not listen yet) leaves no PostgreSQL', async (t) => {
  const server = serve(t, dataDirFor(t));
  const up = await within(60_000, () => readPostmasterFile(server.clusterDir)?.status === 'ready');
  t.ok(up !== null, 'its PostgreSQL runs');
  t.comment(/listening on/.test(server.output()) ? 'it listens already (a fast start): the stop is an ordinary one' : 'it does not listen yet (migrating)');
  await stopAndCheck(t, server, 'SIGTERM');
});
