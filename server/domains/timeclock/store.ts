import type { Db } from '../../store/db.ts';
import { eventOf, outboxColumns, outboxCtes, outboxJoin } from '../../store/outbox.ts';
import { jsonSql, sqlElements, sqlJson, sqlNumber, sqlSpread, sqlText, sqlWhen } from '../../store/json-text.ts';
import { identifierArray, statement } from '../../store/statement.ts';
import type { Actor } from '../../store/tx.ts';
import { clockInTopics, clockOutTopics } from './schema.ts';

export interface PersonRef { userId: string; nickname: string; badge: string | null; rank: string | null }
/** Who was clocked out: clock-out reads no rank. */
export type ClockedOutPerson = Omit<PersonRef, 'rank'>;
export type Who = { badge: string } | { userId: string };

/**
 * The two hot writes are fixed statements (see store/statement.ts), four each: by badge or user id,
 * with or without an audit row. Parameters: $1 guild id, $2 badge or user id, and with an audit
 * row $3 action, $4 actor kind, $5 actor id.
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

/**
 * `p`: the person addressed by badge or user id — the first CTE of the shift statements. With their
 * rank's name for clock-in, whose deltas carry it; clock-out needs no rank.
 */
const person = (by: By, withRank: boolean) => `p as (
    select p.user_id, p.nickname, p.badge${withRank ? ', r.name as rank' : ''} from people p
    ${withRank ? 'left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id' : ''}
    where p.guild_id = $1 and ${by === 'badge' ? 'p.badge' : 'p.user_id'} = $2
  )`;

/** An audit row to write with the change, or none (the badge routes of game scripts, spec §3). */
export type AuditAs = { action: string; actor: Actor } | null;

/** Epoch ms of a timestamptz, truncated like the `Date` postgres.js makes of it. */
const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const userId = sqlText('p.user_id');
const duty = (onDuty: boolean) => ({ op: 'duty', userId, onDuty });
const auditCols = (data: string) => ({ action: '$3', actorKind: '$4', actorId: '$5', data });

const openShiftStatement = variants((by, audited) => statement<ShiftParams>(`
  with ${person(by, true)}, opened as (
    insert into shifts (guild_id, user_id) select $1, user_id from p
    on conflict (guild_id, user_id) where clock_out_at is null do nothing
    returning clock_in_at
  ), ${outboxCtes({
    guild: '$1',
    from: 'p, opened',
    topics: identifierArray([...clockInTopics].sort()),
    deltas: jsonSql({
      onDuty: [{ op: 'upsert', key: userId, value: {
        userId, nickname: sqlText('p.nickname'), badge: sqlText('p.badge'), rank: sqlText('p.rank'), since: sqlNumber(ms('opened.clock_in_at')) } }],
      overview: [{ op: 'add', field: 'onDuty', by: 1 }],
      dispatchers: [duty(true)],
      alarm: [duty(true)],
      standby: [duty(true)],
    }),
    audit: audited ? auditCols(`jsonb_build_object('userId', p.user_id)`) : null,
  })}
  select p.*, opened.clock_in_at, ${outboxColumns()} from p left join opened on true ${outboxJoin}`));

const closeShiftStatement = variants((by, audited) => statement<ShiftParams>(`
  with ${person(by, false)}, closed as (
    update shifts s set clock_out_at = now(), status = 'CLOSED'
    where s.guild_id = $1 and s.user_id = (select user_id from p) and s.clock_out_at is null
    returning s.clock_in_at, s.clock_out_at
  ), slots as (
    delete from dispatcher_slots d using p, closed
    where d.guild_id = $1 and d.user_id = p.user_id returning d.slot
  ), seats as (
    delete from unit_members m using p, closed
    where m.guild_id = $1 and m.user_id = p.user_id returning m.unit_id
  ), freed as (
    select s.slots, s.slot_ops, c.callsigns, c.unit_ops,
      ${ms('closed.clock_out_at')} - ${ms('closed.clock_in_at')} as duration_ms
    from p, closed,
      (select coalesce(array_agg(slot order by slot), '{}') as slots,
        ${sqlElements({ op: 'remove', key: sqlText('slot::text') }, 'slot')} as slot_ops from slots) s,
      (select coalesce(array_agg(u.callsign order by u.callsign), '{}') as callsigns,
        ${sqlElements({ op: 'unlink', key: sqlText('u.callsign'), field: 'members', id: userId }, 'u.callsign')} as unit_ops
        from p, seats join units u on u.guild_id = $1 and u.id = seats.unit_id) c
  ), ${outboxCtes({
    guild: '$1',
    from: 'p, freed',
    topics: identifierArray([...clockOutTopics].sort()),
    deltas: jsonSql({
      onDuty: [{ op: 'remove', key: userId }],
      overview: [{ op: 'add', field: 'onDuty', by: -1 },
        sqlWhen('cardinality(freed.slots) > 0', { op: 'add', field: 'dispatchers', by: sqlNumber('-cardinality(freed.slots)') })],
      dispatchers: [duty(false), sqlSpread('freed.slot_ops')],
      units: [duty(false), sqlSpread('freed.unit_ops')],
      alarm: [duty(false)],
      access: [{ op: 'changed', userId }],
      einsatzEntries: [{ op: 'membersLeft', userId, callsigns: sqlJson('to_json(freed.callsigns)') }],
    }),
    audit: audited ? auditCols(`jsonb_build_object('userId', p.user_id, 'durationMs', greatest(0, freed.duration_ms))`) : null,
  })}
  select p.*, closed.clock_in_at, closed.clock_out_at, freed.slots, freed.callsigns, ${outboxColumns()}
  from p left join closed on true left join freed on true ${outboxJoin}`));

/**
 * Opens a shift for the person with `badge` (or `userId`) and writes its event (and audit row) —
 * one statement, one round trip. `person` null: nobody matches; `clockInAt` null: already on duty
 * (the partial unique index decided); in both cases nothing was written.
 * Deltas (ops as in hub/reducers.ts): the person joins `onDuty`, the `overview` count rises, and
 * their duty flips for `dispatchers`, `alarm` and `standby` (notices: those views depend on it).
 */
export async function openShift(db: Db, guildId: string, who: Who, audit: AuditAs) {
  const [row] = await openShiftStatement(db, guildId, who, audit);
  if (!row) return { person: null, clockInAt: null, event: null };
  return { person: toPerson(row), clockInAt: (row.clock_in_at as Date | null) ?? null, event: eventOf(guildId, row) };
}

/**
 * Closes the open shift, frees the person's dispatcher slots and unit seats, and writes the event
 * (and audit row) — one statement, one round trip. `shift` null: not on duty (then nothing at all
 * was changed or written).
 * Deltas: the person leaves `onDuty`, the `overview` counts drop, each freed slot leaves
 * `dispatchers`, each left unit loses the member in `units`; duty notices for `dispatchers`, `units`
 * and `alarm`, `access` changed, and `einsatzEntries` learns which units the person left.
 */
export async function closeShift(db: Db, guildId: string, who: Who, audit: AuditAs) {
  const [row] = await closeShiftStatement(db, guildId, who, audit);
  if (!row) return { person: null, shift: null, event: null };
  const shift = row.clock_out_at
    ? { clockInAt: row.clock_in_at as Date, clockOutAt: row.clock_out_at as Date, slots: row.slots as number[], callsigns: row.callsigns as string[] }
    : null;
  return { person: toClockedOut(row), shift, event: eventOf(guildId, row) };
}

/** The person's current or last shift; `person` null when nobody has the badge. */
export async function shiftStatusByBadge(db: Db, guildId: string, badge: string) {
  const [row] = await db`
    select p.user_id, s.clock_in_at, s.clock_out_at, s.status from people p
    left join lateral (
      select clock_in_at, clock_out_at, status from shifts
      where guild_id = p.guild_id and user_id = p.user_id order by clock_in_at desc limit 1
    ) s on true
    where p.guild_id = ${guildId} and p.badge = ${badge}`;
  if (!row) return null;
  return { clockInAt: row.clock_in_at as Date | null, clockOutAt: row.clock_out_at as Date | null, status: row.status as string | null };
}

export async function onDutyPeople(db: Db, guildId: string) {
  const rows = await db`
    select p.user_id, p.nickname, p.badge, r.name as rank, s.clock_in_at from shifts s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where s.guild_id = ${guildId} and s.clock_out_at is null
    order by s.clock_in_at, p.user_id`;
  return rows.map((r) => ({ ...toPerson(r), clockInAt: r.clock_in_at as Date }));
}

function toPerson(row: Record<string, unknown>): PersonRef {
  return { ...toClockedOut(row), rank: (row.rank as string) ?? null };
}

function toClockedOut(row: Record<string, unknown>): ClockedOutPerson {
  return { userId: row.user_id as string, nickname: row.nickname as string, badge: (row.badge as string) ?? null };
}
