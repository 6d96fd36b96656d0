import { computed, signal } from '@preact/signals';
import { addDays, addMonths, daysBetween, todayIn } from './format.ts';
import type { PeriodName, Section } from './words.ts';

/**
 * What the Statistik tab shows: the section, the period and the filters. Module signals, so they
 * survive a switch to another tab and back; every section reads the same period.
 */
export const section = signal<Section>('board');
export const period = signal<PeriodName>('weekly');
/** A day of the period to show (daily, weekly, monthly); null: the current one, as the server sees today. */
export const day = signal<string | null>(null);
/** Both days of a custom range, included. */
export const custom = signal<{ from: string; to: string }>({ from: addDays(todayIn(undefined), -29), to: todayIn(undefined) });
export const rank = signal('');
export const orgUnit = signal('');
export const limit = signal(25);
export const limits = [10, 25, 50, 100, 500] as const;
/** The person whose statistics are open on the Rangliste (null: the list). */
export const openPerson = signal<string | null>(null);

export interface ShownRange { period: PeriodName; firstDay: string | null; lastDay: string; timeZone: string }
/** The range of the last answer: what the bar names, and where ‹ › step from. */
export const shownRange = signal<ShownRange | null>(null);

/**
 * Bumped when the numbers may have changed (someone clocked in or out, the staffing minimum
 * changed, a resume): every open view loads again. Never faster than live.ts allows.
 */
export const dataVersion = signal(0);

export interface PeriodInput { period: PeriodName; date?: string; from?: string; to?: string }

/** The period parameters of every stats procedure and chart URL. */
export const periodInput = computed<PeriodInput>(() => {
  const p = period.value;
  if (p === 'custom') return { period: p, from: custom.value.from, to: custom.value.to };
  if (p === 'alltime' || day.value === null) return { period: p };
  return { period: p, date: day.value };
});

/** Rank and organisation-unit filters, only those set. */
export const filterInput = computed(() => ({
  ...(rank.value ? { rank: rank.value } : {}),
  ...(orgUnit.value ? { orgUnit: orgUnit.value } : {}),
}));

export function choosePeriod(next: PeriodName): void {
  const r = shownRange.peek();
  // Moving from a custom range to a day/week/month keeps the place in time: the range's last day.
  if (period.peek() === 'custom' && next !== 'custom' && next !== 'alltime' && r) day.value = isCurrent(r) ? null : r.lastDay;
  if (next === 'custom' && period.peek() !== 'custom' && r?.firstDay) custom.value = { from: r.firstDay, to: r.lastDay };
  period.value = next;
}

/** Whether the range holds today (in the guild's zone): no stepping forward past it. */
export function isCurrent(r: ShownRange): boolean {
  const today = todayIn(r.timeZone);
  return (r.firstDay === null || r.firstDay <= today) && today <= r.lastDay;
}

/** ‹ and ›: the period before or after the one shown, of the same kind and length. */
export function step(direction: -1 | 1): void {
  const p = period.peek();
  const r = shownRange.peek()?.period === p ? shownRange.peek() : null;
  if (p === 'alltime') return;
  if (p === 'custom') {
    const { from, to } = custom.peek();
    const days = daysBetween(from, to) + 1;
    custom.value = { from: addDays(from, direction * days), to: addDays(to, direction * days) };
    return;
  }
  const base = r?.firstDay ?? day.peek() ?? todayIn(r?.timeZone);
  const next = p === 'daily' ? addDays(base, direction) : p === 'weekly' ? addDays(base, 7 * direction) : addMonths(base, direction);
  const today = todayIn(r?.timeZone);
  // Stepping onto the period that holds today returns to "current", so it keeps following the clock.
  const nextLast = p === 'daily' ? next : p === 'weekly' ? addDays(next, 6) : addDays(addMonths(next, 1), -1);
  day.value = next <= today && today <= nextLast ? null : next;
}

export function backToToday(): void {
  if (period.peek() === 'custom') {
    const { from, to } = custom.peek();
    const today = todayIn(shownRange.peek()?.timeZone);
    custom.value = { from: addDays(today, -daysBetween(from, to)), to: today };
  } else day.value = null;
}
