import { runPeriodically } from '../../core/periodic.ts';
import type { Deps } from '../../deps.ts';
import { autoCloseShift, overdueShifts } from './store.ts';

export interface AutoCloseOptions {
  /** How often a node looks for shifts over their guild's maximum. A shift ends at its exact maximum whenever the sweep finds it. */
  everyMs: number;
}
export const defaultAutoCloseOptions: AutoCloseOptions = { everyMs: 30_000 };

/**
 * Closes forgotten shifts: every node sweeps, and each shift is closed exactly once — the close is
 * one conditional update (still open, still over the maximum), so of two nodes (or a node and a
 * clock-out) one changes the row and the other changes nothing. A closed shift sends the events of a
 * clock-out and refreshes the Discord panel, after its statement committed.
 */
export function startAutoClose(deps: Deps, opts: AutoCloseOptions = defaultAutoCloseOptions) {
  return runPeriodically(opts.everyMs, async (stopped) => {
    if (!deps.dbHealth.up) return;
    for (const due of await overdueShifts(deps.sql)) {
      if (stopped()) return;
      const done = await autoCloseShift(deps.sql, due.guildId, due.userId, due.maxShiftMs);
      if (!done) continue;
      if (done.event) deps.bus.publish([done.event]);
      deps.panel.refresh(due.guildId);
      deps.log.info('shift closed automatically', { guildId: due.guildId, userId: due.userId, maxShiftMs: due.maxShiftMs });
    }
  }, (err) => deps.log.warn('automatic shift closing failed; trying again at the next sweep', { error: String(err) }));
}
