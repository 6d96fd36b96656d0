import type { Log } from '../core/log.ts';
import type { PanelRefresher } from '../deps.ts';

export interface PanelTiming {
  /** Wait after the first change, so a burst's first edit already carries several changes. */
  firstMs: number;
  /** Least time between two edits of one guild's panel: a burst of clock-ins is at most two edits. */
  minGapMs: number;
  /** Retry after a failed edit (Discord down, rate limited past its retries), doubling up to the last. */
  retryMs: readonly [number, number];
}

export const defaultPanelTiming: PanelTiming = { firstMs: 250, minGapMs: 1_500, retryMs: [2_000, 30_000] };

export interface PanelScheduler extends PanelRefresher {
  /** Stops every pending edit (this node lost the gateway lease, or shuts down). */
  stop(): void;
}

interface GuildState { timer: NodeJS.Timeout | null; running: boolean; dirty: boolean; lastEditAt: number; failures: number }

/**
 * Refreshes a guild's panel after changes, off the request path: `refresh` only marks the guild and
 * returns. An edit renders the state of its own moment, so changes that arrive while one is pending
 * or running are all carried by the next one; edits of a guild are at least `minGapMs` apart, so
 * any burst costs at most two edits and the panel is never more than firstMs + minGapMs behind
 * while Discord answers. A failed edit is retried with backoff until Discord is back; the
 * request that caused it never waits for it.
 */
export function createPanelScheduler(log: Log, render: (guildId: string) => Promise<void>, timing: PanelTiming = defaultPanelTiming): PanelScheduler {
  const guilds = new Map<string, GuildState>();
  let stopped = false;

  const schedule = (guildId: string, state: GuildState, delayMs: number) => {
    state.timer = setTimeout(() => run(guildId, state), delayMs);
    state.timer.unref();
  };

  const run = async (guildId: string, state: GuildState) => {
    state.timer = null;
    state.running = true;
    state.dirty = false;
    try {
      await render(guildId);
      state.failures = 0;
    } catch (err) {
      state.failures++;
      state.dirty = true;
      log.warn('time-clock panel edit failed; retrying', { guildId, error: String(err), attempt: state.failures });
    } finally {
      state.running = false;
      state.lastEditAt = Date.now();
    }
    if (stopped || !state.dirty) return;
    const retry = state.failures ? Math.min(timing.retryMs[0] * 2 ** (state.failures - 1), timing.retryMs[1]) : 0;
    schedule(guildId, state, Math.max(retry, timing.minGapMs));
  };

  return {
    refresh(guildId) {
      if (stopped) return;
      let state = guilds.get(guildId);
      if (!state) guilds.set(guildId, state = { timer: null, running: false, dirty: false, lastEditAt: 0, failures: 0 });
      if (state.running) {
        state.dirty = true; // the running edit may have read the state before this change
        return;
      }
      if (state.timer) return; // the pending edit will read this change
      schedule(guildId, state, Math.max(timing.firstMs, state.lastEditAt + timing.minGapMs - Date.now()));
    },
    stop() {
      stopped = true;
      for (const state of guilds.values()) if (state.timer) clearTimeout(state.timer);
      guilds.clear();
    },
  };
}

/** Without Discord (no token): clock writes only note that a panel would be refreshed. */
export function createLoggingPanel(log: Log): PanelRefresher {
  return { refresh: (guildId) => log.debug('panel refresh (Discord is off)', { guildId }) };
}
