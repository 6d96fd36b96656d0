import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLog } from '../../server/core/log.ts';
import { connect, Database, type Sql } from '../../server/store/db.ts';
import { startEmbeddedPostgres } from '../../server/store/embedded.ts';
import { removeDataDir } from '../../server/store/pg-cluster-dir.ts';
import { readPostmasterPid } from '../../server/store/pg-process.ts';
import { isAlive } from '../../server/store/pid.ts';
import { migrate } from '../../server/store/migrate.ts';

export interface BenchDatabase {
  /** URL of the fresh, migrated database. */
  url: string;
  /** A small pool on it, for seeding and housekeeping between runs. */
  sql: Sql;
  /** The same as the server's kind of handle (transactions: the demo seed). */
  db: Database;
  /** The postmaster's pid when this process started the cluster (embedded), for CPU accounting. */
  postmasterPid: number | null;
  /** Drops the database, stops an embedded cluster and removes its directory; safe to call twice. */
  close(): Promise<void>;
}

/**
 * A fresh database `bench_<random>` on DATABASE_URL (the URL must allow CREATE DATABASE), or on an
 * embedded PostgreSQL in a temporary DATA_DIR that is deleted afterwards.
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  const given = process.env.DATABASE_URL;
  const dataDir = given ? null : mkdtempSync(join(tmpdir(), 'dt-bench-'));
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
  };
  try {
    let adminUrl = given;
    if (dataDir) {
      cleanups.push(async () => removeDataDir(dataDir));
      // The directory goes on exit whatever happens (a bench that throws, or exits on SIGINT/SIGTERM
      // before its cleanup is done).
      const onExit = () => removeClusterDir(dataDir);
      process.once('exit', onExit);
      cleanups.push(async () => void process.off('exit', onExit));
      const embedded = await startEmbeddedPostgres(dataDir, createLog('warn'));
      cleanups.push(() => embedded.stop());
      adminUrl = embedded.url;
    }
    const name = `bench_${randomBytes(5).toString('hex')}`;
    const admin = connect(adminUrl!, 1);
    cleanups.push(() => admin.end({ timeout: 1 }));
    await admin.unsafe(`create database ${name}`);
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
    });
    const url = adminUrl!.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
    const db = new Database(url, 2);
    const sql = db.sql;
    cleanups.push(() => db.end({ timeout: 1 }));
    await migrate(sql);
    return { url, sql, db, postmasterPid: dataDir ? readPostmasterPid(join(dataDir, 'pg')) : null, close: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * Synchronous (it runs in `exit`): stops a postmaster still running on the directory (fast
 * shutdown, up to 5 s), then deletes the directory (and its cluster, when it was relocated).
 */
function removeClusterDir(dataDir: string): void {
  const pid = readPostmasterPid(join(dataDir, 'pg'));
  if (pid) {
    try {
      process.kill(pid, 'SIGINT');
      const pause = new Int32Array(new SharedArrayBuffer(4));
      for (let waited = 0; waited < 5000 && isAlive(pid); waited += 50) Atomics.wait(pause, 0, 0, 50);
    } catch {
      // already gone
    }
  }
  removeDataDir(dataDir);
}
