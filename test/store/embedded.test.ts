import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../server/store/db.ts';
import { startEmbeddedPostgres } from '../../server/store/embedded.ts';
import { recordingLog } from '../helpers/faults.ts';

/** A real embedded cluster in a temporary DATA_DIR (initdb once), stopped again before the tests. */
const dataDir = mkdtempSync(join(tmpdir(), 'dt-embedded-'));
const log = recordingLog();
const { lines } = log;
const first = await startEmbeddedPostgres(dataDir, log);
await first.stop();
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('a restart while the previous postmaster is still stopping waits for it, then starts its own', async (t) => {
  // A postmaster that is shutting down: a live process and postmaster.pid with status "stopping",
  // as PostgreSQL writes it during a fast shutdown after Ctrl-C.
  const stopping = spawn('sleep', ['30']);
  t.teardown(() => stopping.kill());
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  writeFileSync(pidFile, [stopping.pid, join(dataDir, 'pg'), '1795440000', '1', '/tmp', '127.0.0.1', '0 0', 'stopping  ', ''].join('\n'));

  const began = Date.now();
  const starting = startEmbeddedPostgres(dataDir, log);
  setTimeout(() => {
    stopping.kill();
    unlinkSync(pidFile);
  }, 700);
  const db = await starting;
  t.teardown(() => db.stop());
  t.ok(Date.now() - began >= 700, 'it waited for the old postmaster to go');
  t.ok(lines.some((l) => /waiting for the embedded PostgreSQL, which is stopping/.test(l)), 'and said so');
  const sql = connect(db.url, 1);
  t.teardown(() => sql.end({ timeout: 1 }));
  const [row] = await sql`select 1 as one`;
  t.equal(row.one, 1, 'the new cluster answers');
});

t.test('the server does not share a cluster that another live process started; the CLI does', async (t) => {
  // Another process (a server still shutting down after Ctrl-C, or one started twice) runs the cluster.
  const holder = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'hold-embedded.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => holder.kill());
  const port = await new Promise<string>((resolve, reject) => {
    holder.stdout!.on('data', (d: Buffer) => /ready (\d+)/.test(d.toString()) && resolve(/ready (\d+)/.exec(d.toString())![1]));
    holder.once('exit', (code) => reject(new Error(`holder exited (${code})`)));
  });

  const cli = await startEmbeddedPostgres(dataDir, log);
  t.equal(new URL(cli.url).port, port, 'the CLI reuses the running cluster');
  await cli.stop(); // a no-op: not its cluster
  const cliSql = connect(cli.url, 1);
  t.equal((await cliSql`select 1 as one`)[0].one, 1, 'and stopping it there leaves the cluster running');
  await cliSql.end({ timeout: 1 });

  await t.rejects(startEmbeddedPostgres(dataDir, log, { exclusive: true, ownerWaitMs: 300 }),
    new RegExp(`another process \\(pid ${holder.pid}\\) runs the embedded PostgreSQL`), 'the server refuses to share it');

  const began = Date.now();
  const starting = startEmbeddedPostgres(dataDir, log, { exclusive: true, ownerWaitMs: 20_000 });
  setTimeout(() => holder.kill('SIGTERM'), 500);
  const own = await starting;
  t.teardown(() => own.stop());
  t.ok(Date.now() - began >= 500, 'it waited for the other process to exit');
  t.ok(lines.some((l) => /waiting for the process that runs the embedded PostgreSQL to exit/.test(l)), 'and said so');
  const sql = connect(own.url, 1);
  t.teardown(() => sql.end({ timeout: 1 }));
  t.equal((await sql`select 1 as one`)[0].one, 1, 'then started its own cluster, which answers');
});
