import type postgres from 'postgres';

type Sql = postgres.Sql<{}>;

/**
 * A connection lent to one transaction: a postgres.js instance with one connection of its own.
 *
 * Why not `sql.begin()` or `sql.reserve()` of the pool: postgres.js 3.4 sends the queries of a
 * reserved connection on its connection object without checking that it is still connected. When
 * PostgreSQL closes that connection under a transaction, the next statement (or postgres.js's own
 * ROLLBACK) is written to a socket that is gone, from a timer, and the process dies (upstream issue
 * #1208, fix proposed in #1209); or, once the pool has reconnected that connection for another
 * query, the statement runs there, outside its transaction. An instance of its own says when its one
 * connection closes (the public `onclose` option): the connection is then marked lost and its
 * instance ended at once, so every later statement of the transaction fails with CONNECTION_ENDED
 * before it is sent, and none runs on a new session. Its queries go through the instance's own pool
 * logic, which never writes to a closed connection.
 */
export interface Lent {
  /** The connection: the borrower's alone until it is given back. */
  readonly sql: Sql;
  /** It closed while lent: every statement from then on fails, and it is not reused. */
  readonly lost: boolean;
}

interface Conn extends Lent {
  sql: Sql;
  lost: boolean;
  lent: boolean;
  /** Made before the last `renew`: closed when given back. */
  generation: number;
}

/** Opens an instance of one connection to `url` whose `onclose` option is `onclose`. */
export type OpenConnection = (url: string, onclose: () => void) => Sql;

/**
 * Up to `max` connections for transactions. The one given back last is lent first, so a trickle of
 * writes stays on one backend with warm caches (a pool's idle connections go round first in, first
 * out: measured before, PostgreSQL spent 1.7 ms of CPU per clock pair rotating over ten backends and
 * 1.0–1.2 ms on one). A connection opens when first needed.
 */
export class TransactionConnections {
  #url: string;
  #generation = 0;
  #ended = false;
  readonly #idle: Conn[] = [];
  readonly #all = new Set<Conn>();
  readonly #waiting: { resolve(conn: Conn): void; reject(err: unknown): void }[] = [];
  readonly #closing = new Set<Promise<void>>();

  constructor(url: string, private readonly max: number, private readonly open: OpenConnection, private readonly drainS: number) {
    this.#url = url;
  }

  /** A connection for one transaction; waits while all are lent. */
  async take(): Promise<Lent> {
    if (this.#ended) throw ended();
    const idle = this.#idle.pop();
    if (idle) return lend(idle);
    if (this.#all.size < this.max) return lend(this.#create());
    return new Promise<Conn>((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** Back from its borrower: lent again when `clean` (its transaction is over and it still works), else closed. */
  give(lent: Lent, clean: boolean): void {
    const conn = lent as Conn;
    conn.lent = false;
    const reuse = clean && !conn.lost && conn.generation === this.#generation && !this.#ended;
    if (!reuse) this.#close(conn);
    const next = this.#waiting.shift();
    if (next) next.resolve(lend(reuse ? conn : this.#create()));
    else if (reuse) this.#idle.push(conn);
  }

  /** How many there may be, are open, are lent to a transaction, and transactions wait for one (the metrics). */
  get stats(): { max: number; open: number; lent: number; waiting: number } {
    return { max: this.max, open: this.#all.size, lent: this.#all.size - this.#idle.length, waiting: this.#waiting.length };
  }

  /** Connections from now on go to `url`; idle ones close now, lent ones when given back. */
  renew(url: string): void {
    this.#url = url;
    this.#generation++;
    for (const conn of this.#idle.splice(0)) this.#close(conn);
  }

  /** Ends every connection; with `timeoutS`, statements still running then are cut. */
  async end(timeoutS?: number): Promise<void> {
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(ended());
    this.#idle.length = 0;
    const all = [...this.#all].map((conn) => conn.sql.end({ timeout: timeoutS }).catch(() => {}));
    const closing = Promise.all(this.#closing);
    await Promise.all([...all, timeoutS === undefined ? closing : Promise.race([closing, new Promise((r) => setTimeout(r, timeoutS * 1000).unref())])]);
  }

  #create(): Conn {
    const conn: Conn = { sql: undefined as unknown as Sql, lost: false, lent: false, generation: this.#generation };
    conn.sql = this.open(this.#url, () => {
      if (!conn.lent || conn.lost) return; // an idle connection reconnects when next used
      conn.lost = true;
      void conn.sql.end({ timeout: 0 }).catch(() => {}); // statements sent from now on fail; queued ones too
    });
    this.#all.add(conn);
    return conn;
  }

  #close(conn: Conn): void {
    if (!this.#all.delete(conn)) return;
    const closing: Promise<void> = conn.sql.end({ timeout: conn.lost ? 0 : this.drainS }).catch(() => {}).then(() => void this.#closing.delete(closing));
    this.#closing.add(closing);
  }
}

function lend(conn: Conn): Conn {
  conn.lent = true; // before any await: a close from now on belongs to the borrower
  return conn;
}

function ended(): Error {
  return Object.assign(new Error('the database was closed'), { code: 'CONNECTION_ENDED' });
}
