import { guildProcedure } from '../../trpc/init.ts';
import { PeriodOnlyQuery } from './schema.ts';
import { EinsatzStats, StatsFilters } from './einsatz-schema.ts';
import { einsatzStats, statsFilters } from './einsatz.ts';

const statsAdmin = { tag: 'Statistik', access: 'admin', capability: 'stats.leaderboard.view', module: 'stats' } as const;

/** GET /stats/einsatz and GET /stats/filters; spread into the stats router (`stats.einsatz`, `stats.filters`). */
export const einsatzProcedures = {
  einsatz: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/einsatz' }, ...statsAdmin,
      summary: 'Incident metrics of a period in the guild\'s time zone: calls from the game by kind and priority and what became of them, '
        + 'time from report to take (average, median, p90, max), incident sheets opened and closed and how long they were open, '
        + 'units alarmed (the top 20), and the previous period\'s headline for a trend. Cost follows the period, not the history.',
      errors: {
        400: 'An invalid or unknown parameter: a period other than daily, weekly, monthly, alltime, custom; a date that does not exist; '
          + 'from/to without period=custom, custom without both, from after to, more than 366 days; date with alltime or custom.',
        404: 'Module stats is switched off for this guild.',
      },
    })
    .input(PeriodOnlyQuery).output(EinsatzStats)
    .query(({ ctx, input }) => einsatzStats(ctx.deps, ctx.guildId, input)),

  filters: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/stats/filters' }, ...statsAdmin,
      summary: 'What the statistics can be filtered by: the guild\'s ranks (rank), its organisation units (orgUnit), and the time zone its periods follow.',
      errors: { 404: 'Module stats is switched off for this guild.' },
    })
    .output(StatsFilters)
    .query(({ ctx }) => statsFilters(ctx.deps, ctx.guildId)),
};
