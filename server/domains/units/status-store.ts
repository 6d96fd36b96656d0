import type { Db } from '../../store/db.ts';

export interface StatusRow { code: string; label: string; color: string; alarm: boolean; acknowledges: boolean; available: boolean; position: number }

/**
 * Locks the guild's status catalogue (`share`: unit writes; `update`: catalogue edits) so the alarm
 * set a unit write reads stays fixed until it commits. Seeds the FMS defaults for a guild created
 * before the catalogue existed (sql/0002 seeds every new guild itself).
 */
export async function lockCatalogue(db: Db, guildId: string, mode: 'share' | 'update'): Promise<void> {
  const lock = async () => mode === 'share'
    ? db`select guild_id from status_catalogues where guild_id = ${guildId} for share`
    : db`select guild_id from status_catalogues where guild_id = ${guildId} for update`;
  if ((await lock()).length) return;
  await db`select seed_unit_statuses(${guildId})`;
  await lock();
}

export async function statuses(db: Db, guildId: string): Promise<StatusRow[]> {
  const rows = await db`select code, label, color, alarm, acknowledges, available, position from unit_statuses
    where guild_id = ${guildId} order by position, code`;
  return rows.map(toStatus);
}

/** The catalogue entries of these codes (a unit's old and new status in one look-up). */
export async function statusesByCode(db: Db, guildId: string, codes: string[]): Promise<Map<string, StatusRow>> {
  const rows = await db`select code, label, color, alarm, acknowledges, available, position from unit_statuses
    where guild_id = ${guildId} and code = any(${codes})`;
  return new Map(rows.map((r) => [r.code as string, toStatus(r)]));
}

/** The status a new unit starts in: FMS 2 (on station) when the guild has it, else the first one. */
export async function initialStatus(db: Db, guildId: string): Promise<StatusRow | null> {
  const [row] = await db`select code, label, color, alarm, acknowledges, available, position from unit_statuses
    where guild_id = ${guildId} order by (code = '2') desc, position, code limit 1`;
  return row ? toStatus(row) : null;
}

/**
 * The status a dispatcher's alarm puts units in: the first by position that carries `alarm: true`,
 * leaving out FMS 0 (the crew's own emergency call, not an alarm by the desk). Null when there is none.
 */
export async function dispatchAlarmStatus(db: Db, guildId: string): Promise<StatusRow | null> {
  const [row] = await db`select code, label, color, alarm, acknowledges, available, position from unit_statuses
    where guild_id = ${guildId} and alarm and code <> '0' order by position, code limit 1`;
  return row ? toStatus(row) : null;
}

/**
 * Creates or replaces a status. `position` null keeps an existing status's position and puts a
 * new one last. `previousAlarm` is null when the code is new.
 */
export async function putStatus(db: Db, guildId: string, s: { code: string; label: string; color: string; alarm: boolean; acknowledges: boolean | null; available: boolean | null; position: number | null }) {
  const [row] = await db`
    with prev as (select alarm from unit_statuses where guild_id = ${guildId} and code = ${s.code})
    insert into unit_statuses as u (guild_id, code, label, color, alarm, acknowledges, available, position)
    values (${guildId}, ${s.code}, ${s.label}, ${s.color}, ${s.alarm}, coalesce(${s.acknowledges}::boolean, false), coalesce(${s.available}::boolean, false),
      coalesce(${s.position}::int, (select coalesce(max(position), 0) + 1 from unit_statuses where guild_id = ${guildId})))
    on conflict (guild_id, code) do update set label = excluded.label, color = excluded.color, alarm = excluded.alarm,
      acknowledges = coalesce(${s.acknowledges}::boolean, u.acknowledges),
      available = coalesce(${s.available}::boolean, u.available),
      position = coalesce(${s.position}::int, u.position)
    returning code, label, color, alarm, acknowledges, available, position, (select alarm from prev) as previous_alarm`;
  return { status: toStatus(row), previousAlarm: row.previous_alarm as boolean | null };
}

export async function statusCount(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select count(*)::int as n from unit_statuses where guild_id = ${guildId}`;
  return row.n as number;
}

/** Removes a status unless a unit is in it; `inUse` lists those units' callsigns. */
export async function deleteUnusedStatus(db: Db, guildId: string, code: string) {
  const [row] = await db`
    with used as (select callsign from units where guild_id = ${guildId} and status = ${code}),
    gone as (
      delete from unit_statuses where guild_id = ${guildId} and code = ${code} and not exists (select 1 from used)
      returning code
    )
    select exists (select 1 from unit_statuses where guild_id = ${guildId} and code = ${code}) as existed,
      (select count(*) from gone)::int as deleted,
      coalesce((select array_agg(callsign order by callsign) from used), '{}') as in_use`;
  return { existed: row.existed as boolean, deleted: row.deleted === 1, inUse: row.in_use as string[] };
}

/** Units currently in `code`, for the alarm ops of a catalogue edit. */
export async function unitsInStatus(db: Db, guildId: string, code: string) {
  const rows = await db`select callsign, status, status_since from units
    where guild_id = ${guildId} and status = ${code} order by callsign`;
  return rows.map((r) => ({ callsign: r.callsign as string, status: r.status as string, since: (r.status_since as Date).getTime() }));
}

function toStatus(r: Record<string, unknown>): StatusRow {
  return {
    code: r.code as string, label: r.label as string, color: r.color as string, alarm: r.alarm as boolean, acknowledges: r.acknowledges as boolean,
    available: r.available as boolean, position: r.position as number,
  };
}
