import { randomBytes } from 'node:crypto';
import { connect, Database, type Sql } from '../../server/store/db.ts';
import { migrate, sqlFiles } from '../../server/store/migrate.ts';

export const TEMPLATE_DB = 'dt_template';

/**
 * A fresh, migrated database for one test file, cloned from the run's template; dropped by `drop()`.
 * `db` is the server's kind of handle (transactions, renewal); `sql` is `db.sql`, its current pool.
 */
export async function freshDatabase(): Promise<{ sql: Sql; db: Database; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!adminUrl) throw new Error('run the suite with `npm test` (it starts PostgreSQL and sets TEST_ADMIN_DATABASE_URL)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect(adminUrl, 1);
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  const url = adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  const db = new Database(url, 10);
  return {
    get sql() {
      return db.sql;
    },
    db,
    url,
    async drop() {
      await db.end({ timeout: 1 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The migration files in the order `migrate` applies them. */
export const migrationFiles = sqlFiles();

/**
 * An empty database with the migrations before `upTo` (e.g. `'0008'`) applied and recorded, as a
 * deployment of an older version left it: for tests of what `migrate` does to existing data.
 */
export async function databaseBefore(t: { teardown(fn: () => unknown): void }, upTo: string): Promise<{ sql: Sql; db: Database }> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
  const admin = connect(adminUrl, 1);
  const name = `m_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  const db = new Database(adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`), 2);
  const sql = db.sql;
  t.teardown(async () => {
    await db.end({ timeout: 1 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  await migrate(sql, upTo);
  return { sql, db };
}

/**
 * PostgreSQL stops answering for a test server: `down()` makes its database refuse connections and
 * ends the open ones; `up()` lets connections in again. Teardown lets them in too, so a failed test
 * leaves no locked database behind.
 */
export function databaseOutage(t: { teardown(fn: () => unknown): void }, server: { databaseUrl: string }): { down(): Promise<void>; up(): Promise<void> } {
  const name = new URL(server.databaseUrl).pathname.slice(1);
  const admin = connect(process.env.TEST_ADMIN_DATABASE_URL!, 1);
  const up = async () => { await admin.unsafe(`alter database ${name} with allow_connections true`); };
  t.teardown(async () => {
    await up();
    await admin.end({ timeout: 1 });
  });
  return {
    async down() {
      await admin.unsafe(`alter database ${name} with allow_connections false`);
      await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
    },
    up,
  };
}
