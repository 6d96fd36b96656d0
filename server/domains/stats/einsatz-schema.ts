import { z } from 'zod';
import { Period } from './schema.ts';

/** Answers of GET /stats/einsatz and GET /stats/filters; the descriptions are the documentation. */

const count = (what: string) => z.number().int().describe(what);
const ms = (what: string) => z.number().int().nullable().describe(`${what}, in ms; null when there are none.`);

export const StatsRange = z.object({
  from: z.date().nullable().describe('First instant of the period (start of firstDay in timeZone); null for alltime (since the beginning).'),
  to: z.date().describe('End of the period, exclusive (start of the day after lastDay); for alltime: now.'),
  firstDay: z.string().nullable().describe('First local day, YYYY-MM-DD; null for alltime.'),
  lastDay: z.string().describe('Last local day, YYYY-MM-DD, included.'),
  timeZone: z.string().describe('The guild\'s IANA time zone the days are local to.'),
});

export const Durations = z.object({
  count: count('How many durations.'),
  avgMs: ms('Average'),
  medianMs: ms('Median (interpolated between the middle two when the count is even)'),
  p90Ms: ms('90th percentile (interpolated, like percentile_cont)'),
  maxMs: ms('Longest'),
});

const byPriority = (what: string) => z.object({ 1: count(`${what} with priority 1 (high).`), 2: count(`${what} with priority 2 (normal).`), 3: count(`${what} with priority 3 (low).`) })
  .describe('Keyed by priority; all three keys are always present.');

export const EinsatzHeadline = z.object({
  calls: count('Calls reported in the period (calls.total).'),
  reports: count('Reports of those calls (calls.reports).'),
  taken: count('Calls taken in the period (takeTime.count).'),
  takeMedianMs: ms('Median time from report to take (takeTime.medianMs)'),
  incidentsOpened: count('Incident sheets opened in the period (incidents.opened).'),
  incidentsClosed: count('Incident sheets closed in the period (incidents.closed).'),
  durationMedianMs: ms('Median time sheets closed in the period were open (incidents.duration.medianMs)'),
  unitsInvolved: count('Distinct units alarmed in the period (units.involved).'),
}).describe('The figures a board shows as tiles; the same fields for the previous period make the trend.');

export const EinsatzStats = z.object({
  period: Period,
  range: StatsRange,
  calls: z.object({
    total: count('Calls from the game first reported in the period (a call\'s report time is its first report).'),
    reports: count('Reports of those calls, re-reports of the same externalId included (sum of reportCount).'),
    byKind: z.object({ notruf: count('Emergency calls.'), panik: count('Panic buttons.'), alarm: count('Alarms.'), hinweis: count('Tips.') })
      .describe('Keyed by kind; all four keys are always present.'),
    byPriority: byPriority('Calls'),
    taken: count('Of those calls, the ones a dispatcher has taken by now (also when the game resolved them afterwards).'),
    resolvedWithoutTake: count('Of those calls, the ones the game resolved before anyone took them.'),
    open: count('Of those calls, the ones still open now.'),
    dismissed: count('Of those calls, the ones a dispatcher dismissed (POST /calls/{externalId}/dismiss).'),
    dismissedByReason: z.object({
      Fehlalarm: count('Dismissed as Fehlalarm (false alarm).'), Doppelt: count('Dismissed as Doppelt (duplicate).'),
      Erledigt: count('Dismissed as Erledigt (done).'), other: count('Dismissed with the dispatcher\'s own words.'),
    }).describe('The dismissed calls by reason; all four keys are always present.'),
  }).describe('Calls from the game reported in the period, and what became of them by now.'),
  takeTime: Durations.describe('Time from a call\'s first report to its take, for the calls taken in the period (whenever they were reported).'),
  incidents: z.object({
    opened: count('Incident sheets opened in the period (by hand or by taking a call).'),
    fromCalls: count('Of those, the ones made by taking a game call.'),
    stillOpen: count('Of those, the ones still open now.'),
    byPriority: byPriority('Sheets opened in the period'),
    closed: count('Incident sheets closed in the period (whenever they were opened).'),
    duration: Durations.describe('How long the sheets closed in the period were open (opened to closed).'),
    openNow: count('Incident sheets of the guild open at this moment, whatever the period.'),
  }),
  units: z.object({
    involved: count('Distinct units alarmed to an incident sheet in the period (a unit is its callsign, in any case).'),
    assignments: count('Alarms of units to sheets in the period (a unit released and alarmed again counts twice).'),
    top: z.array(z.object({
      callsign: z.string().describe('The callsign at the unit\'s latest alarm in the period.'),
      incidents: count('Distinct sheets the unit was alarmed to in the period.'),
    })).describe('At most 20 units, most sheets first, then by callsign.'),
  }).describe('Units alarmed to incident sheets in the period (from the sheets\' timelines, so released units count too).'),
  headline: EinsatzHeadline,
  previous: z.object({ range: StatsRange, headline: EinsatzHeadline }).nullable()
    .describe('The period right before of the same kind (the day, week or month before; for custom the same number of days before); null for alltime.'),
});
export type EinsatzStatsOut = z.infer<typeof EinsatzStats>;

export const StatsFilters = z.object({
  ranks: z.array(z.object({ id: z.string().describe('Pass as rank to filter.'), name: z.string(), position: z.number().int() }))
    .describe('The guild\'s ranks, highest position first.'),
  orgUnits: z.array(z.string()).describe('Distinct non-empty organisation units of the guild\'s people, sorted (German collation). Pass one as orgUnit to filter.'),
  timeZone: z.string().describe('The guild\'s IANA time zone; periods are local days of it.'),
});
