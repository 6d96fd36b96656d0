import type { Db } from '../../store/db.ts';

export interface PersonRef { userId: string; nickname: string; badge: string | null; rank: string | null }
export type Who = { badge: string } | { userId: string };

/** `p`: the person addressed by badge or user id, with their rank name — the first CTE of the shift statements. */
function person(db: Db, guildId: string, who: Who) {
  const match = 'badge' in who ? db`p.badge = ${who.badge}` : db`p.user_id = ${who.userId}`;
  return db`p as (
    select p.user_id, p.nickname, p.badge, r.name as rank from people p
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where p.guild_id = ${guildId} and ${match}
  )`;
}

/**
 * Opens a shift for the person with `badge` (or `userId`) in one statement.
 * `person` null: nobody matches; `clockInAt` null: already on duty (the partial unique index decided).
 */
export async function openShift(db: Db, guildId: string, who: Who) {
  const [row] = await db`
    with ${person(db, guildId, who)}, opened as (
      insert into shifts (guild_id, user_id) select ${guildId}, user_id from p
      on conflict (guild_id, user_id) where clock_out_at is null do nothing
      returning clock_in_at
    )
    select p.*, opened.clock_in_at from p left join opened on true`;
  if (!row) return { person: null, clockInAt: null };
  return { person: toPerson(row), clockInAt: (row.clock_in_at as Date | null) ?? null };
}

/**
 * Closes the open shift and, in the same statement, frees the person's dispatcher slots and unit
 * seats. `shift` null: not on duty (then nothing else was changed either).
 */
export async function closeShift(db: Db, guildId: string, who: Who) {
  const [row] = await db`
    with ${person(db, guildId, who)}, closed as (
      update shifts s set clock_out_at = now(), status = 'CLOSED' from p
      where s.guild_id = ${guildId} and s.user_id = p.user_id and s.clock_out_at is null
      returning s.clock_in_at, s.clock_out_at
    ), slots as (
      delete from dispatcher_slots d using p, closed
      where d.guild_id = ${guildId} and d.user_id = p.user_id returning d.slot
    ), seats as (
      delete from unit_members m using p, closed
      where m.guild_id = ${guildId} and m.user_id = p.user_id returning m.unit_id
    )
    select p.*, closed.clock_in_at, closed.clock_out_at,
      coalesce((select array_agg(slot order by slot) from slots), '{}') as slots,
      coalesce((select array_agg(u.callsign order by u.callsign) from seats join units u
        on u.guild_id = ${guildId} and u.id = seats.unit_id), '{}') as callsigns
    from p left join closed on true`;
  if (!row) return { person: null, shift: null };
  const shift = row.clock_out_at
    ? { clockInAt: row.clock_in_at as Date, clockOutAt: row.clock_out_at as Date, slots: row.slots as number[], callsigns: row.callsigns as string[] }
    : null;
  return { person: toPerson(row), shift };
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
  return { userId: row.user_id as string, nickname: row.nickname as string, badge: (row.badge as string) ?? null, rank: (row.rank as string) ?? null };
}
