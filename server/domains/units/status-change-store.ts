import type { Db } from '../../store/db.ts';
import { eventOf } from '../../store/outbox.ts';
import type { Actor } from '../../store/tx.ts';
import { readUnitStatus, unitStatusDeltas, type UnitStatusFacts } from './events.ts';

/** The unit a status change is for, as each door names it. */
export type StatusTarget =
  | { door: 'dispatcher'; callsign: string }
  | { door: 'self'; callsign: string; userId: string }
  | { door: 'game'; badge: string };

/** What the statement found, whether or not it wrote. */
export interface StatusVerdict {
  /** False: the guild has no catalogue row (older than sql/0002's seed): the transaction's way seeds it. */
  catalogue: boolean;
  /** The person with the badge (game door). */
  nickname: string | null;
  /** The person has a seat (game door), in this unit (self door). */
  seated: boolean;
  unitFound: boolean;
  /** The new status is in the catalogue. */
  statusKnown: boolean;
  /** The new status acknowledges alarms and one is, or may be, pending: the transaction's way does it (entries, sheet notices). */
  acknowledges: boolean;
}

/**
 * A unit's status change in one statement (autocommit, one round trip): the unit's row, the event
 * (its facts, events.ts; the guild stream's next seq, store/outbox.ts) and the audit row, or nothing.
 *
 * Locks as the transaction of status-service.ts takes them, in its order (the catalogue FOR SHARE,
 * then person, seat and unit as the door needs them), each gated on the one before. One statement
 * has one snapshot, taken before any lock was waited for, so what it reads of a locked row is that
 * row's newest version (PostgreSQL re-reads a row it locked after waiting), and the statuses are
 * locked FOR SHARE for the same reason: a catalogue edit that committed while this waited is seen.
 * Pending alarms are not locked rows: an alarm changes the unit's status, so when the unit's newest
 * version is not the one the snapshot sees (`moved`) or an alarm is pending, an acknowledging status
 * writes nothing and the service takes the transaction's way.
 */
export async function changeUnitStatus(sql: Db, guildId: string, target: StatusTarget, code: string, note: string | null, audit: { action: string; actor: Actor } | null) {
  const byCallsign = target.door === 'game' ? sql`false` : sql`lower(callsign) = lower(${target.callsign})`;
  const [row] = await sql`
    with catalogue as (
      select guild_id from status_catalogues where guild_id = ${guildId} for share
    ), person as (
      select user_id, nickname from people
      where guild_id = ${guildId} and badge = ${target.door === 'game' ? target.badge : null} and exists (select from catalogue)
      for no key update
    ), unit_by_callsign as (
      select id, callsign, status, xmin as version from units
      where guild_id = ${guildId} and ${byCallsign} and exists (select from catalogue)
      for update
    ), seat as (
      select unit_id from unit_members
      where guild_id = ${guildId} and ${target.door === 'self'
        ? sql`user_id = ${target.userId} and exists (select from unit_by_callsign)`
        : sql`user_id = (select user_id from person)`}
      for update
    ), unit_by_seat as (
      select id, callsign, status, xmin as version from units
      where guild_id = ${guildId} and ${target.door === 'game'} and id = (select unit_id from seat)
      for update
    ), unit as (
      select * from unit_by_callsign union all select * from unit_by_seat
    ), statuses as (
      select code, label, alarm, acknowledges from unit_statuses
      where guild_id = ${guildId} and code in (${code}, (select status from unit))
      for share
    ), pending as (
      select from incident_units iu
      join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
      where iu.guild_id = ${guildId} and iu.unit_id = (select id from unit) and iu.alarmed_at is not null and iu.acknowledged_at is null
      limit 1
    ), found as (
      select exists (select from catalogue) as catalogue, (select nickname from person) as nickname,
        ${target.door === 'dispatcher' ? sql`true` : target.door === 'self' ? sql`coalesce((select unit_id from seat) = u.id, false)` : sql`exists (select from seat)`} as seated,
        u.id as unit_id, u.callsign, u.status as previous, n.label, n.alarm, coalesce(o.alarm, false) as was_alarm,
        coalesce(n.acknowledges, false) and (exists (select from pending)
          or u.version is distinct from (select xmin from units where guild_id = ${guildId} and id = u.id)) as acknowledges
      from (select 1) one
      left join unit u on true
      left join statuses n on n.code = ${code}
      left join statuses o on o.code = u.status
    ), verdict as (
      select *, catalogue and unit_id is not null and label is not null and seated and not acknowledges as ok from found
    ), changed as (
      update units u set status = ${code}, status_since = now(), status_note = ${note}::text
      from verdict v where u.guild_id = ${guildId} and u.id = v.unit_id and v.ok
      returning u.callsign, u.status_since
    ), stream as (
      update event_streams s set seq = s.seq + 1 from changed
      where s.guild_id = ${guildId}
      returning s.epoch, s.seq
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq,
        array_remove(array[case when v.alarm or v.was_alarm then 'alarm' end, case when v.alarm <> v.was_alarm then 'overview' end, 'units'], null),
        json_build_object('v', 1, 'kind', 'unitStatus', 'callsign', changed.callsign, 'status', ${code}::text, 'previous', v.previous,
          'since', changed.status_since, 'note', ${note}::text, 'wasAlarm', v.was_alarm, 'alarm', v.alarm)
      from stream, changed, verdict v
      returning deltas
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, ${audit?.actor.kind ?? null}, ${audit?.actor.id ?? null}, ${audit?.action ?? null},
        jsonb_strip_nulls(jsonb_build_object('callsign', changed.callsign, 'status', ${code}::text, 'previous', v.previous, 'note', ${note}::text))
      from changed, verdict v where ${audit !== null}
    )
    select v.catalogue, v.nickname, v.seated, v.unit_id is not null as unit_found, v.label, v.label is not null as status_known, v.acknowledges,
      stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at, written.deltas as facts
    from verdict v left join stream on true left join written on true`;
  const verdict: StatusVerdict = {
    catalogue: row.catalogue as boolean, nickname: (row.nickname as string | null) ?? null, seated: row.seated as boolean,
    unitFound: row.unit_found as boolean, statusKnown: row.status_known as boolean, acknowledges: row.acknowledges === true,
  };
  if (!row.facts) return { verdict, changed: null, event: null };
  const changed = readUnitStatus(row.facts as UnitStatusFacts);
  return { verdict, changed: { ...changed, statusLabel: row.label as string }, event: eventOf(guildId, row as never, unitStatusDeltas(changed)) };
}
