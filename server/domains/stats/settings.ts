import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../store/tx.ts';
import { inGuildTx } from '../../store/tx.ts';
import * as store from './settings-store.ts';
import { canonicalZone } from './zone.ts';

export async function clockSettingsOf(deps: Deps, guildId: string): Promise<store.ClockSettings> {
  const c = await store.clockSettings(deps.sql, guildId);
  if (!c) throw new AppError('NOT_FOUND', 'unknown guild');
  return c;
}

/** Time zone and longest shift; a lower maximum closes the shifts already over it at the next sweep (timeclock/auto-close.ts). */
export async function setClockSettings(deps: Deps, guildId: string, patch: { timeZone?: string; maxShiftMs?: number | null }, actor: Actor) {
  const timeZone = patch.timeZone === undefined ? undefined : canonicalZone(patch.timeZone);
  if (timeZone === null) throw new AppError('BAD_REQUEST', `unknown time zone ${patch.timeZone}: use an IANA name like Europe/Berlin`);
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const settings = await store.setClockSettings(tx.sql, guildId, { timeZone, maxShiftMs: patch.maxShiftMs });
    tx.emit('settings', { op: 'set', key: 'clock', value: settings });
    tx.audit('settings.clock_set', actor, { ...patch, ...(timeZone ? { timeZone } : {}) });
    return settings;
  });
}

export async function setStaffing(deps: Deps, guildId: string, minOnDuty: number, actor: Actor) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const settings = await store.setMinOnDuty(tx.sql, guildId, minOnDuty);
    tx.emit('settings', { op: 'set', key: 'clock', value: settings });
    tx.audit('stats.staffing_set', actor, { minOnDuty });
    return { minOnDuty: settings.minOnDuty, timeZone: settings.timeZone };
  });
}
