import { renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `file` (mode 600) through a temporary sibling renamed over it: a reader (another
 * process) sees the old content or the new, never a half-written file. The server has the same
 * seven lines (server/store/atomic-file.ts): file IO is not part of contract/, which holds only
 * pure pieces, and the SDK runs nothing of the server.
 */
export function writeFileAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
