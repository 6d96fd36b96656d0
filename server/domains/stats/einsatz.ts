import type { Deps } from '../../deps.ts';
import { resolvePeriod, type Range } from './period.ts';
import { periodQuery, type PeriodOnlyQuery } from './schema.ts';
import { clockSettings } from './settings-store.ts';
import * as store from './einsatz-store.ts';
import type { EinsatzStatsOut } from './einsatz-schema.ts';
import type { z } from 'zod';

/** Units listed in `units.top`. */
export const TOP_UNITS = 20;
const DEFAULT_ZONE = 'Europe/Berlin';

async function guildZone(deps: Deps, guildId: string): Promise<string> {
  return (await clockSettings(deps.sql, guildId))?.timeZone ?? DEFAULT_ZONE;
}

const rangeOut = (r: Range, timeZone: string) => ({
  from: r.from === null ? null : new Date(r.from), to: new Date(r.to), firstDay: r.firstDay, lastDay: r.lastDay, timeZone,
});

function headline(f: store.PeriodFigures, u: store.UnitFigures) {
  return {
    calls: f.calls.total, reports: f.calls.reports, taken: f.takeTime.count, takeMedianMs: f.takeTime.medianMs,
    incidentsOpened: f.incidents.opened, incidentsClosed: f.incidents.closed, durationMedianMs: f.incidents.duration.medianMs,
    unitsInvolved: u.involved,
  };
}

/**
 * Incident metrics of a period in the guild's time zone: calls from the game, time to take, incident
 * sheets and units, with the previous period's headline for a trend. Every figure is an aggregate
 * of an index range on the period (einsatz-store.ts); the five statements run side by side.
 */
export async function einsatzStats(deps: Deps, guildId: string, input: z.infer<typeof PeriodOnlyQuery>, now = Date.now()): Promise<EinsatzStatsOut> {
  const timeZone = await guildZone(deps, guildId);
  const period = resolvePeriod(periodQuery(input ?? {}), timeZone, now);
  const prev = period.previous;
  const [figures, units, openNow, prevFigures, prevUnits] = await Promise.all([
    store.periodFigures(deps.sql, guildId, period.range),
    store.unitsAlarmed(deps.sql, guildId, period.range, TOP_UNITS),
    store.openSheetsNow(deps.sql, guildId),
    prev ? store.periodFigures(deps.sql, guildId, prev) : null,
    prev ? store.unitsAlarmed(deps.sql, guildId, prev, 0) : null,
  ]);
  return {
    period: period.name,
    range: rangeOut(period.range, timeZone),
    calls: figures.calls,
    takeTime: figures.takeTime,
    incidents: { ...figures.incidents, openNow },
    units,
    headline: headline(figures, units),
    previous: prev && prevFigures && prevUnits ? { range: rangeOut(prev, timeZone), headline: headline(prevFigures, prevUnits) } : null,
  };
}

const collator = new Intl.Collator('de', { numeric: true });
/** German order ("Feuerwache 2" before "Feuerwache 10"); strings the collation calls equal by code point, so the order is total. */
const byGerman = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** What the stats filters offer: the guild's ranks, its organisation units, and its time zone. */
export async function statsFilters(deps: Deps, guildId: string) {
  const [ranks, orgUnits, timeZone] = await Promise.all([
    store.rankOptions(deps.sql, guildId),
    store.orgUnitOptions(deps.sql, guildId),
    guildZone(deps, guildId),
  ]);
  return { ranks, orgUnits: orgUnits.sort(byGerman), timeZone };
}
