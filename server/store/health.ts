import type { AppError } from '../core/errors.ts';
import { limitRepeats, type Log } from '../core/log.ts';
import { databaseUnavailable } from './faults.ts';
import { openProbe, type Database, type Sql } from './db.ts';

/**
 * Whether PostgreSQL answers, as this process last saw it. Readiness (`GET /ready`) and the live
 * boards' degraded signal read it; the doors answer database routes with 503 at once while it is
 * down. It goes down when a query fails for want of a connection (`set(false)`) or a probe fails,
 * and up again only when a probe succeeds (`monitorDatabase`).
 */
export interface DatabaseHealth {
  readonly up: boolean;
  /** `listener` is called with the new state on every change; the function returned unsubscribes. */
  onChange(listener: (up: boolean, cause?: unknown) => void): () => void;
  /** Records what was seen (and, going down, why); listeners hear only changes. */
  set(up: boolean, cause?: unknown): void;
}

export function createDatabaseHealth(): DatabaseHealth {
  const listeners = new Set<(up: boolean, cause?: unknown) => void>();
  let up = true;
  return {
    get up() {
      return up;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next, cause) {
      if (next === up) return;
      up = next;
      for (const listener of [...listeners]) listener(up, cause);
    },
  };
}

/**
 * A request lost its database connection: `health` goes down (the monitor probes at once, and the
 * database routes answer 503 at once until a probe succeeds); returns the 503 to answer with.
 */
export function databaseLost(health: DatabaseHealth, cause: unknown): AppError {
  health.set(false, cause);
  return databaseUnavailable(cause);
}

export interface MonitorOptions {
  /** Probe interval while PostgreSQL answers: notices an outage even when no request runs into it. */
  upEveryMs: number;
  /** Probe interval while it does not: how soon after PostgreSQL is back the server serves again. */
  downEveryMs: number;
  /** A probe slower than this counts as failed (while up; a loaded machine must not flap readiness). */
  upTimeoutMs: number;
  /** The same while down (also the probe's connect timeout). */
  downTimeoutMs: number;
  /**
   * While up, the probe connects anew at least this often. A PostgreSQL in a smart shutdown (SIGTERM)
   * refuses new connections while the sessions it has go on working, and stops only once they end:
   * only a new connection tells, also when no request needs one.
   */
  reconnectEveryMs: number;
  /** While down, one line says so this often (the first one at once). */
  reportEveryMs: number;
}

const defaultMonitorOptions: MonitorOptions = { upEveryMs: 1000, downEveryMs: 500, upTimeoutMs: 3000, downTimeoutMs: 1000, reconnectEveryMs: 5000, reportEveryMs: 30_000 };

const errorText = (err: unknown) => String((err as Error)?.message ?? err);

/**
 * Keeps `health` true to what PostgreSQL does: `select 1` on a connection of its own (not the
 * pool, whose queue under load would make a healthy database look slow), every `upEveryMs`, and
 * every `downEveryMs` plus at once when something reports a failure.
 *
 * When `health` goes down, for whatever reason, the server lets go of every connection it holds:
 * `db`'s connections are renewed (db.ts: the old ones close as soon as what runs on them is
 * done) and the probe's connection is closed. A PostgreSQL that is shutting down can then
 * complete, also a smart shutdown, which waits for its clients (the embedded one is restarted,
 * embedded-supervisor.ts). While down, each probe uses a new connection, as a request would: an
 * old one that still answers proves nothing. When one succeeds, the connections are renewed again (a
 * fresh start after the outage) before `health` goes up.
 *
 * Logged: an outage once when it begins, then one line every `reportEveryMs` while it lasts, and
 * its end; a database that keeps going down and up again writes at most a few lines a minute.
 */
export function monitorDatabase(db: Database, health: DatabaseHealth, log: Log, opts: MonitorOptions = defaultMonitorOptions) {
  let probe: { sql: Sql; openedAt: number } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const outage = { since: 0, failedProbes: 0, reportedAt: 0, error: '' };
  const changes = limitRepeats(log, { burst: 2, windowMs: 60_000 });

  function closeProbe(): Promise<void> {
    const old = probe;
    probe = null;
    return old ? old.sql.end({ timeout: 0 }).catch(() => {}) : Promise.resolve();
  }

  /** The probe's connection: kept while up for `reconnectEveryMs`, new for every probe while down. */
  function probeConnection(): Sql {
    if (probe && (!health.up || Date.now() - probe.openedAt >= opts.reconnectEveryMs)) void closeProbe();
    const timeoutMs = health.up ? opts.upTimeoutMs : opts.downTimeoutMs;
    probe ??= { sql: openProbe(db.url, Math.max(1, Math.ceil(timeoutMs / 1000))), openedAt: Date.now() };
    return probe.sql;
  }

  async function answers(timeoutMs: number): Promise<boolean> {
    const conn = probeConnection();
    let timeout: NodeJS.Timeout | undefined;
    const query = conn`select 1`.execute();
    query.catch(() => {}); // a probe given up on (timed out) can still fail later, when its connection ends: not an unhandled rejection
    try {
      await Promise.race([
        query,
        new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
      ]);
      return true;
    } catch (err) {
      if (conn === probe?.sql) void closeProbe();
      outage.error = errorText(err);
      if (health.up) changes.warn('PostgreSQL does not answer the health probe', { error: outage.error });
      return false;
    } finally {
      clearTimeout(timeout);
    }
  }

  async function check(): Promise<void> {
    const wasUp = health.up;
    const ok = await answers(wasUp ? opts.upTimeoutMs : opts.downTimeoutMs);
    if (stopped) return;
    if (ok && !health.up) {
      if (wasUp) return; // a request failed while this probe ran: the next probe decides
      db.renew();
      changes.info('PostgreSQL answers again; serving database routes', { downMs: Date.now() - outage.since });
      health.set(true);
    } else if (!ok) {
      health.set(false, outage.error);
      if (wasUp) return;
      outage.failedProbes++;
      if (Date.now() - outage.reportedAt < opts.reportEveryMs) return;
      outage.reportedAt = Date.now();
      log.warn('PostgreSQL still unreachable; database routes answer 503', { downS: Math.round((Date.now() - outage.since) / 1000), failedProbes: outage.failedProbes, error: outage.error });
    }
  }

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  }

  /** One probe at a time; the next is scheduled after it, at the interval its outcome calls for. */
  function run(): void {
    running ??= check()
      .catch((err) => log.warn('database probe failed', { error: String(err) }))
      .finally(() => {
        running = null;
        schedule(health.up ? opts.upEveryMs : opts.downEveryMs);
      });
  }

  const off = health.onChange((up, cause) => {
    if (up) return;
    Object.assign(outage, { since: Date.now(), reportedAt: Date.now(), failedProbes: 0 });
    // Let go of everything, so that a PostgreSQL shutting down is not held up by us.
    db.renew();
    void closeProbe();
    changes.warn('PostgreSQL unreachable; database routes answer 503 until it answers again', cause === undefined ? undefined : { error: errorText(cause) });
    if (!running) schedule(0); // something failed: look now, not at the next tick
  });
  schedule(opts.upEveryMs);

  return {
    async stop() {
      stopped = true;
      off();
      if (timer) clearTimeout(timer);
      await running;
      await closeProbe();
    },
  };
}
