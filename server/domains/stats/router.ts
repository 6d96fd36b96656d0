import type { Principal } from '../../auth/principal.ts';
import { AppError } from '../../core/errors.ts';
import { guildProcedure, publicProcedure, router } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import { requireOwnGuild, requireSession } from '../../trpc/session.ts';
import { chartLookOf, leaderboardCharts, leaderboardSpec, personCharts, personSpec, renderPng, type ChartLook } from './chart-images.ts';
import { einsatzProcedures } from './einsatz-router.ts';
import { heatmap } from './heatmap.ts';
import { createChartLink, embedChart, listChartLinks, revokeChartLink } from './links.ts';
import * as out from './out.ts';
import * as s from './schema.ts';
import { leaderboard, personStats, type Leaderboard, type PersonStats } from './service.ts';
import { clockSettingsOf, setClockSettings, setStaffing } from './settings.ts';

const stats = { module: 'stats', tag: 'Statistik' } as const;
const badPeriod = 'An invalid parameter: unknown, malformed, a date that does not exist, from after to, a custom period over 366 days, from/to without period=custom.';
/** Chart images change as people clock in and out: a browser or Discord may keep one a minute. */
const chartCache = 'private, max-age=60';

/** Another person's statistics need stats.leaderboard.view (admins and unscoped keys pass); one's own do not. */
function mayReadPerson(p: Principal, userId: string) {
  if (p.kind === 'key') return; // scoped keys never reach here (checkAccess); unscoped ones act as the guild's admin
  if (p.userId === userId || p.isAdmin || p.capabilities.has('stats.leaderboard.view')) return;
  throw new AppError('FORBIDDEN', 'your rank lacks the capability stats.leaderboard.view (needed for other people\'s statistics)', { reason: 'capability_missing', params: { capability: 'stats.leaderboard.view' } });
}

/** The chart named by the path, or 404 like any unknown route. */
function chartType<T extends string>(types: readonly T[], type: string): T {
  if (!(types as readonly string[]).includes(type)) throw new AppError('NOT_FOUND', `no chart ${type}.png: the charts are ${types.map((t) => `${t}.png`).join(', ')}`);
  return type as T;
}

async function withCharts<T extends Leaderboard | PersonStats>(deps: Parameters<typeof chartLookOf>[0], guildId: string, answer: T, wanted: boolean | undefined, look: ChartLook): Promise<T & { charts?: Record<string, string> }> {
  if (!wanted) return answer;
  const { name, color } = await chartLookOf(deps, guildId);
  const entries = 'rows' in answer
    ? leaderboardCharts.map((type) => [type, leaderboardSpec(type, answer, name, look.lang)] as const)
    : personCharts.map((type) => [type, personSpec(type, answer as PersonStats, name, look.lang)] as const);
  const pngs = await Promise.all(entries.map(([, spec]) => renderPng(spec, look, color)));
  return { ...answer, charts: Object.fromEntries(entries.map(([type], i) => [type, pngs[i].base64])) };
}

const personErrors: Meta['errors'] = { 400: badPeriod, 404: 'No such person in this guild, or module stats is off.' };

export const statsRouter = router({
  ...einsatzProcedures,

  leaderboard: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/leaderboard' }, ...stats,
      summary: 'Who served how long in the period, most first: totals of everyone matching the filter, the top rows, and the trend against the previous period. Shifts crossing a bound count with their part inside; open shifts up to now.',
      access: 'view', capability: 'stats.leaderboard.view', errors: { 400: badPeriod },
    })
    .input(s.LeaderboardQuery).output(out.LeaderboardOut)
    .query(async ({ ctx, input = {} }) => withCharts(ctx.deps, ctx.guildId,
      await leaderboard(ctx.deps, ctx.guildId, s.periodQuery(input), { limit: input.limit ?? 10, rank: input.rank, orgUnit: input.orgUnit }),
      input.charts, input)),

  leaderboardChart: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/leaderboard/chart/{type}.png', produces: 'image/png', cache: chartCache, guildQuery: true }, ...stats,
      summary: 'The leaderboard as a PNG chart: bars (one per person), share (doughnut; the rest as "Andere") or trend (this period against the previous). Over REST the body is the image itself.',
      access: 'view', capability: 'stats.leaderboard.view', errors: { 400: badPeriod, 404: 'Unknown chart type, or module stats is off.' },
    })
    .input(s.LeaderboardChartParams).output(out.Png)
    .query(async ({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      const type = chartType(leaderboardCharts, input.type);
      const [board, look] = await Promise.all([
        leaderboard(ctx.deps, ctx.guildId, s.periodQuery(input), { limit: input.limit ?? 10, rank: input.rank, orgUnit: input.orgUnit }),
        chartLookOf(ctx.deps, ctx.guildId),
      ]);
      return renderPng(leaderboardSpec(type, board, look.name, input.lang), input, look.color);
    }),

  user: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/user/{userId}' }, ...stats,
      summary: 'One person\'s statistics in the period: totals, average and longest shift, duty time by weekday, trend; detail=true adds the single shifts. Anyone may read their own; other people need stats.leaderboard.view.',
      access: 'member', errors: personErrors,
    })
    .input(s.UserStatsQuery).output(out.PersonStatsOut)
    .query(async ({ ctx, input }) => {
      mayReadPerson(ctx.principal, input.userId);
      return withCharts(ctx.deps, ctx.guildId, await personStats(ctx.deps, ctx.guildId, input.userId, s.periodQuery(input), input.detail ?? false), input.charts, input);
    }),

  userChart: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/user/{userId}/chart/{type}.png', produces: 'image/png', cache: chartCache, guildQuery: true }, ...stats,
      summary: 'One person\'s statistics as a PNG chart: shifts (duty time per hour, day or month) or trend (against the previous period). Over REST the body is the image itself.',
      access: 'member', errors: personErrors,
    })
    .input(s.UserChartParams).output(out.Png)
    .query(async ({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      const type = chartType(personCharts, input.type);
      mayReadPerson(ctx.principal, input.userId);
      const [stats, look] = await Promise.all([personStats(ctx.deps, ctx.guildId, input.userId, s.periodQuery(input), false), chartLookOf(ctx.deps, ctx.guildId)]);
      return renderPng(personSpec(type, stats, look.name, input.lang), input, look.color);
    }),

  me: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/stats' }, ...stats, tag: 'Allgemein',
      summary: 'Your own statistics, as /stats/user/{userId} gives them.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, errors: { 400: badPeriod, 404: 'You have no personnel entry, or module stats is off.' },
    })
    .input(s.MyStatsQuery).output(out.PersonStatsOut)
    .query(async ({ ctx, input = {} }) => {
      const { userId } = requireSession(ctx);
      return withCharts(ctx.deps, ctx.guildId, await personStats(ctx.deps, ctx.guildId, userId, s.periodQuery(input), input.detail ?? false), input.charts, input);
    }),

  heatmap: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/heatmap' }, ...stats,
      summary: 'Weekday × hour of staff on duty in the period (local hours), with understaffing: hours in which the head count fell below the minimum at some moment, and the runs of them. Parameters: the period ones, rank, orgUnit, minOnDuty (default: the guild\'s, PUT /stats/staffing).',
      access: 'admin', capability: 'stats.leaderboard.view', errors: { 400: badPeriod },
    })
    .input(s.HeatmapQuery).output(out.HeatmapOut)
    .query(({ ctx, input = {} }) => heatmap(ctx.deps, ctx.guildId, s.periodQuery(input), input)),

  staffing: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/staffing' }, ...stats, summary: 'The staffing minimum the heatmap measures understaffing against.',
      access: 'admin', capability: 'stats.leaderboard.view',
    })
    .output(out.StaffingOut)
    .query(async ({ ctx }) => { const c = await clockSettingsOf(ctx.deps, ctx.guildId); return { minOnDuty: c.minOnDuty, timeZone: c.timeZone }; }),

  setStaffing: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/stats/staffing' }, ...stats, summary: 'Sets the staffing minimum: people who should be on duty at every moment (0: none).',
      access: 'admin', capability: 'settings.manage', audit: 'stats.staffing_set', topics: ['settings'], errors: { 400: 'minOnDuty is not a whole number from 0 to 1000.' },
    })
    .input(s.StaffingPut).output(out.StaffingOut)
    .mutation(({ ctx, input }) => setStaffing(ctx.deps, ctx.guildId, input.minOnDuty, ctx.actor)),

  createChartLink: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/stats/chart-links' }, ...stats,
      summary: 'Creates a public chart link: {root_url}/embed/chart/{token}.png renders the chart with these parameters, current on every fetch (a period without date always shows the current one). No credential is needed to fetch it; the token is shown once.',
      access: 'admin', capability: 'stats.leaderboard.view', audit: 'stats.chart_link_create',
      errors: { 400: `${badPeriod} Or an unknown chart, userId missing for a user chart or given for a leaderboard chart.`, 404: 'No such person in this guild.' },
    })
    .input(s.CreateChartLink).output(out.CreatedChartLink)
    .mutation(({ ctx, input }) => createChartLink(ctx.deps, ctx.guildId, input, ctx.actor)),

  chartLinks: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/chart-links' }, ...stats, summary: 'The guild\'s working chart links (without their tokens), newest first, with how often each was fetched.',
      access: 'admin', capability: 'stats.leaderboard.view',
    })
    .output(out.ChartLinkList)
    .query(({ ctx }) => listChartLinks(ctx.deps, ctx.guildId)),

  revokeChartLink: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/stats/chart-links/{id}' }, ...stats, summary: 'Revokes a chart link: its URL answers 404 from now on, on every node.',
      access: 'admin', capability: 'stats.leaderboard.view', audit: 'stats.chart_link_revoke', errors: { 404: 'No working chart link with this id in this guild.' },
    })
    .input(s.ChartLinkIdParam).output(out.RevokedChartLink)
    .mutation(({ ctx, input }) => revokeChartLink(ctx.deps, ctx.guildId, input.id, ctx.actor)),

  embed: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/embed/chart/{token}.png', root: true, produces: 'image/png', cache: 'public, max-age=60' }, tag: 'Statistik',
      summary: 'A public chart link\'s image, rendered from the data of this moment (kept at most 15 s per node; caches may keep it 60 s). No credential: the random token is the access. Over REST the body is the image itself.',
      access: 'none', errors: { 404: 'Unknown or revoked link, or module stats is off.', 503: 'Database unavailable; retry after Retry-After seconds.' },
    })
    .input(s.ChartToken).output(out.Png)
    .query(({ ctx, input }) => embedChart(ctx.deps, input.token)),
});

export const clockSettingsRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/clock-settings' }, tag: 'Einrichtung',
      summary: 'The time clock\'s settings: the time zone periods follow, the longest a shift may stay open, the staffing minimum.',
      access: 'admin', capability: 'settings.manage',
    })
    .output(out.ClockSettingsOut)
    .query(({ ctx }) => clockSettingsOf(ctx.deps, ctx.guildId)),

  set: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/clock-settings' }, tag: 'Einrichtung',
      summary: 'Changes the time zone (IANA name; stats periods follow it) and/or the longest shift (maxShiftMs, 1 h to 7 days, null: never): shifts open longer are closed automatically at that length, status AUTO_CLOSED, on one node, with the events and panel refresh of a clock-out.',
      access: 'admin', capability: 'settings.manage', audit: 'settings.clock_set', topics: ['settings'],
      errors: { 400: 'Unknown time zone, or maxShiftMs out of range.' },
    })
    .input(s.ClockSettingsPatch).output(out.ClockSettingsOut)
    .mutation(({ ctx, input }) => setClockSettings(ctx.deps, ctx.guildId, input, ctx.actor)),
});
