import type { Config } from '../config.ts';
import type { Log } from '../core/log.ts';
import { Database } from './db.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { migrate } from './migrate.ts';

/**
 * Connects to DATABASE_URL, or to the embedded cluster in DATA_DIR (started if needed), and migrates.
 * `exclusive`: the server's own cluster, never one another live process owns; the server owns it,
 * and restarts it when it dies (see embedded.ts).
 */
export async function openDatabase(config: Config, log: Log, poolSize = 10, opts: { exclusive?: boolean } = {}): Promise<{ db: Database; close(): Promise<void> }> {
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir, log, opts);
  const db = new Database(config.databaseUrl ?? embedded!.url, poolSize);
  // Restarted on another port (its own was taken): the connections follow it. On the same port the
  // health monitor renews them when it sees PostgreSQL answer again (health.ts).
  embedded?.onRestart((url) => {
    if (url !== db.url) db.renew(url);
  });
  try {
    const applied = await migrate(db.sql);
    if (applied.length) log.info('migrations applied', { applied });
  } catch (err) {
    await db.end({ timeout: 1 });
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    async close() {
      embedded?.stopRestarting();
      try {
        await db.end({ timeout: 5 });
      } finally {
        await embedded?.stop();
      }
    },
  };
}
