import type postgres from 'postgres';
import type { Db } from './db.ts';
import { onWarm } from './warm.ts';

/**
 * A parameter of a fixed statement. The first run describes the statement, and from then on each
 * parameter is serialised for the type PostgreSQL gave it: a `$3::jsonb` takes an object or array
 * (not a JSON string, which would be encoded twice), a `$4::text[]` an array of strings.
 */
export type StatementParam = string | number | boolean | null | readonly unknown[] | object;

/**
 * A hot statement whose text is built once, at module load, with `$1…$n` parameters. It runs as
 * a named prepared statement: a call only binds its parameters. Given the pool, it runs on the warm
 * connection when that is free (warm.ts).
 *
 * Why not a tagged query: postgres.js rebuilds a tagged query on every call, and one that splices
 * fragments (the clock statements have about fifteen) costs about 200 µs of CPU per call, more than
 * PostgreSQL needs to run it. Every other query stays a tagged query.
 */
export function statement<P extends readonly StatementParam[]>(text: string): (db: Db, ...params: P) => Promise<postgres.Row[]> {
  // Sent now, not when first awaited: a statement made before another query goes out before it
  // (inGuildTx makes its outbox statement, then COMMIT, on one connection).
  return (db, ...params) => onWarm(db, (conn) => conn.unsafe(text, params as unknown as postgres.ParameterOrJSON<never>[], { prepare: true }).execute());
}

/** A `text[]` literal of identifiers (topic names): checked, so it can be spliced into statement text. */
export function identifierArray(names: readonly string[]): string {
  for (const n of names) if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(n)) throw new Error(`not an identifier: ${JSON.stringify(n)}`);
  return `'{${names.join(',')}}'::text[]`;
}
