import postgres from 'postgres';
import { isConnectionFailure } from './faults.ts';
import { TransactionConnections } from './tx-connections.ts';

/** A postgres.js instance: tagged queries (`sql\`…\``), `sql.json`, `sql.unsafe`, … */
export type Sql = postgres.Sql<{}>;
/** Where a store function runs its queries: `db.sql` (the pool), or a transaction's `tx.sql`. */
export type Db = Sql | postgres.TransactionSql<{}>;

/**
 * Timeouts, so that nothing waits forever on a database that is gone: a connection attempt gives
 * up after 5 s (PostgreSQL on a reachable host answers in milliseconds, a refused one fails at
 * once), idle connections close after 5 minutes, and a lost connection is retried after at most
 * 1 s (postgres.js's default back-off grows to 20 s per attempt).
 */
const connectionTimeouts = { connect_timeout: 5, idle_timeout: 300, backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1) };

/**
 * A postgres.js instance of up to `max` connections to `url`, with the project's options (bigint as
 * BigInt, `undefined` as NULL, no notices on stdout). `extra` adds postgres.js options.
 */
export function connect(url: string, max = 10, name = 'dispatch-terminal', extra: Partial<postgres.Options<{}>> = {}): Sql {
  return postgres(url, {
    max,
    ...connectionTimeouts,
    onnotice: () => {},
    connection: { application_name: name },
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
    ...extra,
  });
}

/**
 * How long an instance let go of (`renew`) may take to finish what runs on it before its
 * connections are cut. Its idle connections close at once (a PostgreSQL shutting down waits for
 * nothing of ours); this bounds only queries that run on. Not a few seconds: postgres.js 3.4 reads
 * the array types on each new connection in a query whose failure nobody handles (upstream issues
 * #1192, #1223), so cutting a connection that is just opening is an unhandled rejection, and an old
 * instance still opens connections for the queries queued on it in its first seconds.
 */
export const DRAIN_S = 30;

/**
 * The server's database: a pool for single statements (`db.sql`) and connections of their own for
 * transactions (`db.begin`, `inGuildTx`), both postgres.js instances used through their public API.
 *
 * `db.sql` is the pool's current instance: read it for each query and never keep it, because
 * `renew` replaces the instances after PostgreSQL was unreachable. postgres.js 3.4 carries state of
 * a lost connection into its next one (an error message of the old backend that fails the first
 * query on the new one, upstream #1223; a write flushed only by a timer the close cancelled, which
 * leaves the new connection waiting for its connect timeout), so a fresh instance is the only way
 * to be sure every connection after an outage is a clean one; and ending the old ones lets a
 * PostgreSQL that shuts down (smart shutdown waits for its clients) complete.
 */
export class Database {
  #pool: Sql;
  #url: string;
  readonly #size: number;
  readonly #transactions: TransactionConnections;
  readonly #draining = new Set<Promise<void>>();

  /** `size`: connections of the pool, and as many more for transactions (each opened when first needed). */
  constructor(url: string, size = 10) {
    this.#url = url;
    this.#size = size;
    this.#pool = connect(url, size);
    this.#transactions = new TransactionConnections(url, size, (to, onclose) => connect(to, 1, 'dispatch-terminal/tx', { onclose }), DRAIN_S);
  }

  /** The pool's current instance, for single statements. Read it per query; `renew` replaces it. */
  get sql(): Sql {
    return this.#pool;
  }

  /** The pool's size, and the transactions' connections (tx-connections.ts `stats`), for the metrics. */
  get connectionStats(): { statementsMax: number; transactions: TransactionConnections['stats'] } {
    return { statementsMax: this.#size, transactions: this.#transactions.stats };
  }

  /** The URL the connections go to now. */
  get url(): string {
    return this.#url;
  }

  /**
   * `fn` in one transaction on a connection of its own: BEGIN (with `mode`, e.g. `isolation level
   * repeatable read`), `fn`'s statements, COMMIT. When `fn` throws, ROLLBACK, unless the connection is
   * gone (PostgreSQL rolled back with the session). A COMMIT that PostgreSQL answers with ROLLBACK
   * (a statement of `fn` failed without `fn` waiting for it) throws `TransactionRolledBack`.
   * BEGIN travels with `fn`'s first statement, not in a round trip of its own.
   */
  async begin<T>(fn: (sql: Sql) => Promise<T>, mode = ''): Promise<T> {
    const conn = await this.#transactions.take();
    let clean = false;
    let committing = false;
    try {
      const begun = conn.sql.unsafe(`begin ${mode.replace(/[^a-z ]/gi, '')}`).execute();
      begun.catch(() => {}); // awaited below; if it failed, so did fn's statements
      const value = await fn(conn.sql);
      await begun;
      committing = true;
      const done = await conn.sql`commit`;
      if (done.command === 'ROLLBACK') throw new TransactionRolledBack();
      clean = true;
      return value;
    } catch (err) {
      if (conn.lost || isConnectionFailure(err)) clean = false; // nothing more is sent on it; it is closed, not reused
      else if (committing) clean = true; // COMMIT was answered: the transaction is over either way
      else clean = await conn.sql`rollback`.then(() => true, () => false);
      throw err;
    } finally {
      this.#transactions.give(conn, clean);
    }
  }

  /**
   * Lets go of every connection and opens fresh ones from now on, to `url` when given (the embedded
   * PostgreSQL came back on another port): idle connections close at once, busy ones when what runs
   * on them is done (at most DRAIN_S; `end` waits for that too, up to its own timeout).
   */
  renew(url = this.#url): void {
    const old = this.#pool;
    this.#url = url;
    this.#pool = connect(url, this.#size);
    const drained: Promise<void> = old.end({ timeout: DRAIN_S }).catch(() => {}).then(() => void this.#draining.delete(drained));
    this.#draining.add(drained);
    this.#transactions.renew(url);
  }

  /** Ends every connection; with `timeout` (s), queries still running then are cut. */
  async end(options: { timeout?: number } = {}): Promise<void> {
    const drained = Promise.all(this.#draining);
    const timeoutS = options.timeout;
    await Promise.all([
      this.#pool.end(options), this.#transactions.end(timeoutS),
      typeof timeoutS === 'number' ? Promise.race([drained, new Promise((r) => setTimeout(r, timeoutS * 1000).unref())]) : drained,
    ]);
  }
}

/** COMMIT was answered with ROLLBACK: a statement of the transaction failed. */
export class TransactionRolledBack extends Error {
  constructor() {
    super('the transaction was rolled back: one of its statements failed');
  }
}

/** One connection of its own to `url` for health probes: short connect timeout, never retried by postgres.js. */
export function openProbe(url: string, connectTimeoutS: number): Sql {
  return postgres(url, {
    max: 1,
    connect_timeout: connectTimeoutS,
    fetch_types: false, // `select 1` needs none, and a probe is ended at any moment (DRAIN_S says why that matters)
    onnotice: () => {},
    connection: { application_name: 'dispatch-terminal/probe' },
  });
}
