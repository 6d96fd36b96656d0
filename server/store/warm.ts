import type { Db, Sql } from './db.ts';
import { reserveGuarded, type Reserved } from './reserved.ts';

/**
 * The warm connection: one extra PostgreSQL connection that the hot writes (fixed statements and
 * `inGuildTx`) take whenever it is free, before they fall back to the pool.
 *
 * Why: postgres.js hands out its idle connections first-in first-out. Once a burst has opened all
 * of them, a steady trickle of writes rotates over every backend, each with cold caches. Measured
 * with a sequential clock loop after a burst of 20: PostgreSQL spent 1.7 ms of CPU per clock pair
 * rotating over ten backends, and 1.0–1.2 ms with the warm connection, as with a pool of one. A
 * write that finds the warm connection free runs on the same backend as the last one; under load
 * the others go to the pool as before.
 *
 * It is a pool of its own (max 1), so a lost connection is reconnected by postgres.js like any
 * other. Its application_name ends in `/warm` (visible in pg_stat_activity).
 */
interface Warm {
  sql: Sql;
  /** A write is on it now: it is only ever taken when free. */
  taken: boolean;
}

const warmOf = new WeakMap<Db, Warm>();

/** Attaches `warm` (a pool of one connection) to `pool` (db.ts ends and renews both together). */
export function attachWarm(pool: Sql, warm: Sql): void {
  warmOf.set(pool, { sql: warm, taken: false });
}

/** The warm connection of `db`, now taken by the caller; null when `db` has none or it is in use. */
function take(db: Db): Warm | null {
  const warm = warmOf.get(db);
  if (!warm || warm.taken) return null;
  warm.taken = true; // before any await: a concurrent write sees it taken
  return warm;
}

/** Runs `fn` on the warm connection when `db` is a pool with a free one; otherwise on `db` itself. */
export async function onWarm<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  const warm = take(db);
  if (!warm) return fn(db);
  try {
    return await fn(warm.sql);
  } finally {
    warm.taken = false;
  }
}

/**
 * A reserved connection for a transaction, the warm one when free, else one from the pool, with
 * `firstStatement` (BEGIN) sent at once; safe to lose (reserved.ts).
 */
export async function reserveWarm(pool: Sql, firstStatement: string): Promise<Reserved> {
  const warm = take(pool);
  if (!warm) return reserveGuarded(pool, firstStatement);
  try {
    const reserved = await reserveGuarded(warm.sql, firstStatement);
    const release = reserved.release;
    reserved.release = (err) => {
      release(err);
      warm.taken = false;
    };
    return reserved;
  } catch (err) {
    warm.taken = false;
    throw err;
  }
}
