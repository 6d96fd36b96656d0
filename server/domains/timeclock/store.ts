import type { Db } from '../../store/db.ts';
import { eventColumns, eventOf, outboxCtes } from '../../store/outbox.ts';
import { identifierArray, statement } from '../../store/statement.ts';
import type { Actor } from '../../store/tx.ts';
import { clockInDeltas, clockOutDeltas, readClockIn, readClockOut, type ClockInFacts, type ClockOutFacts } from './events.ts';
import { clockInTopics, clockOutTopics } from './schema.ts';

/** A person as the clock routes answer with them. */
export interface Person { userId: string; nickname: string; badge: string | null }
export type Who = { badge: string } | { userId: string };

/** An audit row to write with the change, or none (the badge routes of game scripts, spec §3). */
export type AuditAs = { action: string; actor: Actor } | null;

/**
 * The two hot writes are fixed statements (see store/statement.ts), four each: by badge or user id,
 * with or without an audit row. Parameters: $1 guild id, $2 badge or user id, and with an audit
 * row $3 action, $4 actor kind, $5 actor id. Each is one round trip that writes the shift, frees
 * what clock-out frees, and writes the event with its facts (events.ts) and the audit row — or,
 * when it changes nothing, writes nothing and returns no row.
 */
type By = 'badge' | 'userId';
type ShiftParams = [guildId: string, who: string] | [guildId: string, who: string, action: string, actorKind: string, actorId: string];
type ShiftStatement = ReturnType<typeof statement<ShiftParams>>;

/** Builds the four variants once; the returned function runs the one `who` and `audit` call for. */
function variants(build: (by: By, audited: boolean) => ShiftStatement) {
  const built = { badge: [build('badge', false), build('badge', true)], userId: [build('userId', false), build('userId', true)] };
  return (db: Db, guildId: string, who: Who, audit: AuditAs) => 'badge' in who
    ? built.badge[audit ? 1 : 0](db, ...params(guildId, who.badge, audit))
    : built.userId[audit ? 1 : 0](db, ...params(guildId, who.userId, audit));
}
const params = (guildId: string, who: string, audit: AuditAs): ShiftParams =>
  audit ? [guildId, who, audit.action, audit.actor.kind, audit.actor.id] : [guildId, who];

/** `p`: the person addressed by badge or user id, with their rank's name for clock-in's facts. */
const person = (by: By, withRank: boolean) => `p as (
    select p.user_id, p.nickname, p.badge${withRank ? ', r.name as rank' : ''} from people p
    ${withRank ? 'left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id' : ''}
    where p.guild_id = $1 and ${by === 'badge' ? 'p.badge' : 'p.user_id'} = $2
  )`;

/** Epoch ms of a timestamptz, truncated like the `Date` postgres.js makes of it. */
const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const auditCols = (data: string) => ({ action: '$3', actorKind: '$4', actorId: '$5', data });

const openShiftStatement = variants((by, audited) => statement<ShiftParams>(`
  with ${person(by, true)}, opened as (
    insert into shifts (guild_id, user_id) select $1, user_id from p
    on conflict (guild_id, user_id) where clock_out_at is null do nothing
    returning user_id, clock_in_at
  ), ${outboxCtes({
    guild: '$1',
    from: 'opened',
    carry: 'opened.clock_in_at',
    topics: identifierArray([...clockInTopics].sort()),
    deltas: `json_build_array('clockIn', p.user_id, p.nickname, p.badge, p.rank, stream.clock_in_at)`,
    deltasFrom: 'p',
    audit: audited ? auditCols(`jsonb_build_object('userId', opened.user_id)`) : null,
  })}
  select ${eventColumns()} from stream, written`));

/**
 * Clock-out's statement text. `auto`: the automatic close of a forgotten shift (auto-close.ts) —
 * only while the shift is open longer than $3 ms, and it ends at exactly that length, AUTO_CLOSED.
 */
function closeShiftText(by: By, audit: ReturnType<typeof auditCols> | null, auto: boolean): string {
  const maxLength = `($3::bigint * interval '1 millisecond')`;
  return `
  with ${person(by, false)}, closed as (
    update shifts s set ${auto ? `clock_out_at = s.clock_in_at + ${maxLength}, status = 'AUTO_CLOSED'` : `clock_out_at = now(), status = 'CLOSED'`}
    where s.guild_id = $1 and s.user_id = (select user_id from p) and s.clock_out_at is null
      ${auto ? `and s.clock_in_at + ${maxLength} <= now()` : ''}
    returning s.user_id, s.clock_in_at, s.clock_out_at
  ), slots as (
    delete from dispatcher_slots d using closed
    where d.guild_id = $1 and d.user_id = closed.user_id returning d.slot
  ), seats as (
    delete from unit_members m using closed
    where m.guild_id = $1 and m.user_id = closed.user_id returning m.unit_id
  ), ${outboxCtes({
    guild: '$1',
    from: 'closed',
    topics: identifierArray([...clockOutTopics].sort()),
    deltas: `json_build_array('clockOut', p.user_id, p.nickname, p.badge, closed.clock_in_at, closed.clock_out_at,
      array(select slot from slots order by slot),
      array(select (select u.callsign from units u where u.guild_id = $1 and u.id = seats.unit_id) as callsign from seats order by callsign))`,
    deltasFrom: 'closed, p',
    audit,
  })}
  select ${eventColumns()} from stream, written`;
}

const durationData = `'durationMs', greatest(0, ${ms('closed.clock_out_at')} - ${ms('closed.clock_in_at')})`;
const closeShiftStatement = variants((by, audited) => statement<ShiftParams>(
  closeShiftText(by, audited ? auditCols(`jsonb_build_object('userId', closed.user_id, ${durationData})`) : null, false)));

/** Parameters: $1 guild id, $2 user id, $3 the guild's longest shift in ms. Audited as the system's `shift.auto_close`. */
const autoCloseStatement = statement<[guildId: string, userId: string, maxShiftMs: number]>(closeShiftText('userId', {
  action: `'shift.auto_close'`, actorKind: `'system'`, actorId: `'auto-close'`,
  data: `jsonb_build_object('userId', closed.user_id, ${durationData}, 'maxShiftMs', $3::bigint)`,
}, true));

/**
 * Opens a shift for the person with `badge` (or `userId`) and writes its event (and audit row) —
 * one statement, one round trip. `opened` null: nothing was written, and `person` tells why (null:
 * nobody matches; else the person is on duty already: the partial unique index decided).
 */
export async function openShift(db: Db, guildId: string, who: Who, audit: AuditAs) {
  const [row] = await openShiftStatement(db, guildId, who, audit);
  if (!row) return { opened: null, event: null, person: await personOf(db, guildId, who) };
  const opened = readClockIn(row.event_deltas as ClockInFacts);
  return { opened, event: eventOf(guildId, row, clockInDeltas(opened)), person: null };
}

/**
 * Closes the open shift, frees the person's dispatcher slots and unit seats, and writes the event
 * (and audit row) — one statement, one round trip. `closed` null: nothing at all was changed or
 * written, and `person` tells why (null: nobody matches; else the person is not on duty).
 */
export async function closeShift(db: Db, guildId: string, who: Who, audit: AuditAs) {
  const [row] = await closeShiftStatement(db, guildId, who, audit);
  if (!row) return { closed: null, event: null, person: await personOf(db, guildId, who) };
  const closed = readClockOut(row.event_deltas as ClockOutFacts);
  return { closed, event: eventOf(guildId, row, clockOutDeltas(closed)), person: null };
}

/**
 * Closes the person's shift as AUTO_CLOSED at exactly `maxShiftMs` if it is still open and longer —
 * one statement, like clock-out, with its event and audit row. Null when it changed nothing (closed
 * already, by a clock-out or another node's sweep: the row's update decides, so it happens once).
 */
export async function autoCloseShift(db: Db, guildId: string, userId: string, maxShiftMs: number) {
  const [row] = await autoCloseStatement(db, guildId, userId, maxShiftMs);
  if (!row) return null;
  const closed = readClockOut(row.event_deltas as ClockOutFacts);
  return { closed, event: eventOf(guildId, row, clockOutDeltas(closed)) };
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
  const [row] = 'badge' in who
    ? await db`select user_id, nickname, badge from people where guild_id = ${guildId} and badge = ${who.badge}`
    : await db`select user_id, nickname, badge from people where guild_id = ${guildId} and user_id = ${who.userId}`;
  return row ? toPerson(row) : null;
}

/** The person's current or last shift; `person` null when nobody has the badge. */
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
