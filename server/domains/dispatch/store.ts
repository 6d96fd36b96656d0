import type { Db } from '../../store/db.ts';

export interface SlotRow { slot: number; userId: string; nickname: string; since: Date }

export async function slots(db: Db, guildId: string): Promise<SlotRow[]> {
  const rows = await db`select d.slot, d.user_id, p.nickname, d.since from dispatcher_slots d
    join people p on p.guild_id = d.guild_id and p.user_id = d.user_id
    where d.guild_id = ${guildId} order by d.slot`;
  return rows.map(toSlot);
}

/**
 * Serialises the guild's slot writes until commit: "first free slot" and "one slot per person"
 * are then decided by reads, not races. Slot writes are rare; clock-outs do not take this lock
 * (they only delete slots, which never breaks either rule).
 */
export async function lockSlots(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`dispatcher_slots:${guildId}`}, 0))`;
}

export async function slotHolder(db: Db, guildId: string, slot: number): Promise<SlotRow | null> {
  const [row] = await db`select d.slot, d.user_id, p.nickname, d.since from dispatcher_slots d
    join people p on p.guild_id = d.guild_id and p.user_id = d.user_id
    where d.guild_id = ${guildId} and d.slot = ${slot}`;
  return row ? toSlot(row) : null;
}

export async function slotsOf(db: Db, guildId: string, userId: string): Promise<number[]> {
  const rows = await db`select slot from dispatcher_slots where guild_id = ${guildId} and user_id = ${userId} order by slot`;
  return rows.map((r) => r.slot as number);
}

/** The lowest slot in 1..max nobody holds, or null. */
export async function firstFreeSlot(db: Db, guildId: string, max: number): Promise<number | null> {
  const [row] = await db`select n as slot from generate_series(1, ${max}::int) n
    where not exists (select 1 from dispatcher_slots where guild_id = ${guildId} and slot = n) order by n limit 1`;
  return row ? (row.slot as number) : null;
}

/** Gives `slot` to the person, replacing whoever held it. */
export async function putSlot(db: Db, guildId: string, slot: number, userId: string): Promise<Date> {
  const [row] = await db`insert into dispatcher_slots (guild_id, slot, user_id) values (${guildId}, ${slot}, ${userId})
    on conflict (guild_id, slot) do update set user_id = excluded.user_id, since = now() returning since`;
  return row.since as Date;
}

export async function deleteSlots(db: Db, guildId: string, slotList: number[]): Promise<void> {
  await db`delete from dispatcher_slots where guild_id = ${guildId} and slot = any(${slotList}::int[])`;
}

// ---- stand-by ----------------------------------------------------------------------------------

export interface StandbyRow { userId: string; nickname: string; since: Date }

export async function standby(db: Db, guildId: string): Promise<StandbyRow[]> {
  const rows = await db`select s.user_id, p.nickname, s.since from standby s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
    where s.guild_id = ${guildId} order by s.since, s.user_id`;
  return rows.map(toStandby);
}

/** Puts the person on stand-by; null when they already are (or have no personnel entry). */
export async function insertStandby(db: Db, guildId: string, userId: string): Promise<StandbyRow | null> {
  const [row] = await db`
    with added as (
      insert into standby (guild_id, user_id) select guild_id, user_id from people where guild_id = ${guildId} and user_id = ${userId}
      on conflict (guild_id, user_id) do nothing returning user_id, since
    )
    select a.user_id, p.nickname, a.since from added a join people p on p.guild_id = ${guildId} and p.user_id = a.user_id`;
  return row ? toStandby(row) : null;
}

/** The person's stand-by entry, or null. */
export async function standbyEntry(db: Db, guildId: string, userId: string): Promise<StandbyRow | null> {
  const [row] = await db`select s.user_id, p.nickname, s.since from standby s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
    where s.guild_id = ${guildId} and s.user_id = ${userId}`;
  return row ? toStandby(row) : null;
}

/** Takes the person off stand-by; `person` null when nobody has the id, `removed` false when they were not on it. */
export async function leaveStandby(db: Db, guildId: string, userId: string) {
  const [row] = await db`
    with p as (select user_id, nickname from people where guild_id = ${guildId} and user_id = ${userId}),
    gone as (delete from standby s using p where s.guild_id = ${guildId} and s.user_id = p.user_id returning s.user_id)
    select p.user_id, p.nickname, exists (select 1 from gone) as removed from p`;
  return row ? { userId: row.user_id as string, nickname: row.nickname as string, removed: row.removed as boolean } : null;
}

function toSlot(r: Record<string, unknown>): SlotRow {
  return { slot: r.slot as number, userId: r.user_id as string, nickname: r.nickname as string, since: r.since as Date };
}

function toStandby(r: Record<string, unknown>): StandbyRow {
  return { userId: r.user_id as string, nickname: r.nickname as string, since: r.since as Date };
}
