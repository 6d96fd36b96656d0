import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sql } from './db.ts';

export const sqlDir = new URL('../../sql/', import.meta.url).pathname;
const LOCK_KEY = 724011; // arbitrary, constant: all processes of this app agree on it

/** The migration files, `sql/NNNN_*.sql`, in the order they are applied. */
export function sqlFiles(): string[] {
  return readdirSync(sqlDir).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
}

/**
 * Applies `sql/NNNN_*.sql` in order, in one transaction under a transaction-scoped advisory lock:
 * running twice, or from two processes at once, applies every file exactly once. With `before`
 * (e.g. `'0008'`), only the files named lower (tests of upgrades start from an older schema).
 */
export async function migrate(sql: Sql, before?: string): Promise<string[]> {
  const files = sqlFiles().filter((f) => before === undefined || f < before);
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    // A transaction-scoped advisory lock: released at commit, held across all files.
    await tx`select pg_advisory_xact_lock(${LOCK_KEY})`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    const done = new Set((await tx`select name from schema_migrations`).map((r) => r.name as string));
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.unsafe(readFileSync(join(sqlDir, file), 'utf8'));
      await tx`insert into schema_migrations (name) values (${file})`;
      applied.push(file);
    }
  });
  return applied;
}
