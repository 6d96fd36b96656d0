import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from './atomic-file.ts';
import { isAlive } from './pid.ts';

/**
 * `<DATA_DIR>/server.json`: the pid and public URL of the server serving this DATA_DIR, so the
 * CLI's links point where it really listens (PORT=0, another PORT than the CLI's environment).
 * Mode 600. Written when the server listens, removed when it shuts down cleanly; a file whose
 * process is gone (a crash) is ignored.
 */
interface RunningServerRecord { pid: number; publicUrl: string }

const recordFile = (dataDir: string) => join(dataDir, 'server.json');

/** Records this process as the running server; returns what removes the record again (if still ours). */
export function recordRunningServer(dataDir: string, publicUrl: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const record: RunningServerRecord = { pid: process.pid, publicUrl };
  writeFileAtomically(recordFile(dataDir), JSON.stringify(record)); // the CLI never reads half a file
  return () => {
    if (readRecord(dataDir)?.pid === process.pid) rmSync(recordFile(dataDir), { force: true });
  };
}

/** The public URL of the server running on `dataDir`, or null when none is (or its record is stale). */
export function runningServerUrl(dataDir: string): string | null {
  const record = readRecord(dataDir);
  return record && isAlive(record.pid) ? record.publicUrl : null;
}

function readRecord(dataDir: string): RunningServerRecord | null {
  try {
    const record = JSON.parse(readFileSync(recordFile(dataDir), 'utf8'));
    return Number.isInteger(record?.pid) && record.pid > 0 && typeof record.publicUrl === 'string' ? record : null;
  } catch {
    return null; // none, or unreadable: as if no server ran
  }
}
