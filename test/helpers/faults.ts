import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.ts';
import type { Log } from '../../server/core/log.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { isUnheldPostgresRejection } from '../../server/store/faults.ts';

/**
 * A Log that keeps every line (`message {data}`), and prints them too with LOG_LEVEL=debug. The
 * access log's one line per request goes to `accessLines`: `lines` are what the server says of itself.
 */
export function recordingLog(): Log & { lines: string[]; accessLines: string[] } {
  const lines: string[] = [];
  const accessLines: string[] = [];
  const echo = process.env.LOG_LEVEL === 'debug';
  const write = (lvl: string) => (msg: string, data?: object) => {
    const line = `${msg}${data ? ` ${JSON.stringify(data)}` : ''}`;
    lines.push(line);
    if (echo) process.stderr.write(`${lvl} ${line}\n`);
  };
  return {
    lines, accessLines, debug: () => {}, info: write('info'), warn: write('warn'), error: write('error'),
    access: (msg, data) => accessLines.push(`${msg}${data ? ` ${JSON.stringify(data)}` : ''}`),
  };
}

/**
 * The live processes of the PostgreSQL cluster in `clusterDir` (any path to it: it is resolved):
 * every process whose command line names it (the postmaster) or whose working directory it is
 * (PostgreSQL's children and backends chdir into it). Zombies, which no longer run, are not counted.
 */
export function clusterProcesses(clusterDir: string): number[] {
  let dir: string;
  try {
    dir = realpathSync(clusterDir);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // exited meanwhile, or not ours to read
      }
      if (cwd === dir || (cmdline[0].endsWith('postgres') && cmdline.includes(dir))) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** SIGKILLs every process of the cluster in `clusterDir` (teardown: no test leaves a PostgreSQL behind). */
export function killCluster(clusterDir: string): void {
  for (const pid of clusterProcesses(clusterDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Polls `check` every 50 ms until it is true (resolves with the ms it took) or `ms` have passed (resolves null). */
export async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number | null> {
  const began = Date.now();
  for (;;) {
    if (await check()) return Date.now() - began;
    if (Date.now() - began > ms) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}


/**
 * Every crash and unhandled rejection of this process from now on. Fault tests run the server in
 * the test's process: one anywhere in it lands here, and the test asserts the list stays empty.
 */
export function recordCrashes(): string[] {
  const crashes: string[] = [];
  // postgres.js's own unheld rejection of a connection lost while it opens is logged, not fatal, in
  // the serving process (store/faults.ts, upstream #1192): not a crash of ours.
  process.on('unhandledRejection', (err) => {
    if (!isUnheldPostgresRejection(err)) crashes.push(`unhandled rejection: ${(err as Error)?.stack ?? err}`);
  });
  process.on('uncaughtException', (err) => crashes.push(`uncaught exception: ${err.stack ?? err}`));
  return crashes;
}

/**
 * A real server in this process on an embedded PostgreSQL of its own (a fresh DATA_DIR, so a test
 * may kill its postmaster), logging into `log`. At the end it is closed, any process of its
 * cluster left by a failing test is killed, and the directory removed.
 */
export async function serverOnOwnCluster(t: { teardown(fn: () => unknown): void }, prefix: string): Promise<{ server: RunningServer; clusterDir: string; log: ReturnType<typeof recordingLog> }> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const clusterDir = join(dataDir, 'pg');
  const log = recordingLog();
  const server = await startServer({
    config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', LOG_LEVEL: 'silent' }),
    log,
    panel: { refresh: () => {} },
  });
  t.teardown(async () => {
    await server.close().catch(() => {});
    killCluster(clusterDir);
    removeDataDir(dataDir);
  });
  return { server, clusterDir, log };
}
