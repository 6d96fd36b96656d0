import { z } from 'zod';
import { plain, text } from '../../core/text.ts';
import { periodNames, type PeriodQuery } from './period.ts';
import { daysBetween, parseDay } from './zone.ts';

export const MAX_CUSTOM_DAYS = 366;
export const DEFAULT_MAX_PIXELS = 990_000;
export const MIN_MAX_PIXELS = 50_000;
/** DESIGN §7: charts are at most 4,000,000 pixels, whatever maxPixels asks for. */
export const CHART_PIXEL_CAP = 4_000_000;

/** A whole number from a query string ("10") or a tRPC number, with one message for every way it can be wrong. */
const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.union([z.number(), z.string().regex(/^[0-9]{1,9}$/, message).transform(Number)], { error: message })
    .pipe(z.number().int(message).min(min, message).max(max, message));
};

const flag = (name: string) => z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], { error: `${name} must be true or false` });

const date = (name: string) => z.string({ error: `${name} must be a date YYYY-MM-DD` })
  .refine((s) => parseDay(s) !== null, `${name} must be a date YYYY-MM-DD that exists (e.g. 2026-02-28)`);

export const Period = z.enum(periodNames, { error: 'period must be daily, weekly, monthly, alltime or custom' });

/** The period parameters every stats route takes (spec §4 Statistics). */
const periodFields = {
  period: Period.optional().describe('daily, weekly (default), monthly, alltime or custom. Periods are local days of the guild\'s time zone.'),
  date: date('date').optional().describe('A day of the period to show (daily, weekly, monthly); default today. Not with alltime or custom.'),
  from: date('from').optional().describe('First day of a custom period (only with period=custom).'),
  to: date('to').optional().describe('Last day of a custom period, included; at most 366 days after from, both counted.'),
};

const rankFilter = {
  rank: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'rank must be a rank id (see /stats/filters)').optional()
    .describe('Only people who now hold this rank (its id, from /stats/filters).'),
  orgUnit: plain('orgUnit').min(1, 'orgUnit must not be empty').max(64, 'orgUnit has at most 64 characters').optional()
    .describe('Only people who are now in this organisation unit (from /stats/filters).'),
};

/** The chart image routes only: a browser's <img src> cannot send x-guild-id. */
const imageGuild = {
  v: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, 'v must be 1 to 32 letters, digits, _ . or -').optional()
    .describe('Ignored by the server: a client changes it to get a fresh image past caches (e.g. after the data changed).'),
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('For a signed-in browser\'s <img src>: the guild, instead of the x-guild-id header (must match it when both are sent).'),
};

const chartFields = {
  maxPixels: wholeNumber('maxPixels', MIN_MAX_PIXELS, 1_000_000_000).optional()
    .describe('Width × height of the image at most this; at least 50000, default 990000 (charts stop growing at 4,000,000).'),
  theme: z.enum(['dark', 'light'], { error: 'theme must be dark or light' }).optional()
    .describe('dark (default; readable in Discord\'s dark theme) or light.'),
  lang: z.enum(['de', 'en'], { error: 'lang must be de or en' }).optional()
    .describe('The language of the chart\'s texts: de (default) or en.'),
};

type PeriodInput = { period?: z.infer<typeof Period>; date?: string; from?: string; to?: string };

/** The rules between the period parameters; every one is a 400 with its own message. */
function checkPeriod(v: PeriodInput, ctx: z.RefinementCtx) {
  const period = v.period ?? 'weekly';
  // each issue names the parameter it is about, so the message reads "to: …", not "body: …"
  const issue = (field: keyof PeriodInput, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (period === 'custom') {
    if (v.from === undefined || v.to === undefined) return issue(v.from === undefined ? 'from' : 'to', 'period=custom needs both from and to');
    if (v.date !== undefined) return issue('date', 'date does not apply to period=custom; use from and to');
    const from = parseDay(v.from), to = parseDay(v.to);
    if (!from || !to) return; // the field's own message says why
    const days = daysBetween(from, to) + 1;
    if (days < 1) return issue('from', 'from must not be after to');
    if (days > MAX_CUSTOM_DAYS) return issue('to', `a custom period covers at most ${MAX_CUSTOM_DAYS} days (from ${v.from} to ${v.to} is ${days})`);
    return;
  }
  if (v.from !== undefined || v.to !== undefined) return issue(v.from !== undefined ? 'from' : 'to', 'from and to apply only to period=custom');
  if (period === 'alltime' && v.date !== undefined) return issue('date', 'date does not apply to period=alltime');
}

/** The validated period parameters as a period query for period.ts. */
export function periodQuery(v: PeriodInput): PeriodQuery {
  const period = v.period ?? 'weekly';
  if (period === 'custom') return { period, from: parseDay(v.from!)!, to: parseDay(v.to!)! };
  if (period === 'alltime') return { period };
  return v.date === undefined ? { period } : { period, day: parseDay(v.date)! };
}

const UserId = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'userId is not a valid user id');

export const LeaderboardQuery = z.strictObject({
  ...periodFields, ...rankFilter,
  limit: wholeNumber('limit', 1, 500).optional().describe('Rows, 1 to 500; default 10. Totals always cover everyone.'),
  charts: flag('charts').optional().describe('true: the charts bars, share and trend are embedded as base64 PNG.'),
  ...chartFields,
}).superRefine(checkPeriod).optional();

export const LeaderboardChartParams = z.strictObject({
  type: text(32, 'type').describe('bars, share or trend (another name is an unknown route: 404).'),
  ...periodFields, ...rankFilter,
  limit: wholeNumber('limit', 1, 500).optional().describe('People shown in bars and share (the rest is "Andere"); default 10.'),
  ...chartFields, ...imageGuild,
}).superRefine(checkPeriod);

export const UserStatsQuery = z.strictObject({
  userId: UserId,
  ...periodFields,
  detail: flag('detail').optional().describe('true: the single shifts of the period (at most 1000, newest first).'),
  charts: flag('charts').optional().describe('true: the charts shifts and trend are embedded as base64 PNG.'),
  ...chartFields,
}).superRefine(checkPeriod);

export const MyStatsQuery = z.strictObject({
  ...periodFields,
  detail: flag('detail').optional().describe('true: your single shifts of the period (at most 1000, newest first).'),
  charts: flag('charts').optional().describe('true: the charts shifts and trend are embedded as base64 PNG.'),
  ...chartFields,
}).superRefine(checkPeriod).optional();

export const UserChartParams = z.strictObject({
  userId: UserId,
  type: text(32, 'type').describe('shifts or trend (another name is an unknown route: 404).'),
  ...periodFields,
  ...chartFields, ...imageGuild,
}).superRefine(checkPeriod);

export const PeriodOnlyQuery = z.strictObject({ ...periodFields }).superRefine(checkPeriod).optional();

export const HeatmapQuery = z.strictObject({
  ...periodFields, ...rankFilter,
  minOnDuty: wholeNumber('minOnDuty', 0, 1000).optional()
    .describe('Staffing minimum to measure against; default the guild\'s setting (PUT /stats/staffing).'),
}).superRefine(checkPeriod).optional();

export const chartNames = ['leaderboard/bars', 'leaderboard/share', 'leaderboard/trend', 'user/shifts', 'user/trend'] as const;

const linkLabel = plain('label').max(100, 'label has at most 100 characters').optional().describe('What the link is for, shown in the list.');

/** A public chart link: the chart and the parameters it is rendered with on every fetch. */
export const CreateChartLink = z.strictObject({
  chart: z.enum(chartNames, { error: `chart must be one of ${chartNames.join(', ')}` })
    .describe('Which chart: the leaderboard\'s bars, share or trend, or one person\'s shifts or trend.'),
  label: linkLabel,
  userId: UserId.optional().describe('The person, for user/shifts and user/trend (and only for those).'),
  ...periodFields, ...rankFilter,
  limit: wholeNumber('limit', 1, 500).optional().describe('People shown by leaderboard/bars and leaderboard/share; default 10.'),
  ...chartFields,
}).superRefine(checkPeriod).superRefine((v, ctx) => {
  const personal = v.chart.startsWith('user/');
  if (personal && v.userId === undefined) ctx.addIssue({ code: 'custom', path: ['userId'], message: `${v.chart} needs userId` });
  if (!personal && v.userId !== undefined) ctx.addIssue({ code: 'custom', path: ['userId'], message: `userId applies only to user/shifts and user/trend` });
  const boardOnly = (['limit', 'rank', 'orgUnit'] as const).find((k) => v[k] !== undefined);
  if (personal && boardOnly) ctx.addIssue({ code: 'custom', path: [boardOnly], message: 'limit, rank and orgUnit apply only to leaderboard charts' });
});
export type ChartLinkInput = z.infer<typeof CreateChartLink>;

export const ChartLinkIdParam = z.strictObject({ id: z.string().regex(/^[0-9]{1,18}$/, 'id must be a chart link id') });
/** Tokens are 32 random bytes, base64url: anything else is not a link (404 without a database read). */
export const ChartToken = z.strictObject({ token: text(64, 'token') });
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const ClockSettingsPatch = z.strictObject({
  timeZone: text(64, 'timeZone').optional()
    .describe('IANA time zone the periods follow, e.g. Europe/Berlin (the default).'),
  maxShiftMs: z.union([z.null(), wholeNumber('maxShiftMs', 3_600_000, 604_800_000)]).optional()
    .describe('Longest a shift may stay open, 1 h to 7 days in ms; longer ones are closed as AUTO_CLOSED at this length. null: never.'),
});

export const StaffingPut = z.strictObject({
  minOnDuty: wholeNumber('minOnDuty', 0, 1000).describe('People who should be on duty at every moment; 0: no minimum.'),
});
