import type { Db } from '../../store/db.ts';

/**
 * SQL of the incident metrics (GET /stats/einsatz) and the stats filters. A period is the half-open
 * range [from, to) of instants; `from` null means since the beginning. Every query reads an index
 * range of sql/0013_stats_einsatz.sql on its time column, so its cost follows the period.
 */
export interface Instants { from: number | null; to: number }

/** Distribution of durations in ms; null figures when there are none. Percentiles are interpolated (percentile_cont). */
export interface Durations { count: number; avgMs: number | null; medianMs: number | null; p90Ms: number | null; maxMs: number | null }

export interface PeriodFigures {
  calls: {
    total: number; reports: number; taken: number; resolvedWithoutTake: number; open: number; dismissed: number;
    dismissedByReason: { Fehlalarm: number; Doppelt: number; Erledigt: number; other: number };
    byKind: { notruf: number; panik: number; alarm: number; hinweis: number };
    byPriority: { '1': number; '2': number; '3': number };
  };
  takeTime: Durations;
  incidents: { opened: number; fromCalls: number; stillOpen: number; byPriority: { '1': number; '2': number; '3': number }; closed: number; duration: Durations };
}

export interface UnitFigures { involved: number; assignments: number; top: { callsign: string; incidents: number }[] }

/**
 * Since the beginning: an instant before any row, so bounded and open ranges share one statement (and
 * its index-range plan). Not '-infinity': postgres.js sends timestamptz parameters through Date.
 */
const BEGINNING = new Date('0001-01-01T00:00:00Z');
const bounds = (r: Instants) => ({ from: r.from === null ? BEGINNING : new Date(r.from), to: new Date(r.to) });

/**
 * Calls reported, calls taken and sheets opened and closed in the period: one row, one round trip.
 * Durations are whole ms as float8 (a sheet open for a month overflows int4; postgres.js reads
 * float8 as a number, where int8 would arrive as a string).
 */
export async function periodFigures(db: Db, guildId: string, r: Instants): Promise<PeriodFigures> {
  const { from, to } = bounds(r);
  const [row] = await db`
    with reported as (
      select kind, priority, status, taken_at, report_count, dismiss_reason from calls
      where guild_id = ${guildId} and created_at >= ${from} and created_at < ${to}
    ), taken as (
      select round(extract(epoch from taken_at - created_at) * 1000)::float8 as ms from calls
      where guild_id = ${guildId} and taken_at >= ${from} and taken_at < ${to}
    ), opened as (
      select priority, state, call_id from incidents
      where guild_id = ${guildId} and created_at >= ${from} and created_at < ${to}
    ), closed as (
      select round(extract(epoch from closed_at - created_at) * 1000)::float8 as ms from incidents
      where guild_id = ${guildId} and closed_at >= ${from} and closed_at < ${to}
    )
    select c.*, t.*, o.*, d.* from
      (select count(*)::int as calls,
         coalesce(sum(report_count), 0)::float8 as reports,
         count(*) filter (where taken_at is not null)::int as calls_taken,
         count(*) filter (where status = 'resolved' and taken_at is null)::int as calls_resolved,
         count(*) filter (where status = 'open')::int as calls_open,
         count(*) filter (where status = 'dismissed')::int as calls_dismissed,
         count(*) filter (where status = 'dismissed' and dismiss_reason = 'Fehlalarm')::int as dismissed_false_alarm,
         count(*) filter (where status = 'dismissed' and dismiss_reason = 'Doppelt')::int as dismissed_duplicate,
         count(*) filter (where status = 'dismissed' and dismiss_reason = 'Erledigt')::int as dismissed_done,
         count(*) filter (where kind = 'notruf')::int as notruf,
         count(*) filter (where kind = 'panik')::int as panik,
         count(*) filter (where kind = 'alarm')::int as alarm,
         count(*) filter (where kind = 'hinweis')::int as hinweis,
         count(*) filter (where priority = 1)::int as call_p1,
         count(*) filter (where priority = 2)::int as call_p2,
         count(*) filter (where priority = 3)::int as call_p3
       from reported) c,
      (select count(*)::int as take_count, round(avg(ms))::float8 as take_avg,
         round(percentile_cont(0.5) within group (order by ms))::float8 as take_median,
         round(percentile_cont(0.9) within group (order by ms))::float8 as take_p90, max(ms) as take_max
       from taken) t,
      (select count(*)::int as opened,
         count(*) filter (where call_id is not null)::int as from_calls,
         count(*) filter (where state = 'open')::int as still_open,
         count(*) filter (where priority = 1)::int as inc_p1,
         count(*) filter (where priority = 2)::int as inc_p2,
         count(*) filter (where priority = 3)::int as inc_p3
       from opened) o,
      (select count(*)::int as closed, round(avg(ms))::float8 as dur_avg,
         round(percentile_cont(0.5) within group (order by ms))::float8 as dur_median,
         round(percentile_cont(0.9) within group (order by ms))::float8 as dur_p90, max(ms) as dur_max
       from closed) d`;
  return {
    calls: {
      total: row.calls, reports: row.reports, taken: row.calls_taken, resolvedWithoutTake: row.calls_resolved, open: row.calls_open,
      dismissed: row.calls_dismissed,
      dismissedByReason: {
        Fehlalarm: row.dismissed_false_alarm, Doppelt: row.dismissed_duplicate, Erledigt: row.dismissed_done,
        other: row.calls_dismissed - row.dismissed_false_alarm - row.dismissed_duplicate - row.dismissed_done,
      },
      byKind: { notruf: row.notruf, panik: row.panik, alarm: row.alarm, hinweis: row.hinweis },
      byPriority: { '1': row.call_p1, '2': row.call_p2, '3': row.call_p3 },
    },
    takeTime: { count: row.take_count, avgMs: row.take_avg, medianMs: row.take_median, p90Ms: row.take_p90, maxMs: row.take_max },
    incidents: {
      opened: row.opened, fromCalls: row.from_calls, stillOpen: row.still_open,
      byPriority: { '1': row.inc_p1, '2': row.inc_p2, '3': row.inc_p3 },
      closed: row.closed,
      duration: { count: row.closed, avgMs: row.dur_avg, medianMs: row.dur_median, p90Ms: row.dur_p90, maxMs: row.dur_max },
    },
  };
}

/** Incident sheets of the guild open at this moment (incidents_by_state). */
export async function openSheetsNow(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select count(*)::int as n from incidents where guild_id = ${guildId} and state = 'open'`;
  return row.n;
}

/** The callsign of a unit's timeline entry: "<callsign> zugewiesen" or "<callsign> alarmiert" (older sheets wrote "alarmiert" for an assignment too). */
const CALLSIGN_OF_ENTRY = ' (zugewiesen|alarmiert)$';
const UNIT_ENTRY_KINDS = ['unit_assigned', 'unit_alarmed'];

/**
 * Units sent to sheets in the period, from the timeline's `unit_assigned` and `unit_alarmed`
 * entries (incidents service; the callsign as it was then). A unit is its callsign in any case;
 * `incidents` counts distinct sheets, `assignments` every assignment and every alarm (assigned and
 * then alarmed, or released and alarmed again, counts twice). `top`: at most `limit` units, most
 * sheets first, then by callsign, each with its callsign as written at its latest entry in the
 * period. Hash aggregates only (no sort of the period's entries): a year of a busy guild's alarms
 * costs one pass over the index range.
 */
export async function unitsAlarmed(db: Db, guildId: string, r: Instants, limit: number): Promise<UnitFigures> {
  const { from, to } = bounds(r);
  const [row] = await db`
    with unit_entries as (
      select regexp_replace(text, ${CALLSIGN_OF_ENTRY}, '') as callsign, number, at, id from incident_entries
      where guild_id = ${guildId} and kind in ${db(UNIT_ENTRY_KINDS)} and at >= ${from} and at < ${to} and text ~ ${CALLSIGN_OF_ENTRY}
    ), per_sheet as (
      select lower(callsign) as unit, number, count(*)::int as alarms, max(at) as last_at from unit_entries group by 1, 2
    ), per_unit as (
      select unit, count(*)::int as incidents, sum(alarms)::int as alarms, max(last_at) as last_at from per_sheet group by unit
    ), top as (
      select * from per_unit order by incidents desc, unit limit ${limit}::int
    )
    select (select count(*)::int from per_unit) as involved, (select coalesce(sum(alarms), 0)::int from per_unit) as assignments,
      coalesce((select json_agg(json_build_object('callsign', latest.callsign, 'incidents', top.incidents) order by top.incidents desc, top.unit)
        from top cross join lateral (
          select e.callsign from unit_entries e where e.at = top.last_at and lower(e.callsign) = top.unit
          order by e.id desc limit 1
        ) latest), '[]'::json) as top`;
  return { involved: row.involved, assignments: row.assignments, top: row.top };
}

export interface RankOption { id: string; name: string; position: number }

/** The guild's ranks, highest position first (as GET /ranks lists them). */
export async function rankOptions(db: Db, guildId: string): Promise<RankOption[]> {
  const rows = await db`select id, name, position from ranks where guild_id = ${guildId} order by position desc, lower(name), id`;
  return rows.map((r) => ({ id: r.id as string, name: r.name as string, position: r.position as number }));
}

/**
 * Distinct non-empty organisation units of the guild's people (sorted by the caller): the values the
 * `orgUnit` filter matches people by. A unit's own org_unit is not listed: no person would match it.
 */
export async function orgUnitOptions(db: Db, guildId: string): Promise<string[]> {
  const rows = await db`
    select distinct org_unit from people where guild_id = ${guildId} and coalesce(btrim(org_unit), '') <> ''`;
  return rows.map((r) => r.org_unit as string);
}
