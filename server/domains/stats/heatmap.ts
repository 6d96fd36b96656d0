import type { Deps } from '../../deps.ts';
import { rangeOut } from './duty.ts';
import type { PeriodQuery } from './period.ts';
import { periodOf } from './service.ts';
import * as store from './store.ts';
import { wallClock, weekday } from './zone.ts';

/** Understaffed runs listed in an answer at most; the cells count them all. */
export const UNDERSTAFFED_LIST_LIMIT = 500;

interface HourMeasure { start: number; end: number; staffMs: number; lowest: number; highest: number; shortMs: number }

/**
 * Sweeps the period hour by hour (local hours, up to now): per hour the staff-time on duty, the
 * lowest and highest head count at any moment, and how long the count was below `minimum`.
 */
function measureHours(spans: store.ShiftSpan[], from: number, to: number, minimum: number): HourMeasure[] {
  const edges: [number, number][] = [];
  for (const s of spans) if (s.end > s.start) edges.push([s.start, 1], [s.end, -1]);
  edges.sort((a, b) => a[0] - b[0]);
  const hours: HourMeasure[] = [];
  let count = 0, i = 0;
  for (let start = from; start < to; start += 3_600_000) {
    // changes at the hour's first instant (or before the period) decide its count from the start
    while (i < edges.length && edges[i][0] <= start) count += edges[i++][1];
    const end = Math.min(start + 3_600_000, to);
    const h: HourMeasure = { start, end, staffMs: 0, lowest: count, highest: count, shortMs: 0 };
    let t = start;
    const segment = (until: number) => {
      h.staffMs += count * (until - t);
      if (count < minimum) h.shortMs += until - t;
      t = until;
    };
    while (i < edges.length && edges[i][0] < end) {
      segment(edges[i][0]);
      count += edges[i++][1];
      // a count only lasting zero ms (several edges at one instant) is not a moment anyone saw
      if (i < edges.length && edges[i][0] === t) continue;
      h.lowest = Math.min(h.lowest, count);
      h.highest = Math.max(h.highest, count);
    }
    segment(end);
    hours.push(h);
  }
  return hours;
}

/**
 * Weekday × hour of staff on duty in the period, with understaffing: an hour is understaffed when
 * the head count fell below the minimum at any moment of it; `shortMs` says for how long. Only the
 * past counts: a period's hours after now are not measured.
 */
export async function heatmap(deps: Deps, guildId: string, q: PeriodQuery, o: { rank?: string; orgUnit?: string; minOnDuty?: number }) {
  const { period, now, settings } = await periodOf(deps, guildId, q);
  const minimum = o.minOnDuty ?? settings.minOnDuty;
  const spans = await store.shiftSpans(deps.sql, guildId, period.range, new Date(now), { rank: o.rank, orgUnit: o.orgUnit });
  const first = period.range.from ?? spans.reduce((m, s) => Math.min(m, s.start), Infinity);
  // alltime starts at the local hour of the first shift; a zone with a :30 offset keeps its local hours
  const from = Number.isFinite(first) ? first - (wallClock(first, period.timeZone).minute * 60_000 + wallClock(first, period.timeZone).second * 1000 + (first % 1000)) : now;
  const hours = measureHours(spans, from, Math.min(period.range.to, now), minimum);

  const cells = Array.from({ length: 7 * 24 }, (_, k) => ({
    weekday: Math.floor(k / 24) + 1, hour: k % 24, hours: 0, staffMs: 0, measuredMs: 0, maxOnDuty: 0, understaffedHours: 0,
  }));
  const understaffed: { from: string; to: string; lowest: number; shortMs: number }[] = [];
  let runs = 0, understaffedHours = 0;
  let run: { from: number; to: number; lowest: number; shortMs: number } | null = null;
  const closeRun = () => {
    if (!run) return;
    runs += 1;
    if (understaffed.length < UNDERSTAFFED_LIST_LIMIT) {
      understaffed.push({ from: new Date(run.from).toISOString(), to: new Date(run.to).toISOString(), lowest: run.lowest, shortMs: run.shortMs });
    }
    run = null;
  };
  for (const h of hours) {
    const w = wallClock(h.start, period.timeZone);
    const cell = cells[(weekday(w) - 1) * 24 + w.hour];
    cell.hours += 1;
    cell.staffMs += h.staffMs;
    cell.measuredMs += h.end - h.start;
    cell.maxOnDuty = Math.max(cell.maxOnDuty, h.highest);
    if (minimum > 0 && h.lowest < minimum) {
      cell.understaffedHours += 1;
      understaffedHours += 1;
      if (run && run.to === h.start) { run.to = h.end; run.lowest = Math.min(run.lowest, h.lowest); run.shortMs += h.shortMs; }
      else { closeRun(); run = { from: h.start, to: h.end, lowest: h.lowest, shortMs: h.shortMs }; }
    } else closeRun();
  }
  closeRun();
  return {
    period: period.name,
    range: rangeOut(period),
    minOnDuty: minimum,
    filter: { rank: o.rank ?? null, orgUnit: o.orgUnit ?? null },
    cells: cells.map((c) => ({
      weekday: c.weekday, hour: c.hour, hours: c.hours,
      avgOnDuty: c.measuredMs > 0 ? Math.round((c.staffMs / c.measuredMs) * 100) / 100 : 0,
      maxOnDuty: c.maxOnDuty, understaffedHours: c.understaffedHours,
    })),
    totals: { hours: hours.length, staffMs: hours.reduce((a, h) => a + h.staffMs, 0), understaffedHours, understaffedRuns: runs },
    understaffed,
    understaffedTruncated: runs > understaffed.length,
  };
}
