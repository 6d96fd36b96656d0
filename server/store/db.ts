import postgres from 'postgres';
import { attachWarm } from './warm.ts';
import { transaction } from './reserved.ts';

export type Sql = postgres.Sql<{}>;
/** A connection that may be inside a transaction; store functions take this. */
export type Db = Sql | postgres.TransactionSql<{}>;

/**
 * A pool of `max` connections to `url`. With `max` of 2 or more, one of them is the warm connection
 * of the hot writes (see warm.ts) and the pool proper has the others.
 *
 * The pool is renewable (`renewConnections`): after PostgreSQL was unreachable the server swaps in
 * fresh postgres.js instances and drains the old ones. postgres.js 3.4 keeps state of a lost
 * connection into its next one (an error message of the old backend that fails the first query
 * on the new one; a write flushed only by a timer the close cancelled, which leaves the new
 * connection waiting for its connect timeout; reconnect back-off that grows to 20 s), so a fresh
 * instance is the only way to be sure every connection after an outage is a clean one.
 */
export function connect(url: string, max = 10): Sql {
  if (max < 2) return renewable(url, max, 'dispatch-terminal');
  const pool = renewable(url, max - 1, 'dispatch-terminal');
  const warm = renewable(url, 1, 'dispatch-terminal/warm');
  controls.get(pool)!.companions.push(warm);
  attachWarm(pool, warm);
  return pool;
}

/**
 * Timeouts, so that nothing waits forever on a database that is gone: a connection attempt gives
 * up after 5 s (PostgreSQL on a reachable host answers in milliseconds, a refused one fails at
 * once), idle connections close after 5 minutes, and a lost connection is retried after at most
 * 1 s (postgres.js's default back-off grows to 20 s per attempt).
 */
const connectionTimeouts = { connect_timeout: 5, idle_timeout: 300, backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1) };

function open(url: string, max: number, name: string): Sql {
  return postgres(url, {
    max,
    ...connectionTimeouts,
    onnotice: () => {},
    connection: { application_name: name },
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
  });
}

/**
 * How long a renewed pool's old instance may take to finish what runs on it before its connections
 * are cut. Its idle connections close at once (a PostgreSQL shutting down waits for nothing of
 * ours); this bounds only queries that run on. Not a few seconds: cutting a connection that is
 * just opening is an unhandled rejection in postgres.js 3.4 (it reads the array types on each new
 * connection in a query whose failure nobody handles), which ends the process, and an old
 * instance still serves queries queued on it, opening connections for them, in its first seconds.
 */
const DRAIN_S = 30;

interface Control {
  url: string;
  /** Renewed, and ended, with this one (the warm connection of a pool). */
  companions: Sql[];
  /** Swaps in a fresh instance at once; the old one is ended in the background (see DRAIN_S). */
  renew(url: string): void;
}
const controls = new WeakMap<Db, Control>();

/** Members of a postgres.js instance that the facade hands on to the current one. */
const members = ['types', 'typed', 'unsafe', 'notify', 'array', 'json', 'file', 'parameters', 'largeObject', 'subscribe',
  'CLOSE', 'END', 'PostgresError', 'options', 'reserve', 'listen', 'close'] as const;

/**
 * A postgres.js instance behind a stable function: `facade\`…\``, `facade.unsafe(…)` and the rest
 * go to the current instance; `renew` replaces it and ends the old one once its queries are done
 * (see DRAIN_S). Every module keeps the facade, so a renewal reaches all of them. `begin` is
 * reserved.ts's `transaction`, safe when the connection is lost.
 */
function renewable(url: string, max: number, name: string): Sql {
  let current = open(url, max, name);
  const draining = new Set<Promise<void>>();
  const facade = function (this: unknown, ...args: unknown[]) {
    return (current as unknown as (...a: unknown[]) => unknown)(...args);
  } as unknown as Sql;
  for (const member of members) {
    Object.defineProperty(facade, member, { get: () => (current as unknown as Record<string, unknown>)[member], enumerable: true });
  }
  const control: Control = {
    url,
    companions: [],
    renew(next) {
      const old = current;
      current = open(next, max, name);
      control.url = next;
      const drained: Promise<void> = old.end({ timeout: DRAIN_S }).catch(() => {}).then(() => {
        draining.delete(drained);
      });
      draining.add(drained);
      for (const companion of control.companions) controls.get(companion)!.renew(next);
    },
  };
  // postgres.js's own begin sends ROLLBACK on a connection that is gone (reserved.ts says why).
  facade.begin = ((options: string | ((tx: postgres.TransactionSql<{}>) => unknown), fn?: (tx: postgres.TransactionSql<{}>) => unknown) =>
    typeof options === 'function' ? transaction(current, '', options) : transaction(current, options, fn!)) as Sql['begin'];
  facade.end = async (options) => {
    // Instances still draining are waited for up to the same timeout (their own is DRAIN_S).
    const drained = Promise.all(draining);
    const timeoutS = options?.timeout;
    await Promise.all([
      current.end(options), ...control.companions.map((c) => c.end(options)),
      typeof timeoutS === 'number' ? Promise.race([drained, new Promise((r) => setTimeout(r, timeoutS * 1000).unref())]) : drained,
    ]);
  };
  controls.set(facade, control);
  return facade;
}

/**
 * Replaces the connections of `sql` (made by `connect`) with fresh ones, to `url` when given (the
 * embedded PostgreSQL came back on another port): queries from now on use the new ones, while the
 * old ones finish what runs on them (DRAIN_S; `sql.end()` waits for that too, up to its timeout).
 * False when `sql` is not renewable (a plain postgres.js instance).
 */
export function renewConnections(sql: Db, url?: string): boolean {
  const control = controls.get(sql);
  if (!control) return false;
  control.renew(url ?? control.url);
  return true;
}

/** The URL `sql` (made by `connect`) connects to now; null for a plain postgres.js instance. */
export function urlOf(sql: Db): string | null {
  return controls.get(sql)?.url ?? null;
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
