import { addDays, addMonths, dayAt, daysBetween, isoDay, startOfDay, wallClock, weekday, type Day } from './zone.ts';

export const periodNames = ['daily', 'weekly', 'monthly', 'alltime', 'custom'] as const;
export type PeriodName = (typeof periodNames)[number];

/** The period a stats query asked for, already validated (schema.ts): `day` for daily/weekly/monthly, `from`/`to` for custom. */
export type PeriodQuery =
  | { period: 'daily' | 'weekly' | 'monthly'; day?: Day }
  | { period: 'alltime' }
  | { period: 'custom'; from: Day; to: Day };

/** A half-open range of instants [from, to); `from` null: since the beginning. Both local days are inclusive. */
export interface Range { from: number | null; to: number; firstDay: string | null; lastDay: string }

/** A bucket of a trend series: [start, end) and its label in the guild's language. */
export interface Bucket { start: number; end: number; label: string }

export interface Period {
  name: PeriodName;
  timeZone: string;
  range: Range;
  /** The period of the same kind right before (alltime: none). */
  previous: Range | null;
  /** The trend's buckets: hours of a day, days of a week, month or custom range, months of alltime. */
  unit: 'hour' | 'day' | 'month';
}

const range = (from: Day, toExclusive: Day, timeZone: string): Range => ({
  from: startOfDay(from, timeZone), to: startOfDay(toExclusive, timeZone), firstDay: isoDay(from), lastDay: isoDay(addDays(toExclusive, -1)),
});

/**
 * Resolves a period in the guild's zone. A week starts on Monday (ISO); a month is the calendar
 * month; custom covers both its days. The previous period: the day, week or calendar month before,
 * or the same number of days right before a custom range. Alltime runs from the first shift to now.
 */
export function resolvePeriod(q: PeriodQuery, timeZone: string, now: number): Period {
  const today = dayAt(now, timeZone);
  switch (q.period) {
    case 'daily': {
      const day = q.day ?? today;
      return { name: 'daily', timeZone, range: range(day, addDays(day, 1), timeZone), previous: range(addDays(day, -1), day, timeZone), unit: 'hour' };
    }
    case 'weekly': {
      const day = q.day ?? today;
      const monday = addDays(day, 1 - weekday(day));
      return { name: 'weekly', timeZone, range: range(monday, addDays(monday, 7), timeZone), previous: range(addDays(monday, -7), monday, timeZone), unit: 'day' };
    }
    case 'monthly': {
      const first = { ...(q.day ?? today), d: 1 };
      return { name: 'monthly', timeZone, range: range(first, addMonths(first, 1), timeZone), previous: range(addMonths(first, -1), first, timeZone), unit: 'day' };
    }
    case 'custom': {
      const days = daysBetween(q.from, q.to) + 1;
      const end = addDays(q.to, 1);
      return { name: 'custom', timeZone, range: range(q.from, end, timeZone), previous: range(addDays(q.from, -days), q.from, timeZone), unit: 'day' };
    }
    case 'alltime':
      return { name: 'alltime', timeZone, range: { from: null, to: now, firstDay: null, lastDay: isoDay(today) }, previous: null, unit: 'month' };
  }
}

const hourLabel = (t: number, timeZone: string) => `${String(wallClock(t, timeZone).hour).padStart(2, '0')}:00`;
const weekdays = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];
const months = ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'];

/**
 * The buckets of `r`: local hours (23 or 25 on a DST day), local days, or calendar months from the
 * month of `firstAt` (alltime). Labels are German: "14:00", "Mo 02.03.", "Mär 2026".
 */
export function bucketsOf(r: Range, unit: Period['unit'], timeZone: string, firstAt: number | null): Bucket[] {
  const buckets: Bucket[] = [];
  if (unit === 'hour') {
    for (let t = r.from!; t < r.to; t += 3_600_000) {
      // a zone with half-hour offsets still has whole local hours: step in UTC hours
      buckets.push({ start: t, end: Math.min(t + 3_600_000, r.to), label: hourLabel(t, timeZone) });
    }
    return buckets;
  }
  if (unit === 'day') {
    for (let day = dayAt(r.from!, timeZone), t = r.from!; t < r.to; ) {
      const next = addDays(day, 1);
      const end = startOfDay(next, timeZone);
      buckets.push({ start: t, end, label: `${weekdays[weekday(day) - 1]} ${String(day.d).padStart(2, '0')}.${String(day.m).padStart(2, '0')}.` });
      day = next;
      t = end;
    }
    return buckets;
  }
  const start = dayAt(firstAt ?? r.to, timeZone);
  for (let month = { y: start.y, m: start.m, d: 1 }; ; month = addMonths(month, 1)) {
    const t = startOfDay(month, timeZone);
    if (t >= r.to) break;
    const end = Math.min(startOfDay(addMonths(month, 1), timeZone), r.to);
    buckets.push({ start: t, end, label: `${months[month.m - 1]} ${month.y}` });
  }
  return buckets;
}
