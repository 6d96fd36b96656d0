/**
 * The postgres.js bug that store/tx-connections.ts works around, shown on postgres.js alone: a query
 * on a reserved connection whose backend is gone kills the process from a timer (upstream issue
 * #1208, fix proposed in pull request #1209), where it should fail with CONNECTION_CLOSED. Run in a
 * child process, because it ends the process it runs in.
 *
 * When a postgres.js release fixes it, this test fails and says so: then check whether a statement
 * of a lost reservation can still run on the connection after the pool reconnected it (see
 * lost-connection.test.ts) before the transactions' own connections may give way to `sql.begin()`.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freshDatabase } from '../helpers/db.ts';

const db = await freshDatabase();
t.teardown(db.drop);
const fixture = new URL('./fixtures/reserved-after-loss.ts', import.meta.url).pathname;
const version: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('postgres')), 'utf8')).version; // postgres/src/index.js

t.test(`postgres ${version}: a query on a lost reserved connection ends the process`, async (t) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fixture, db.url], { encoding: 'utf8', timeout: 30_000 });
  const crashed = run.status !== 0 && /Cannot read properties of null \(reading 'write'\)/.test(run.stderr);
  t.ok(crashed, crashed
    ? 'it still does: transactions keep their own connections (store/tx-connections.ts)'
    : `it no longer does (exit ${run.status}, ${JSON.stringify(run.stdout.trim())}): upstream #1208 is fixed in this version; see this file's comment`);
});
