import type postgres from 'postgres';
import { connectionLost, isConnectionFailure } from './faults.ts';

/**
 * A connection reserved from a postgres.js pool that is safe to lose.
 *
 * postgres.js 3.4 runs a reserved connection's queries on the connection object directly, with no
 * check that it is still connected. When PostgreSQL goes away, the pool takes the closed connection
 * back at once; a query sent on it afterwards — a ROLLBACK after the failure, or the next statement
 * of a transaction whose connection closed between two statements — is written to a socket that
 * is gone (`Cannot read properties of null (reading 'write')` thrown from a timer: the process
 * dies) or into the pool's next connection before its startup message; `release()` of it hands a
 * closed connection to the pool's idle list. So:
 * - the first statement (`BEGIN`) tells us its connection, and we hear when that connection closes;
 * - from then on every query of this reservation fails with CONNECTION_CLOSED instead of running;
 * - a lost connection is never released (the pool has it back already), and one that failed for
 *   want of a connection is closed rather than reused (`release(err)`).
 * This uses three internals of postgres.js 3.4 (a query's `handler`, the `onexecute` option its own
 * `begin` uses, a connection's `onclose`); test/store/lost-connection.test.ts fails if they change.
 */
export interface Reserved {
  /** The reserved connection; its queries fail with CONNECTION_CLOSED once the connection is lost. */
  sql: postgres.ReservedSql<{}>;
  /** The result of the first statement, started at once (e.g. BEGIN); already has a handler. */
  first: Promise<unknown>;
  /** The connection closed under this reservation. */
  readonly lost: boolean;
  /**
   * ROLLBACK of the open transaction after `err` (its own failure ignored), unless `err` or the
   * connection says the connection is gone: PostgreSQL ended the transaction with the session, and
   * nothing may be sent on a lost connection.
   */
  rollback(err: unknown): Promise<void>;
  /** Ends the reservation: back to the pool when healthy, closed when `err` says the connection failed. */
  release(err?: unknown): void;
}

/** The part of postgres.js's connection object we use (connection.js): the pool calls `onclose` when it closes. */
interface Connection { onclose: ((err: unknown) => void) | null; terminate(): void }
type Query = Promise<unknown> & { handler?: QueryHandler };
type QueryHandler = ((q: { reject(err: unknown): void }) => void) & { debug?: unknown };

/**
 * Runs `firstStatement` (simple protocol, no parameters) as the first query of a reservation from
 * `pool`. `onQuery` sees every query of the reservation as it runs.
 */
export async function reserveGuarded(pool: postgres.Sql<{}>, firstStatement: string, onQuery?: (q: Promise<unknown>) => void): Promise<Reserved> {
  const conn = await pool.reserve();
  let lost = false;
  let released = false;
  let connection: Connection | null = null;

  const guard = (q: unknown) => {
    const query = q as Query;
    const run = query?.handler;
    if (typeof run !== 'function') return q; // a fragment or identifier, not a query
    const guarded: QueryHandler = (qq) => {
      onQuery?.(qq as unknown as Promise<unknown>);
      return lost ? qq.reject(connectionLost()) : run(qq);
    };
    guarded.debug = run.debug;
    query.handler = guarded;
    return q;
  };
  const unsafe = (...args: Parameters<postgres.Sql<{}>['unsafe']>) => guard(conn.unsafe(...args));
  const sql = new Proxy(conn, {
    apply: (target, thisArg, args) => guard(Reflect.apply(target, thisArg, args)),
    get: (target, prop) => (prop === 'unsafe' ? unsafe : Reflect.get(target, prop)),
  });

  // `onexecute` (postgres.js's own hook for sql.begin) hands us the connection as BEGIN is written.
  const onexecute = (c: Connection) => {
    connection = c;
    c.onclose = () => {
      lost = true;
    };
    return true;
  };
  const first = guard(conn.unsafe(firstStatement, [], { onexecute } as never).execute()) as Promise<unknown>;
  first.catch(() => {}); // awaited by the caller when it needs it; a failure before then is not unhandled

  return {
    sql,
    first,
    get lost() {
      return lost;
    },
    async rollback(err) {
      if (!lost && !isConnectionFailure(err)) await sql`rollback`.catch(() => {});
    },
    release(err) {
      if (released) return;
      released = true;
      if (lost) return; // the pool has it back already
      if (connection?.onclose) connection.onclose = null;
      if (err !== undefined && isConnectionFailure(err)) {
        // Failed for want of a connection but not closed (yet): close it; the pool reconnects it.
        // (Unknown connection: BEGIN never went out; the pool reclaims a closed one by itself.)
        lost = true;
        connection?.terminate();
        return;
      }
      conn.release();
    },
  };
}

/**
 * `sql.begin(options, fn)` of postgres.js on a guarded reservation (db.ts makes it the pools'
 * `begin`): BEGIN, `fn`, COMMIT; ROLLBACK on a failure, except when the connection is gone (PostgreSQL
 * rolled back with the session). As in postgres.js, a query of `fn` that failed without being
 * awaited fails the transaction, and `fn` may return an array of queries.
 */
export async function transaction<T>(pool: postgres.Sql<{}>, options: string, fn: (sql: postgres.TransactionSql<{}>) => T | Promise<T>): Promise<T> {
  let uncaught: unknown = null;
  const reserved = await reserveGuarded(pool, `begin ${options.replace(/[^a-z ]/gi, '')}`.trim(), (q) => {
    q.catch((err) => (uncaught ??= err));
  });
  let open = true;
  let failure: unknown;
  try {
    await reserved.first;
    const out = fn(reserved.sql as unknown as postgres.TransactionSql<{}>);
    const result = (await (Array.isArray(out) ? Promise.all(out) : out)) as T;
    if (uncaught) throw uncaught;
    await reserved.sql`commit`;
    open = false;
    return result;
  } catch (err) {
    failure = err;
    if (open) await reserved.rollback(err);
    throw err;
  } finally {
    reserved.release(failure);
  }
}
