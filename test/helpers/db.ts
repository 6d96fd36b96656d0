import { randomBytes } from 'node:crypto';
import { connect, type Sql } from '../../server/store/db.ts';

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
