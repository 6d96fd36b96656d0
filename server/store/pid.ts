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
