import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from './atomic-file.ts';
import { EmbeddedPostgresError } from './pg-error.ts';
import { isAlive } from './pid.ts';

/**
 * `<DATA_DIR>/embedded-postgres.json`, mode 600: the embedded cluster's port and superuser password,
 * and its `owner`: the process that started (or took over) the running cluster and stops it when
 * it exits. `starting`: when the owner began to initialise or start it; others wait meanwhile.
 * `cli`: the owner is a CLI command (a server takes its cluster over; a state without it, also one
 * written by an older version, has a server as its owner).
 */
export interface EmbeddedState { port: number; password: string; owner?: number; starting?: number; cli?: true }

const stateFile = (dataDir: string) => join(dataDir, 'embedded-postgres.json');

/** Writes the state atomically: a reader sees the old state or the new one, never a half-written file. */
export function writeState(dataDir: string, state: EmbeddedState): void {
  writeFileAtomically(stateFile(dataDir), JSON.stringify(state));
}

function parse(text: string): EmbeddedState | null {
  try {
    const s = JSON.parse(text);
    return Number.isInteger(s?.port) && typeof s.password === 'string' ? s : null;
  } catch {
    return null;
  }
}

/**
 * The state, or null when there is none. A file that does not parse (written by an older version,
 * which wrote it in place, while we read) is read again for up to 2 s; after that it is ignored
 * when the cluster is not initialised yet, and otherwise a clear failure: it holds the password.
 */
export async function readState(dataDir: string, clusterInitialised: boolean): Promise<EmbeddedState | null> {
  const file = stateFile(dataDir);
  for (const deadline = Date.now() + 2000; ;) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const state = parse(text);
    if (state) return state;
    if (Date.now() > deadline) {
      if (!clusterInitialised) return null;
      throw new EmbeddedPostgresError(`${file} is not a valid state file (it holds the embedded cluster's password): restore it, or move ${join(dataDir, 'pg')} aside to start a new cluster`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs `fn` holding `<DATA_DIR>/embedded-postgres.lock` (created exclusively, holding our pid), so
 * two processes starting at once (a server and the CLI) decide one after the other whether to
 * start, reuse or take over the cluster. A lock whose process is gone is taken over.
 */
export async function withStartLock<T>(dataDir: string, fn: () => Promise<T>, waitMs = 120_000): Promise<T> {
  const lock = join(dataDir, 'embedded-postgres.lock');
  for (const deadline = Date.now() + waitMs; ;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStale(lock)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`${lock} has been held for over ${waitMs / 1000} s by a process that is still running; remove it if that process is not a dispatch-terminal`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await fn();
  } finally {
    let holder = '';
    try {
      holder = readFileSync(lock, 'utf8');
    } catch {
      // removed already
    }
    if (holder === String(process.pid)) rmSync(lock, { force: true });
  }
}

/** A lock of a process that is gone, or one left empty for over 5 s (its creator died before writing its pid). */
function isStale(lock: string): boolean {
  try {
    const text = readFileSync(lock, 'utf8');
    if (text === '') return Date.now() - statSync(lock).mtimeMs > 5000;
    const pid = Number(text);
    return !Number.isInteger(pid) || pid <= 0 || !isAlive(pid);
  } catch {
    return false; // removed meanwhile: the next attempt creates it
  }
}
