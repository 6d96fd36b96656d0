import { z } from 'zod';
import { Period } from './schema.ts';

/** Output shapes of the stats routes; they feed /docs and the typed client. */

export const RangeOut = z.object({
  from: z.string().nullable().describe('First instant of the period (ISO, UTC); null for alltime.'),
  to: z.string().describe('End of the period, exclusive (ISO, UTC); alltime: now.'),
  firstDay: z.string().nullable().describe('First local day, YYYY-MM-DD; null for alltime.'),
  lastDay: z.string().describe('Last local day, included.'),
  timeZone: z.string().describe('The guild\'s time zone the days are counted in.'),
});

const Totals = z.object({
  totalMs: z.number().int().describe('Duty time inside the period, all matching people.'),
  totalShifts: z.number().int().describe('Shifts with any part inside the period.'),
  activeCount: z.number().int().describe('People with duty time in the period.'),
});

export const TrendOut = z.object({
  unit: z.enum(['hour', 'day', 'month']).describe('Bucket size of the series: hours of a day, days of a week/month/custom range, months of alltime.'),
  previous: Totals.extend({ firstDay: z.string().nullable(), lastDay: z.string() }).nullable()
    .describe('The period right before, of the same kind (the day, week or calendar month before; for custom the same number of days before). null for alltime.'),
  changeMs: z.number().int().nullable().describe('totalMs minus the previous period\'s; null for alltime.'),
  changePct: z.number().nullable().describe('The change in percent of the previous period (one decimal); null when the previous period had no duty time.'),
  series: z.array(z.object({
    label: z.string().describe('German bucket label: "14:00", "Mo 02.03.", "Mär 2026".'),
    start: z.string().describe('Start of the bucket (ISO).'),
    totalMs: z.number().int(),
    previousMs: z.number().int().nullable().describe('The same bucket of the previous period (by position); null when it has fewer buckets or for alltime.'),
  })),
}).describe('This period against the previous one of the same length: in total and bucket by bucket.');

const Charts = (names: readonly string[]) => z.record(z.enum(names as [string, ...string[]]), z.string())
  .optional().describe(`With charts=true: each chart (${names.join(', ')}) as base64 PNG.`);

const Filter = z.object({ rank: z.string().nullable(), orgUnit: z.string().nullable() });

export const LeaderboardOut = z.object({
  period: Period,
  range: RangeOut,
  filter: Filter,
  totals: Totals,
  rows: z.array(z.object({
    place: z.number().int(),
    userId: z.string(),
    badgeNumber: z.string().nullable(),
    nickname: z.string(),
    rank: z.string().nullable().describe('Rank name now.'),
    totalMs: z.number().int(),
    shiftCount: z.number().int(),
  })).describe('People with duty time in the period, most first (ties: more shifts first).'),
  trend: TrendOut,
  charts: Charts(['bars', 'share', 'trend']),
});

export const PersonStatsOut = z.object({
  period: Period,
  range: RangeOut,
  userId: z.string(),
  badgeNumber: z.string().nullable(),
  nickname: z.string(),
  rank: z.string().nullable(),
  totals: z.object({
    totalMs: z.number().int(),
    shiftCount: z.number().int(),
    averageShiftMs: z.number().int().describe('totalMs / shiftCount.'),
    longestShiftMs: z.number().int().describe('The longest shift\'s part inside the period.'),
    onDutyNow: z.boolean(),
  }),
  byWeekday: z.array(z.object({ weekday: z.number().int().describe('1 Monday … 7 Sunday.'), label: z.string(), totalMs: z.number().int() }))
    .describe('Duty time by local weekday; a shift over midnight counts on both days.'),
  trend: TrendOut,
  shifts: z.array(z.object({
    id: z.string(), clockInAt: z.string(), clockOutAt: z.string().nullable(),
    status: z.enum(['OPEN', 'CLOSED', 'AUTO_CLOSED']),
    durationMs: z.number().int().describe('The whole shift (open: up to now).'),
    inPeriodMs: z.number().int().describe('Its part inside the period.'),
  })).optional().describe('With detail=true: the shifts of the period, newest first, at most 1000.'),
  shiftsTruncated: z.boolean().optional(),
  charts: Charts(['shifts', 'trend']),
});

export const HeatmapOut = z.object({
  period: Period,
  range: RangeOut,
  minOnDuty: z.number().int().describe('The minimum measured against (query minOnDuty, else the guild\'s setting; 0: none).'),
  filter: Filter,
  cells: z.array(z.object({
    weekday: z.number().int().describe('1 Monday … 7 Sunday.'),
    hour: z.number().int().describe('Local hour 0–23.'),
    hours: z.number().int().describe('How many such hours the period had up to now.'),
    avgOnDuty: z.number().describe('Average head count on duty in these hours (two decimals).'),
    maxOnDuty: z.number().int(),
    understaffedHours: z.number().int().describe('Of these hours, how many fell below the minimum at some moment.'),
  })).describe('168 cells, Monday 00:00 first.'),
  totals: z.object({ hours: z.number().int(), staffMs: z.number().int(), understaffedHours: z.number().int(), understaffedRuns: z.number().int() }),
  understaffed: z.array(z.object({
    from: z.string(), to: z.string(),
    lowest: z.number().int().describe('Lowest head count in the run.'),
    shortMs: z.number().int().describe('How long the count was below the minimum within the run.'),
  })).describe('Runs of consecutive understaffed hours, oldest first, at most 500.'),
  understaffedTruncated: z.boolean(),
});

export const ClockSettingsOut = z.object({
  timeZone: z.string(),
  maxShiftMs: z.number().int().nullable().describe('Shifts open longer are closed automatically (AUTO_CLOSED); null: never.'),
  minOnDuty: z.number().int().describe('Staffing minimum (PUT /stats/staffing).'),
});
export const StaffingOut = z.object({ minOnDuty: z.number().int(), timeZone: z.string() });

const ChartLinkOut = z.object({
  id: z.string(), chart: z.string(), params: z.record(z.string(), z.unknown()), label: z.string(),
  tokenLast4: z.string().describe('The last 4 characters of the token, to tell links apart.'),
  createdBy: z.object({ kind: z.string(), id: z.string() }),
  createdAt: z.string(), lastFetchedAt: z.string().nullable(), fetchCount: z.number().int(),
});
export const CreatedChartLink = ChartLinkOut.extend({
  token: z.string().describe('Shown once: the server keeps only its hash.'),
  url: z.string().describe('The public image URL: {root_url}/embed/chart/{token}.png.'),
});
export const ChartLinkList = z.object({ links: z.array(ChartLinkOut) });
export const RevokedChartLink = z.object({ revoked: z.literal(true), id: z.string() });
export const Png = z.object({ contentType: z.literal('image/png'), base64: z.string() });
