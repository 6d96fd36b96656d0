import type { Db } from '../../store/db.ts';
import { eventOf } from '../../store/outbox.ts';
import type { Actor } from '../../store/tx.ts';
import { clockInDeltas, clockOutDeltas, readClockIn, readClockOut, type ClockInFacts, type ClockOutFacts } from './events.ts';
import { clockInTopics, clockOutTopics } from './schema.ts';

/** A person as the clock routes answer with them. */
export interface Person { userId: string; nickname: string; badge: string | null }
export type Who = { badge: string } | { userId: string };

/** An audit row to write with the change, or none (the badge routes of game scripts, spec §3). */
export type AuditAs = { action: string; actor: Actor } | null;

/** The column of `people` that finds `who`, and its value. */
const whoColumn = (who: Who): [column: 'badge' | 'user_id', value: string] => ('badge' in who ? ['badge', who.badge] : ['user_id', who.userId]);

/** The topics of the events, as stored: sorted. */
const inTopics = [...clockInTopics].sort();
const outTopics = [...clockOutTopics].sort();

/**
 * Opens a shift for the person with `badge` (or `userId`) and writes its event (and audit row) —
 * one statement, one round trip: the hottest write of an evening and of every game script. The
 * event row holds the clock-in's facts (events.ts), taking the guild stream's next seq (store/outbox.ts).
 * `opened` null: nothing was written, and `person` tells why (null: nobody matches; else the person
 * is on duty already: the partial unique index decided).
 */
export async function openShift(sql: Db, guildId: string, who: Who, audit: AuditAs) {
  const [column, value] = whoColumn(who);
  const [row] = await sql`
    with p as (
      select p.user_id, p.nickname, p.badge, r.name as rank from people p
      left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
      where p.guild_id = ${guildId} and p.${sql(column)} = ${value}
    ), opened as (
      insert into shifts (guild_id, user_id) select ${guildId}, user_id from p
      on conflict (guild_id, user_id) where clock_out_at is null do nothing
      returning user_id, clock_in_at
    ), stream as (
      update event_streams s set seq = s.seq + 1 from opened
      where s.guild_id = ${guildId}
      returning s.epoch, s.seq, opened.clock_in_at
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, ${inTopics}::text[], json_build_object('v', 1, 'kind', 'clockIn',
        'userId', p.user_id, 'nickname', p.nickname, 'badge', p.badge, 'rank', p.rank, 'clockInAt', stream.clock_in_at)
      from stream, p
      returning deltas
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, ${audit?.actor.kind ?? null}, ${audit?.actor.id ?? null}, ${audit?.action ?? null}, jsonb_build_object('userId', user_id)
      from opened where ${audit !== null}
    )
    select stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at, written.deltas as facts
    from stream, written`;
  if (!row) return { opened: null, event: null, person: await personOf(sql, guildId, who) };
  const opened = readClockIn(row.facts as ClockInFacts);
  return { opened, event: eventOf(guildId, row as never, clockInDeltas(opened)), person: null };
}

/**
 * Closes the open shift, frees the person's dispatcher slots and unit seats, and writes the event
 * (and audit row) — one statement, one round trip. `closed` null: nothing at all was changed or
 * written, and `person` tells why (null: nobody matches; else the person is not on duty).
 */
export async function closeShift(sql: Db, guildId: string, who: Who, audit: AuditAs) {
  const row = await closeOpenShift(sql, guildId, who, audit, null);
  if (!row) return { closed: null, event: null, person: await personOf(sql, guildId, who) };
  return { ...row, person: null };
}

/**
 * Closes the person's shift as AUTO_CLOSED at exactly `maxShiftMs` if it is still open and longer —
 * one statement, like clock-out, with its event and audit row. Null when it changed nothing (closed
 * already, by a clock-out or another node's sweep: the row's update decides, so it happens once).
 */
export async function autoCloseShift(sql: Db, guildId: string, userId: string, maxShiftMs: number) {
  return closeOpenShift(sql, guildId, { userId }, { action: 'shift.auto_close', actor: { kind: 'system', id: 'auto-close' } }, maxShiftMs);
}

/**
 * The clock-out statement. `maxShiftMs` null: a clock-out, the shift ends now (CLOSED). Set: the
 * automatic close of a forgotten shift (auto-close.ts), only while the shift is open longer than
 * that, and it ends at exactly that length (AUTO_CLOSED); the audit row records the maximum.
 */
async function closeOpenShift(sql: Db, guildId: string, who: Who, audit: AuditAs, maxShiftMs: number | null) {
  const [column, value] = whoColumn(who);
  const [row] = await sql`
    with p as (
      select user_id, nickname, badge from people where guild_id = ${guildId} and ${sql(column)} = ${value}
    ), closed as (
      update shifts s
      set clock_out_at = coalesce(s.clock_in_at + ${maxShiftMs}::bigint * interval '1 millisecond', now()),
        status = ${maxShiftMs === null ? 'CLOSED' : 'AUTO_CLOSED'}
      where s.guild_id = ${guildId} and s.user_id = (select user_id from p) and s.clock_out_at is null
        and coalesce(s.clock_in_at + ${maxShiftMs}::bigint * interval '1 millisecond', now()) <= now()
      returning s.user_id, s.clock_in_at, s.clock_out_at
    ), slots as (
      delete from dispatcher_slots d using closed
      where d.guild_id = ${guildId} and d.user_id = closed.user_id returning d.slot
    ), seats as (
      delete from unit_members m using closed
      where m.guild_id = ${guildId} and m.user_id = closed.user_id returning m.unit_id
    ), stream as (
      update event_streams s set seq = s.seq + 1 from closed
      where s.guild_id = ${guildId}
      returning s.epoch, s.seq
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, ${outTopics}::text[], json_build_object('v', 1, 'kind', 'clockOut',
        'userId', p.user_id, 'nickname', p.nickname, 'badge', p.badge, 'clockInAt', closed.clock_in_at, 'clockOutAt', closed.clock_out_at,
        'slots', array(select slot from slots order by slot),
        'callsigns', array(select u.callsign from seats join units u on u.guild_id = ${guildId} and u.id = seats.unit_id order by u.callsign))
      from stream, closed, p
      returning deltas
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, ${audit?.actor.kind ?? null}, ${audit?.actor.id ?? null}, ${audit?.action ?? null}, jsonb_strip_nulls(jsonb_build_object(
        'userId', user_id,
        'durationMs', greatest(0, floor(extract(epoch from clock_out_at) * 1000)::bigint - floor(extract(epoch from clock_in_at) * 1000)::bigint),
        'maxShiftMs', ${maxShiftMs}::bigint))
      from closed where ${audit !== null}
    )
    select stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at, written.deltas as facts
    from stream, written`;
  if (!row) return null;
  const closed = readClockOut(row.facts as ClockOutFacts);
  return { closed, event: eventOf(guildId, row as never, clockOutDeltas(closed)) };
}

/** Open shifts of every guild that are longer than their guild's maximum (the open-shift index: one row per person on duty). */
export async function overdueShifts(db: Db): Promise<{ guildId: string; userId: string; maxShiftMs: number }[]> {
  const rows = await db`select s.guild_id, s.user_id, g.max_shift_ms from shifts s join guilds g on g.id = s.guild_id
    where s.clock_out_at is null and g.max_shift_ms is not null
      and s.clock_in_at + g.max_shift_ms * interval '1 millisecond' <= now()
    order by s.clock_in_at limit 1000`;
  return rows.map((r) => ({ guildId: r.guild_id, userId: r.user_id, maxShiftMs: Number(r.max_shift_ms) }));
}

/** The person a clock statement addressed, read after it wrote nothing (to tell 404 from 409). */
async function personOf(db: Db, guildId: string, who: Who): Promise<Person | null> {
  const [column, value] = whoColumn(who);
  const [row] = await db`select user_id, nickname, badge from people where guild_id = ${guildId} and ${db(column)} = ${value}`;
  return row ? toPerson(row) : null;
}

/** The person's latest shift; `addedAt` is when the person was added (their "off duty since" before any shift). */
export async function shiftStatusByBadge(db: Db, guildId: string, badge: string) {
  const [row] = await db`
    select p.user_id, p.created_at, s.clock_in_at, s.clock_out_at, s.status from people p
    left join lateral (
      select clock_in_at, clock_out_at, status from shifts
      where guild_id = p.guild_id and user_id = p.user_id order by clock_in_at desc limit 1
    ) s on true
    where p.guild_id = ${guildId} and p.badge = ${badge}`;
  if (!row) return null;
  return { addedAt: row.created_at as Date, clockInAt: row.clock_in_at as Date | null, clockOutAt: row.clock_out_at as Date | null, status: row.status as string | null };
}

export async function onDutyPeople(db: Db, guildId: string) {
  const rows = await db`
    select p.user_id, p.nickname, p.badge, r.name as rank, s.clock_in_at from shifts s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where s.guild_id = ${guildId} and s.clock_out_at is null
    order by s.clock_in_at, p.user_id`;
  return rows.map((r) => ({ ...toPerson(r), rank: (r.rank as string) ?? null, clockInAt: r.clock_in_at as Date }));
}

function toPerson(row: Record<string, unknown>): Person {
  return { userId: row.user_id as string, nickname: row.nickname as string, badge: (row.badge as string) ?? null };
}
