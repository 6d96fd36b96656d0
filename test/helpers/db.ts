import { randomBytes } from 'node:crypto';
import { connect, type Sql } from '../../server/store/db.ts';
import { migrate, sqlFiles } from '../../server/store/migrate.ts';

export const TEMPLATE_DB = 'dt_template';

/** A fresh, migrated database for one test file, cloned from the run's template; dropped by `drop()`. */
export async function freshDatabase(): Promise<{ sql: Sql; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!adminUrl) throw new Error('run the suite with `npm test` (it starts PostgreSQL and sets TEST_ADMIN_DATABASE_URL)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect(adminUrl, 1);
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  const url = adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  const sql = connect(url, 10);
  return {
    sql,
    url,
    async drop() {
      await sql.end({ timeout: 1 });
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
export async function databaseBefore(t: { teardown(fn: () => unknown): void }, upTo: string): Promise<Sql> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
  const admin = connect(adminUrl, 1);
  const name = `m_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  const sql = connect(adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`), 2);
  t.teardown(async () => {
    await sql.end({ timeout: 1 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  await migrate(sql, upTo);
  return sql;
}
