/**
 * The whole test suite: builds what users run (dist/, when missing or stale), starts one embedded
 * PostgreSQL for the run (or uses TEST_DATABASE_URL), prepares a migrated template database, runs
 * tap over test/, and ends with "N passed, N failed".
 * Each test file clones the template into its own database, so files run in parallel.
 * Tests that spawn `server/bin/dispatch-terminal.mjs` run the compiled product; tests that start
 * the server in-process run the TypeScript sources and serve dist/board-test (the board with its
 * test hook). Both check their build against the sources when they load it and rebuild a stale
 * one, so a test never runs an old build; building here first keeps the files from doing it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'tap-parser';
import { createLog } from '../server/core/log.ts';
import { startEmbeddedPostgres } from '../server/store/embedded.ts';
import { removeDataDir } from '../server/store/pg-cluster-dir.ts';
import { connect } from '../server/store/db.ts';
import { migrate } from '../server/store/migrate.ts';
import { TEMPLATE_DB } from './helpers/db.ts';
import { ensureDebianPackages } from './helpers/debian.ts';
import { ensureBuilt, targets } from '../server/build-check.mjs';

const log = createLog('warn');
const say = (line: string) => process.stdout.write(`${line}\n`);
try {
  await ensureBuilt(targets.product, say);
  await ensureBuilt(targets.boardTest, say);
} catch (err) {
  process.stdout.write(`the build failed, so nothing was tested: ${(err as Error).message}\n\n0 passed, 1 failed\n`);
  process.exit(1);
}
ensureDebianPackages([['redis-server', 'redis-server'], ['chromium', 'chromium']]); // multi-node tests run a real redis-server, browser tests Debian's chromium
const dataDir = mkdtempSync(join(tmpdir(), 'dt-test-'));
const embedded = process.env.TEST_DATABASE_URL ? null : await startEmbeddedPostgres(dataDir, log);
const adminUrl = process.env.TEST_DATABASE_URL || embedded!.url; // empty: unset

const admin = connect(adminUrl, 1);
await admin.unsafe(`drop database if exists ${TEMPLATE_DB}`);
await admin.unsafe(`create database ${TEMPLATE_DB}`);
await admin.end();
const template = connect(adminUrl.replace(/\/[^/?]*(\?|$)/, `/${TEMPLATE_DB}$1`), 1);
await migrate(template);
await template.end();

const args = ['tap', '-R', 'tap', ...process.argv.slice(2)];
const child = spawn('npx', args, {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, TEST_ADMIN_DATABASE_URL: adminUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
});
/** Interrupted (Ctrl-C, kill): tap stops, the run's cluster is stopped and its directory removed, as at a normal end. */
const interrupted = async () => {
  child.kill('SIGTERM');
  await embedded?.stop();
  removeDataDir(dataDir);
  process.exit(130);
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);

let passed = 0, failed = 0, skipped = 0;
const failures: string[] = [];
/** Counts leaf assertions: an assert that closes a subtest is that subtest's summary, not an assertion. */
function watch(parser: Parser, path: string[]) {
  let openChildren = 0;
  let lastChildName = '';
  parser.on('child', (c: Parser) => {
    openChildren++;
    lastChildName = c.name;
    watch(c, [...path, c.name]);
  });
  parser.on('assert', (res: { ok: boolean; name: string; skip?: unknown; todo?: unknown; diag?: unknown }) => {
    if (openChildren > 0 && (res.name === lastChildName || res.name.startsWith(lastChildName))) {
      openChildren--;
      if (!res.ok && path.length === 0) process.stdout.write(`not ok - ${res.name}\n`);
      else if (path.length === 0) process.stdout.write(`ok - ${res.name}\n`);
      return;
    }
    if (res.skip || res.todo) skipped++;
    else if (res.ok) passed++;
    else {
      failed++;
      failures.push(`${[...path, res.name].join(' > ')}\n${res.diag ? JSON.stringify(res.diag, null, 2) : ''}`);
    }
  });
}
const parser = new Parser();
const parsed = new Promise((resolve) => parser.on('complete', resolve));
watch(parser, []);
child.stdout.pipe(parser);
if (process.env.TAP_RAW) child.stdout.pipe(process.stdout);

const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
await parsed;
await embedded?.stop();
removeDataDir(dataDir);

for (const f of failures) process.stdout.write(`\nFAILED: ${f}\n`);
if (code !== 0 && failed === 0) failed = 1; // a crashed file or runner error still fails the run
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
