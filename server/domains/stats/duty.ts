import type { Bucket, Period, Range } from './period.ts';
import { startOfDay, addDays, dayAt, weekday } from './zone.ts';

/** A span of duty [start, end) in epoch ms. */
export interface Span { start: number; end: number }

/** The part of `span` inside [from, to); `from` null: no lower bound. */
export function insideMs(span: Span, from: number | null, to: number): number {
  return Math.max(0, Math.min(span.end, to) - Math.max(span.start, from ?? -Infinity));
}

/** Duty time and shifts per bucket (a span counts in every bucket it overlaps, with its part inside). */
export function sumInBuckets(spans: Span[], buckets: Bucket[]): { ms: number; shifts: number }[] {
  return buckets.map((b) => {
    let ms = 0, shifts = 0;
    for (const s of spans) {
      const part = insideMs(s, b.start, b.end);
      if (part > 0) { ms += part; shifts += 1; }
    }
    return { ms, shifts };
  });
}

/** Duty time per local weekday (Monday first): a span crossing midnight is split at the local day's start. */
export function byWeekday(spans: Span[], range: Range, timeZone: string): number[] {
  const totals = [0, 0, 0, 0, 0, 0, 0];
  for (const s of spans) {
    let start = Math.max(s.start, range.from ?? -Infinity);
    const end = Math.min(s.end, range.to);
    while (start < end) {
      const day = dayAt(start, timeZone);
      const next = startOfDay(addDays(day, 1), timeZone);
      const stop = Math.min(end, next);
      totals[weekday(day) - 1] += stop - start;
      start = stop;
    }
  }
  return totals;
}

export interface Totals { totalMs: number; totalShifts: number; activeCount: number }

/** The trend: this period against the one before it, in total and bucket by bucket. */
export interface Trend {
  unit: Period['unit'];
  previous: (Totals & { firstDay: string | null; lastDay: string }) | null;
  changeMs: number | null;
  changePct: number | null;
  series: { label: string; start: string; totalMs: number; previousMs: number | null }[];
}

export function trendOf(period: Period, current: Totals, previous: Totals | null, buckets: Bucket[], currentMs: number[], previousMs: number[] | null): Trend {
  const change = previous ? current.totalMs - previous.totalMs : null;
  return {
    unit: period.unit,
    previous: previous && period.previous ? { ...previous, firstDay: period.previous.firstDay, lastDay: period.previous.lastDay } : null,
    changeMs: change,
    changePct: previous && previous.totalMs > 0 ? Math.round((change! / previous.totalMs) * 1000) / 10 : null,
    series: buckets.map((b, i) => ({
      label: b.label, start: new Date(b.start).toISOString(), totalMs: currentMs[i] ?? 0, previousMs: previousMs ? previousMs[i] ?? null : null,
    })),
  };
}

/** The range as the answers show it. */
export function rangeOut(period: Period) {
  const r = period.range;
  return {
    from: r.from === null ? null : new Date(r.from).toISOString(), to: new Date(r.to).toISOString(),
    firstDay: r.firstDay, lastDay: r.lastDay, timeZone: period.timeZone,
  };
}
