import type { AppError } from '../core/errors.ts';
import type { Log } from '../core/log.ts';
import { databaseUnavailable } from './faults.ts';
import { openProbe, renewConnections, urlOf, type Sql } from './db.ts';

/**
 * Whether PostgreSQL answers, as this process last saw it. Readiness (`GET /ready`) and the live
 * boards' degraded signal read it; the doors answer database routes with 503 at once while it is
 * down. It goes down when a query fails for want of a connection (`set(false)`) or a probe fails,
 * and up again only when a probe succeeds (`monitorDatabase`).
 */
export interface DatabaseHealth {
  readonly up: boolean;
  /** `listener` is called with the new state on every change; the function returned unsubscribes. */
  onChange(listener: (up: boolean) => void): () => void;
  /** Records what was seen; listeners hear only changes. */
  set(up: boolean): void;
}

export function createDatabaseHealth(): DatabaseHealth {
  const listeners = new Set<(up: boolean) => void>();
  let up = true;
  return {
    get up() {
      return up;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (next === up) return;
      up = next;
      for (const listener of [...listeners]) listener(up);
    },
  };
}

/**
 * A request lost its database connection: `health` goes down (the monitor probes at once, and the
 * database routes answer 503 at once until a probe succeeds); returns the 503 to answer with.
 */
export function databaseLost(health: DatabaseHealth, cause: unknown): AppError {
  health.set(false);
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
}

const defaultMonitorOptions: MonitorOptions = { upEveryMs: 1000, downEveryMs: 500, upTimeoutMs: 3000, downTimeoutMs: 1000 };

/**
 * Keeps `health` true to what PostgreSQL does: `select 1` on a connection of its own (not the
 * pool, whose queue under load would make a healthy database look slow), every `upEveryMs`, and
 * every `downEveryMs` plus at once when something reports a failure. Each probe while down uses a
 * new connection. When a probe succeeds after an outage, the pools of `sql` are renewed (db.ts)
 * before `health` goes up, so the first requests after it run on fresh connections.
 */
export function monitorDatabase(sql: Sql, health: DatabaseHealth, log: Log, opts: MonitorOptions = defaultMonitorOptions) {
  let probe: Sql | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let downSince = 0;

  async function answers(timeoutMs: number): Promise<boolean> {
    const url = urlOf(sql);
    const conn = url ? (probe ??= openProbe(url, Math.max(1, Math.ceil(opts.downTimeoutMs / 1000)))) : sql;
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
      if (conn === probe) {
        probe = null;
        conn.end({ timeout: 0 }).catch(() => {});
      }
      if (health.up) log.warn('PostgreSQL does not answer the health probe', { error: String((err as Error)?.message ?? err) });
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
      renewConnections(sql);
      log.info('PostgreSQL answers again; serving database routes', { downMs: Date.now() - downSince });
      health.set(true);
    } else if (!ok) {
      health.set(false);
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

  const off = health.onChange((up) => {
    if (up) return;
    downSince = Date.now();
    log.warn('PostgreSQL unreachable; database routes answer 503 until it answers again');
    if (!running) schedule(0); // something failed: look now, not at the next tick
  });
  schedule(opts.upEveryMs);

  return {
    async stop() {
      stopped = true;
      off();
      if (timer) clearTimeout(timer);
      await running;
      await probe?.end({ timeout: 0 });
      probe = null;
    },
  };
}
