import type { Log } from '../core/log.ts';
import type { PanelRefresher } from '../deps.ts';

/**
 * Refreshes a guild's time-clock panel after commit: debounced per guild (a burst of clock-ins is
 * one refresh), never blocking or failing the request. The Discord renderer plugs in as `render`;
 * until the bot exists it only logs.
 */
export function createPanelRefresher(log: Log, render: (guildId: string) => Promise<void> = async (g) => log.debug('panel refresh', { guildId: g }), debounceMs = 250): PanelRefresher {
  const pending = new Map<string, NodeJS.Timeout>();
  return {
    refresh(guildId) {
      if (pending.has(guildId)) return;
      const timer = setTimeout(() => {
        pending.delete(guildId);
        render(guildId).catch((err) => log.warn('panel refresh failed', { guildId, error: String(err) }));
      }, debounceMs);
      timer.unref();
      pending.set(guildId, timer);
    },
  };
}
