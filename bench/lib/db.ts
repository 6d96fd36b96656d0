import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLog } from '../../server/core/log.ts';
import { connect, type Sql } from '../../server/store/db.ts';
import { startEmbeddedPostgres } from '../../server/store/embedded.ts';
import { migrate } from '../../server/store/migrate.ts';

export interface BenchDatabase {
  /** URL of the fresh, migrated database. */
  url: string;
  /** A small pool on it, for seeding and housekeeping between runs. */
  sql: Sql;
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
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
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
    const sql = connect(url, 2);
    cleanups.push(() => sql.end({ timeout: 1 }));
    await migrate(sql);
    return { url, sql, postmasterPid: dataDir ? postmasterPid(join(dataDir, 'pg')) : null, close: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function postmasterPid(clusterDir: string): number | null {
  const file = join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}
