/** German number and duration texts for the charts (axes, data labels, legends). */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const integer = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });

/**
 * A duty time in hours and minutes, never days (duty hours are counted in hours):
 * 0 → "0 min", 59 s → "< 1 min", 45 min → "45 min", 12.5 h → "12 h 30 min", 72 h → "72 h",
 * 1234 h → "1.234 h". Minutes are rounded down (a time is never overstated); a negative or
 * non-finite value counts as 0.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 min';
  if (ms < MINUTE) return '< 1 min';
  const totalMinutes = Math.floor(ms / MINUTE);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${integer.format(hours)} h` : `${integer.format(hours)} h ${minutes} min`;
}

/** The short form where space is scarce: whole hours from 1 h on ("12 h" for 12 h 30 min), else as formatDuration. */
export function formatDurationShort(ms: number): string {
  if (!Number.isFinite(ms) || ms < HOUR) return formatDuration(ms);
  return `${integer.format(Math.floor(ms / HOUR))} h`;
}

/** A value axis counts hours, or minutes when no value reaches 2 h (ticks "0 min", "30 min"…). */
export interface AxisUnit { perMs: number; suffix: 'h' | 'min' }

export function axisUnitFor(maxMs: number): AxisUnit {
  return maxMs >= 2 * HOUR ? { perMs: 1 / HOUR, suffix: 'h' } : { perMs: 1 / MINUTE, suffix: 'min' };
}

/** A tick of a value axis in its unit: "0 h", "10 h", "1.250 h", "2,5 h". */
export function formatTick(value: number, unit: AxisUnit): string {
  return `${decimal.format(value)} ${unit.suffix}`;
}

/** A share as a German percentage: 0.342 → "34 %" (below 1 % but above 0: "< 1 %"). */
export function formatPercent(share: number): string {
  if (share > 0 && share < 0.005) return '< 1 %';
  return `${percent.format(share * 100)} %`;
}
