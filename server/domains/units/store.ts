import type { Db } from '../../store/db.ts';

export interface UnitRow { id: string; callsign: string; label: string; orgUnit: string; type: string | null; status: string; since: Date; note: string | null }
export interface MemberRow { userId: string; nickname: string; since: Date }

/** Every unit with its members and its status's label and alarm flag, for `GET /units`. */
export async function unitsWithMembers(db: Db, guildId: string) {
  const rows = await db`
    select u.callsign, u.label, u.org_unit, u.type, u.status, u.status_since, u.status_note, s.label as status_label, coalesce(s.alarm, false) as alarm,
      coalesce(json_agg(json_build_object('userId', m.user_id, 'nickname', p.nickname, 'since', m.since) order by m.since, m.user_id)
        filter (where m.user_id is not null), '[]') as members
    from units u
    left join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status
    left join unit_members m on m.guild_id = u.guild_id and m.unit_id = u.id
    left join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
    where u.guild_id = ${guildId}
    group by u.guild_id, u.id, s.label, s.alarm
    order by lower(u.callsign)`;
  return rows.map((r) => ({
    callsign: r.callsign as string, label: r.label as string, orgUnit: r.org_unit as string, type: (r.type as string | null) ?? null, status: r.status as string,
    statusLabel: (r.status_label as string) ?? null, alarm: r.alarm as boolean, since: r.status_since as Date,
    note: (r.status_note as string | null) ?? null,
    members: (r.members as { userId: string; nickname: string; since: string }[]).map((m) => ({ ...m, since: new Date(m.since) })),
  }));
}

/** Every unit as a crew chooses one (`GET /me/units`): status and how many occupy it, no names. */
export async function unitsForCrew(db: Db, guildId: string) {
  const rows = await db`
    select u.callsign, u.label, u.org_unit, u.status, s.label as status_label,
      (select count(*) from unit_members m where m.guild_id = u.guild_id and m.unit_id = u.id)::int as crew
    from units u
    left join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status
    where u.guild_id = ${guildId}
    order by lower(u.org_unit), lower(u.callsign)`;
  return rows.map((r) => ({
    callsign: r.callsign as string, label: r.label as string, orgUnit: r.org_unit as string, status: r.status as string,
    statusLabel: (r.status_label as string | null) ?? null, crew: r.crew as number,
  }));
}

/** The unit with this callsign (any case), locked against concurrent writes of the same unit. */
export async function lockUnit(db: Db, guildId: string, callsign: string): Promise<UnitRow | null> {
  const [row] = await db`select id, callsign, label, org_unit, type, status, status_since, status_note from units
    where guild_id = ${guildId} and lower(callsign) = lower(${callsign}) for update`;
  return row ? toUnit(row) : null;
}

/** Adds a unit; null when the callsign (any case) is taken. */
export async function insertUnit(db: Db, guildId: string, u: { callsign: string; label: string; orgUnit: string; status: string; type?: string | null }): Promise<UnitRow | null> {
  const [row] = await db`insert into units (guild_id, callsign, label, org_unit, status, type)
    values (${guildId}, ${u.callsign}, ${u.label}, ${u.orgUnit}, ${u.status}, ${u.type ?? null})
    on conflict do nothing returning id, callsign, label, org_unit, type, status, status_since, status_note`;
  return row ? toUnit(row) : null;
}

/** Renames, relabels and/or retypes; null when the new callsign is taken by another unit. */
export async function updateUnit(db: Db, guildId: string, id: string, u: { callsign: string; label: string; orgUnit: string; type: string | null }): Promise<UnitRow | null> {
  const [row] = await db`
    update units set callsign = ${u.callsign}, label = ${u.label}, org_unit = ${u.orgUnit}, type = ${u.type}
    where guild_id = ${guildId} and id = ${id}
      and not exists (select 1 from units o where o.guild_id = ${guildId} and o.id <> ${id} and lower(o.callsign) = lower(${u.callsign}))
    returning id, callsign, label, org_unit, type, status, status_since, status_note`;
  return row ? toUnit(row) : null;
}

export async function deleteUnit(db: Db, guildId: string, id: string): Promise<void> {
  await db`delete from units where guild_id = ${guildId} and id = ${id}`;
}

/** Sets the status and its crew note (null: none): every status change replaces the last note. */
export async function setUnitStatus(db: Db, guildId: string, id: string, status: string, note: string | null): Promise<Date> {
  const [row] = await db`update units set status = ${status}, status_since = now(), status_note = ${note}
    where guild_id = ${guildId} and id = ${id} returning status_since`;
  return row.status_since as Date;
}

/**
 * The unit's members in board order, their rows locked: a concurrent clock-out (which deletes a
 * member row) is ordered before or after this transaction, never in between.
 */
export async function lockMembers(db: Db, guildId: string, unitId: string): Promise<MemberRow[]> {
  const rows = await db`select m.user_id, p.nickname, m.since from unit_members m
    join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
    where m.guild_id = ${guildId} and m.unit_id = ${unitId}
    order by m.since, m.user_id for update of m`;
  return rows.map((r) => ({ userId: r.user_id as string, nickname: r.nickname as string, since: r.since as Date }));
}

/** The unit a person is in (row locked), or null. */
export async function seatOf(db: Db, guildId: string, userId: string): Promise<{ unitId: string; callsign: string } | null> {
  const [row] = await db`select m.unit_id, u.callsign from unit_members m
    join units u on u.guild_id = m.guild_id and u.id = m.unit_id
    where m.guild_id = ${guildId} and m.user_id = ${userId} for update of m`;
  return row ? { unitId: String(row.unit_id), callsign: row.callsign as string } : null;
}

/** Puts the person into the unit; one unit at a time, so an existing seat moves. */
export async function seat(db: Db, guildId: string, unitId: string, userId: string): Promise<void> {
  await db`insert into unit_members (guild_id, unit_id, user_id) values (${guildId}, ${unitId}, ${userId})
    on conflict (guild_id, user_id) do update set unit_id = excluded.unit_id, since = now()`;
}

export async function unseat(db: Db, guildId: string, userId: string): Promise<void> {
  await db`delete from unit_members where guild_id = ${guildId} and user_id = ${userId}`;
}

export interface PersonOnDuty { userId: string; nickname: string; onDuty: boolean }

/**
 * The person, locked against concurrent seat and slot writes of the same person, with whether they
 * are on duty (their open shift is locked too, so a clock-out in flight is waited for and seen).
 */
export async function lockPerson(db: Db, guildId: string, who: { userId: string } | { badge: string }): Promise<PersonOnDuty | null> {
  const userId = 'userId' in who ? who.userId : null;
  const badge = 'badge' in who ? who.badge : null;
  const [row] = await db`
    select p.user_id, p.nickname, s.id is not null as on_duty from people p
    left join lateral (
      select id from shifts where guild_id = p.guild_id and user_id = p.user_id and clock_out_at is null for share
    ) s on true
    where p.guild_id = ${guildId} and (p.user_id = ${userId} or p.badge = ${badge})
    for no key update of p`;
  return row ? { userId: row.user_id as string, nickname: row.nickname as string, onDuty: row.on_duty as boolean } : null;
}

function toUnit(r: Record<string, unknown>): UnitRow {
  return {
    id: String(r.id), callsign: r.callsign as string, label: r.label as string, orgUnit: r.org_unit as string, type: (r.type as string | null) ?? null,
    status: r.status as string, since: r.status_since as Date, note: (r.status_note as string | null) ?? null,
  };
}
