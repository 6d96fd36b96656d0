import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { byWeekday, insideMs, rangeOut, sumInBuckets, trendOf, type Span, type Totals } from './duty.ts';
import { bucketsOf, resolvePeriod, type Period, type PeriodQuery } from './period.ts';
import { clockSettings, type ClockSettings } from './settings-store.ts';
import * as store from './store.ts';

/** The guild's zone and the period in it, at one `now` that every query of the answer shares. */
export async function periodOf(deps: Deps, guildId: string, q: PeriodQuery): Promise<{ period: Period; now: number; settings: ClockSettings }> {
  const settings = await clockSettings(deps.sql, guildId);
  if (!settings) throw new AppError('NOT_FOUND', 'unknown guild');
  const now = Date.now();
  return { period: resolvePeriod(q, settings.timeZone, now), now, settings };
}

const totalsOf = (duty: store.PersonDuty[]): Totals => ({
  totalMs: duty.reduce((a, d) => a + d.ms, 0),
  totalShifts: duty.reduce((a, d) => a + d.shifts, 0),
  activeCount: duty.filter((d) => d.ms > 0).length,
});

const byDuty = (a: store.PersonDuty, b: store.PersonDuty) => b.ms - a.ms || b.shifts - a.shifts || (a.userId < b.userId ? -1 : 1);

export interface LeaderboardOptions { limit: number; rank?: string; orgUnit?: string }

/**
 * Who served how long in the period, best first: per person their duty time inside the period
 * (shifts crossing a bound count with their part inside, open shifts up to now). Totals cover
 * everyone who matches the filter, not only the rows shown. The trend compares with the period
 * before, in total and bucket by bucket.
 */
export async function leaderboard(deps: Deps, guildId: string, q: PeriodQuery, o: LeaderboardOptions) {
  const { period, now } = await periodOf(deps, guildId, q);
  const who = { rank: o.rank, orgUnit: o.orgUnit };
  const at = new Date(now);
  const first = period.range.from === null ? await store.firstShiftAt(deps.sql, guildId) : null;
  const buckets = bucketsOf(period.range, period.unit, period.timeZone, first);
  const prevBuckets = period.previous ? bucketsOf(period.previous, period.unit, period.timeZone, null) : null;
  const [current, previous, currentByBucket, previousByBucket] = await Promise.all([
    store.dutyByPerson(deps.sql, guildId, period.range, at, who),
    period.previous ? store.dutyByPerson(deps.sql, guildId, period.previous, at, who) : null,
    store.dutyByBucket(deps.sql, guildId, buckets.map((b) => b.start), buckets.map((b) => b.end), at, who),
    prevBuckets ? store.dutyByBucket(deps.sql, guildId, prevBuckets.map((b) => b.start), prevBuckets.map((b) => b.end), at, who) : null,
  ]);
  const top = current.filter((d) => d.ms > 0).sort(byDuty).slice(0, o.limit);
  const people = await store.peopleByIds(deps.sql, guildId, top.map((d) => d.userId));
  const totals = totalsOf(current);
  return {
    period: period.name,
    range: rangeOut(period),
    filter: { rank: o.rank ?? null, orgUnit: o.orgUnit ?? null },
    totals,
    rows: top.map((d, i) => {
      const p = people.get(d.userId);
      return { place: i + 1, userId: d.userId, badgeNumber: p?.badge ?? null, nickname: p?.nickname ?? d.userId, rank: p?.rank ?? null, totalMs: d.ms, shiftCount: d.shifts };
    }),
    trend: trendOf(period, totals, previous ? totalsOf(previous) : null, buckets, currentByBucket.map((b) => b.ms), previousByBucket?.map((b) => b.ms) ?? null),
  };
}
export type Leaderboard = Awaited<ReturnType<typeof leaderboard>>;

const weekdayNames = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];
/** At most this many single shifts in a `detail` answer. */
export const DETAIL_LIMIT = 1000;

/**
 * One person's statistics in the period: totals, average and longest shift (their parts inside the
 * period), duty time by local weekday, the trend, and with `detail` the single shifts.
 */
export async function personStats(deps: Deps, guildId: string, userId: string, q: PeriodQuery, detail: boolean) {
  const { period, now } = await periodOf(deps, guildId, q);
  const at = new Date(now);
  const people = await store.peopleByIds(deps.sql, guildId, [userId]);
  const person = people.get(userId);
  if (!person) throw new AppError('NOT_FOUND', `no person ${userId} in this guild`);
  const [shifts, previousShifts] = await Promise.all([
    store.shiftsOfPerson(deps.sql, guildId, userId, period.range, at),
    period.previous ? store.shiftsOfPerson(deps.sql, guildId, userId, period.previous, at) : null,
  ]);
  const spans = shifts.map(toSpan(now));
  const parts = spans.map((s) => insideMs(s, period.range.from, period.range.to));
  const totals = { totalMs: sum(parts), totalShifts: parts.length, activeCount: parts.some((p) => p > 0) ? 1 : 0 };
  const first = period.range.from === null && spans.length > 0 ? spans[spans.length - 1].start : null;
  const buckets = bucketsOf(period.range, period.unit, period.timeZone, first);
  let previous: Totals | null = null, previousByBucket: number[] | null = null;
  if (period.previous && previousShifts) {
    const prevSpans = previousShifts.map(toSpan(now));
    const prevParts = prevSpans.map((s) => insideMs(s, period.previous!.from, period.previous!.to));
    previous = { totalMs: sum(prevParts), totalShifts: prevParts.length, activeCount: prevParts.some((p) => p > 0) ? 1 : 0 };
    previousByBucket = sumInBuckets(prevSpans, bucketsOf(period.previous, period.unit, period.timeZone, null)).map((b) => b.ms);
  }
  const weekdays = byWeekday(spans, period.range, period.timeZone);
  return {
    period: period.name,
    range: rangeOut(period),
    userId, badgeNumber: person.badge, nickname: person.nickname, rank: person.rank,
    totals: {
      totalMs: totals.totalMs, shiftCount: totals.totalShifts,
      averageShiftMs: parts.length ? Math.round(totals.totalMs / parts.length) : 0,
      longestShiftMs: parts.length ? Math.max(...parts) : 0,
      onDutyNow: shifts.some((s) => s.clockOutAt === null),
    },
    byWeekday: weekdays.map((ms, i) => ({ weekday: i + 1, label: weekdayNames[i], totalMs: ms })),
    trend: trendOf(period, totals, previous, buckets, sumInBuckets(spans, buckets).map((b) => b.ms), previousByBucket),
    ...(detail ? {
      shifts: shifts.slice(0, DETAIL_LIMIT).map((s, i) => ({
        id: s.id, clockInAt: s.clockInAt.toISOString(), clockOutAt: s.clockOutAt?.toISOString() ?? null, status: s.status as 'OPEN' | 'CLOSED' | 'AUTO_CLOSED',
        durationMs: spans[i].end - spans[i].start, inPeriodMs: parts[i],
      })),
      shiftsTruncated: shifts.length > DETAIL_LIMIT,
    } : {}),
  };
}
export type PersonStats = Awaited<ReturnType<typeof personStats>>;

const toSpan = (now: number) => (s: store.PersonShift): Span => ({ start: s.clockInAt.getTime(), end: (s.clockOutAt?.getTime() ?? now) });
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
