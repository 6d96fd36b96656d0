import type { PendingQuery, Row } from 'postgres';
import type { Db } from '../../store/db.ts';

/** Whose shifts count: everyone, one person, or the people who now hold a rank and/or sit in an organisation unit. */
export interface Who { userId?: string; rank?: string; orgUnit?: string }

type Fragment = PendingQuery<Row[]>;

function whoClause(db: Db, guildId: string, who: Who): Fragment {
  if (who.userId !== undefined) return db`and user_id = ${who.userId}`;
  if (who.rank === undefined && who.orgUnit === undefined) return db``;
  return db`and user_id in (select user_id from people where guild_id = ${guildId}
    ${who.rank !== undefined ? db`and rank_id = ${who.rank}` : db``}
    ${who.orgUnit !== undefined ? db`and org_unit = ${who.orgUnit}` : db``})`;
}

/**
 * Every shift overlapping [from, to) as (user_id, s, e), open shifts ending at `now`. Index ranges
 * as long as the period plus a margin (sql/0012, sql/0014), so the cost follows the period, not the
 * history: shifts of at most a day by their start in [from − 1 day, to); of 1 to 8 days by their
 * start in [from − 8 days, to); the very rare longer ones by their end; the open ones.
 * `from` and `to` are SQL expressions (a parameter, or a bucket's column).
 */
function overlapping(db: Db, guildId: string, from: Fragment, to: Fragment, now: Date, who: Fragment): Fragment {
  return db`
    select user_id, clock_in_at as s, clock_out_at as e from shifts
      where guild_id = ${guildId} and clock_out_at is not null
        and clock_in_at >= ${from} - interval '1 day' and clock_in_at < ${to}
        and clock_out_at > ${from} and clock_out_at - clock_in_at <= interval '1 day' ${who}
    union all
    select user_id, clock_in_at, clock_out_at from shifts
      where guild_id = ${guildId} and clock_out_at - clock_in_at > interval '1 day'
        and clock_in_at >= ${from} - interval '8 days' and clock_in_at < ${to}
        and clock_out_at > ${from} and clock_out_at - clock_in_at <= interval '8 days' ${who}
    union all
    select user_id, clock_in_at, clock_out_at from shifts
      where guild_id = ${guildId} and clock_out_at - clock_in_at > interval '8 days'
        and clock_out_at > ${from} and clock_in_at < ${to} ${who}
    union all
    select user_id, clock_in_at, ${now}::timestamptz from shifts
      where guild_id = ${guildId} and clock_out_at is null
        and clock_in_at < ${to} and ${now}::timestamptz > ${from} ${who}`;
}

/** Every shift of the guild (alltime), open ones ending at `now`. */
function everyShift(db: Db, guildId: string, now: Date, who: Fragment): Fragment {
  return db`
    select user_id, clock_in_at as s, clock_out_at as e from shifts
      where guild_id = ${guildId} and clock_out_at is not null ${who}
    union all
    select user_id, clock_in_at, ${now}::timestamptz from shifts
      where guild_id = ${guildId} and clock_out_at is null and clock_in_at < ${now}::timestamptz ${who}`;
}

/**
 * The summed duty of a group in ms: each end cut to whole ms (so the sums equal what JavaScript
 * computes from the same timestamps: a `Date` drops the µs), summed as intervals and converted to
 * a number once per group, not once per row.
 */
const sumMs = (db: Db, start: Fragment, end: Fragment) =>
  db`coalesce(extract(epoch from sum(date_trunc('milliseconds', ${end}) - date_trunc('milliseconds', ${start}))) * 1000, 0)::float8`;
const sumInsideMs = (db: Db, from: Fragment, to: Fragment) => sumMs(db, db`greatest(s, ${from})`, db`least(e, ${to})`);

export interface Range { from: number | null; to: number }
export interface PersonDuty { userId: string; ms: number; shifts: number }

/** Duty time and shift count per person in the range; a shift crossing a bound counts with its part inside. */
export async function dutyByPerson(db: Db, guildId: string, range: Range, now: Date, who: Who): Promise<PersonDuty[]> {
  const w = whoClause(db, guildId, who);
  const rows = range.from === null
    ? await db`select user_id, ${sumMs(db, db`s`, db`e`)} as ms, count(*)::int as shifts
        from (${everyShift(db, guildId, now, w)}) o group by user_id`
    : await (() => {
      const from = db`${new Date(range.from)}::timestamptz`, to = db`${new Date(range.to)}::timestamptz`;
      return db`select user_id, ${sumInsideMs(db, from, to)} as ms, count(*)::int as shifts
        from (${overlapping(db, guildId, from, to, now, w)}) o group by user_id`;
    })();
  return rows.map((r) => ({ userId: r.user_id as string, ms: r.ms as number, shifts: r.shifts as number }));
}

export interface BucketDuty { ms: number; shifts: number }

/** Duty time and shifts per bucket [starts[i], ends[i]) — index ranges per bucket. */
export async function dutyByBucket(db: Db, guildId: string, starts: number[], ends: number[], now: Date, who: Who): Promise<BucketDuty[]> {
  if (starts.length === 0) return [];
  const w = whoClause(db, guildId, who);
  const from = db`b.bs`, to = db`b.be`;
  const rows = await db`
    select b.i, d.ms, d.shifts
    from unnest(${starts.map(iso)}::timestamptz[], ${ends.map(iso)}::timestamptz[]) with ordinality as b(bs, be, i)
    cross join lateral (
      select ${sumInsideMs(db, from, to)} as ms, count(*)::int as shifts
      from (${overlapping(db, guildId, from, to, now, w)}) o
    ) d
    order by b.i`;
  return rows.map((r) => ({ ms: r.ms as number, shifts: r.shifts as number }));
}

export interface ShiftSpan { userId: string; start: number; end: number }

/** The shifts overlapping the range (clipped to it), for the heatmap's sweep; alltime: every shift. */
export async function shiftSpans(db: Db, guildId: string, range: Range, now: Date, who: Who): Promise<ShiftSpan[]> {
  const w = whoClause(db, guildId, who);
  const rows = range.from === null
    ? await db`select user_id, s, e from (${everyShift(db, guildId, now, w)}) o`
    : await (() => {
      const from = db`${new Date(range.from)}::timestamptz`, to = db`${new Date(range.to)}::timestamptz`;
      return db`select user_id, greatest(s, ${from}) as s, least(e, ${to}) as e from (${overlapping(db, guildId, from, to, now, w)}) o`;
    })();
  return rows.map((r) => ({ userId: r.user_id as string, start: (r.s as Date).getTime(), end: (r.e as Date).getTime() }));
}

export interface PersonShift { id: string; clockInAt: Date; clockOutAt: Date | null; status: string }

/** One person's shifts overlapping the range, newest first (their own index: guild, user, start). */
export async function shiftsOfPerson(db: Db, guildId: string, userId: string, range: Range, now: Date): Promise<PersonShift[]> {
  const rows = await db`select id, clock_in_at, clock_out_at, status from shifts
    where guild_id = ${guildId} and user_id = ${userId} and clock_in_at < ${new Date(range.to)}
      and ${range.from === null ? db`true` : db`coalesce(clock_out_at, ${now}::timestamptz) > ${new Date(range.from)}`}
    order by clock_in_at desc`;
  return rows.map((r) => ({ id: String(r.id), clockInAt: r.clock_in_at, clockOutAt: r.clock_out_at, status: r.status }));
}

export interface StatsPerson { userId: string; nickname: string; badge: string | null; rank: string | null }

export async function peopleByIds(db: Db, guildId: string, userIds: string[]): Promise<Map<string, StatsPerson>> {
  if (userIds.length === 0) return new Map();
  const rows = await db`select p.user_id, p.nickname, p.badge, r.name as rank from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and p.user_id = any(${userIds})`;
  return new Map(rows.map((r) => [r.user_id as string, { userId: r.user_id, nickname: r.nickname, badge: r.badge ?? null, rank: r.rank ?? null }]));
}

/** When the guild's (or one person's) first shift began; null without shifts. */
export async function firstShiftAt(db: Db, guildId: string, userId?: string): Promise<number | null> {
  // the closed shifts' minimum from their index (shifts_by_start), the open ones' from theirs
  const [row] = userId === undefined
    ? await db`select least((select min(clock_in_at) from shifts where guild_id = ${guildId} and clock_out_at is not null),
        (select min(clock_in_at) from shifts where guild_id = ${guildId} and clock_out_at is null)) as t`
    : await db`select min(clock_in_at) as t from shifts where guild_id = ${guildId} and user_id = ${userId}`;
  return row?.t ? (row.t as Date).getTime() : null;
}

/** Arrays of instants go as ISO text (postgres.js would send an array of Dates as one value). */
const iso = (t: number) => new Date(t).toISOString();
