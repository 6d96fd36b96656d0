import { existsSync, readFileSync } from 'node:fs';

const hasProc = existsSync('/proc/self/stat');

/**
 * Whether process `pid` exists (EPERM: it does, owned by another user, e.g. postgres). A zombie
 * (exited, not yet reaped by a parent that is not us) counts as gone, where /proc tells.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // another user's: /proc may hide it, so no closer look
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return !hasProc; // exited between the two looks; without /proc, as kill said
  }
}

/** Sends `sig` to `pid`; a process that is gone already is no failure. */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone already
  }
}

/** Resolves true once `pid` has exited, false when it still runs after `ms` (looks every 100 ms). */
export async function exitedWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(pid);
}

/**
 * Shuts postmaster `pid` down and resolves once it has exited: fast (SIGINT: sessions are ended,
 * a checkpoint is written); immediate (SIGQUIT: no checkpoint, recovery at the next start) when it
 * still runs after `fastMs`; SIGKILL when even that did not end it within `immediateMs`. A stop of
 * the server never waits for PostgreSQL without end.
 */
export async function shutDown(pid: number, fastMs = 15_000, immediateMs = 5_000): Promise<void> {
  signal(pid, 'SIGINT');
  if (await exitedWithin(pid, fastMs)) return;
  signal(pid, 'SIGQUIT');
  if (await exitedWithin(pid, immediateMs)) return;
  signal(pid, 'SIGKILL');
  await exitedWithin(pid, immediateMs);
}

/** Postmasters this process owns (started or taken over) and has not stopped or handed on. */
const stopAtExit = new Set<number>();
process.on('exit', () => {
  // Runs on process.exit() and on a crash: a postmaster must not outlive the process that owns it
  // unnoticed. SIGINT asks it for a fast shutdown, which it completes on its own.
  for (const pid of stopAtExit) signal(pid, 'SIGINT');
});

/**
 * Asks postmaster `pid` for a fast shutdown when this process exits, however it exits, until the
 * returned function is called (it was stopped, it exited, or another process owns it now).
 */
export function stopWhenThisProcessExits(pid: number): () => void {
  stopAtExit.add(pid);
  return () => stopAtExit.delete(pid);
}
