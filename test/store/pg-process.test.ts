import t, { type Test } from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLog } from '../../server/core/log.ts';
import { initCluster, startPostmaster } from '../../server/store/pg-process.ts';
import { EmbeddedPostgresError } from '../../server/store/pg-error.ts';

/** A PostgreSQL installation whose programs are what each test makes of them. */
const binaries = mkdtempSync(join(tmpdir(), 'dt-pg-process-'));
t.teardown(() => rmSync(binaries, { recursive: true, force: true }));
mkdirSync(join(binaries, 'bin'));
const log = createLog('silent');
const cluster = { binaries, dir: join(binaries, 'cluster'), runAs: null };

/** A rejection that is one line of our own error type: what the CLI prints after `error: `. */
async function oneLineFailure(t: Test, promise: Promise<unknown>, pattern: RegExp) {
  const err = await promise.then(() => null, (e: unknown) => e);
  t.type(err, EmbeddedPostgresError, 'an EmbeddedPostgresError, not a crash');
  t.match((err as Error).message, pattern);
  t.notMatch((err as Error).message, /\n/, 'on one line');
}

t.test('a postgres binary that cannot be executed is a clear rejection, not an unhandled error event', async (t) => {
  writeFileSync(join(binaries, 'bin', 'postgres'), 'not a program', { mode: 0o644 });
  await oneLineFailure(t, startPostmaster({ ...cluster, port: 1, flags: [], log }),
    new RegExp(`^cannot run postgres \\(${binaries}/bin/postgres\\): permission denied \\(EACCES\\); reinstall with npm ci, or set DATABASE_URL$`));
});

t.test('a missing initdb is a clear rejection', async (t) => {
  await oneLineFailure(t, initCluster({ ...cluster, password: 'pw' }), /^cannot run initdb \(.*\/bin\/initdb\): no such file \(ENOENT\)/);
});

t.test('an initdb that fails says why in its own words, and the password file is gone', async (t) => {
  writeFileSync(join(binaries, 'bin', 'initdb'), '#!/bin/sh\necho "creating directory" \necho "initdb: error: could not create directory: No space left on device" >&2\necho "initdb: hint: free some space" >&2\nexit 1\n');
  chmodSync(join(binaries, 'bin', 'initdb'), 0o755);
  await oneLineFailure(t, initCluster({ ...cluster, password: 'pw' }), /^initdb failed for .*cluster \(1\): error: could not create directory: No space left on device$/);
  t.same(readdirSync(binaries).filter((f) => f.startsWith('.pwfile')), [], 'no password file left behind');
});

t.test('a postgres that exits while starting gives its FATAL line', async (t) => {
  writeFileSync(join(binaries, 'bin', 'postgres'), '#!/bin/sh\necho "2026-01-01 LOG:  starting" >&2\necho "2026-01-01 FATAL:  could not create any TCP/IP sockets" >&2\necho "2026-01-01 LOG:  database system is shut down" >&2\nexit 1\n');
  chmodSync(join(binaries, 'bin', 'postgres'), 0o755);
  await oneLineFailure(t, startPostmaster({ ...cluster, port: 5, flags: [], log }), /^PostgreSQL did not start on port 5 \(exit 1\): FATAL: {2}could not create any TCP\/IP sockets$/);
});
