import type { IngameAlarmList } from './ingame-alarms.ts';
import type { Db } from '../../store/db.ts';
import type { CrewIncident } from '../../../contract/alarm.ts';

export interface AlarmUnitRow { id: string; callsign: string; label: string; status: string }

/**
 * The units with these callsigns (any case), locked in id order: every alarm and status change
 * locks a unit before the sheets it is on, so two alarms of overlapping units wait, never deadlock.
 */
export async function lockUnits(db: Db, guildId: string, callsigns: string[]): Promise<AlarmUnitRow[]> {
  const rows = await db`select id, callsign, label, status from units
    where guild_id = ${guildId} and lower(callsign) = any(${callsigns.map((c) => c.toLowerCase())}::text[])
    order by id for update`;
  return rows.map((r) => ({ id: String(r.id), callsign: r.callsign as string, label: r.label as string, status: r.status as string }));
}

/** Which of these units are on an open sheet other than `number`: unit id -> sheet numbers. */
export async function otherOpenSheets(db: Db, guildId: string, unitIds: string[], number: number): Promise<{ unitId: string; number: number }[]> {
  const rows = await db`select iu.unit_id, iu.number from incident_units iu
    join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
    where iu.guild_id = ${guildId} and iu.unit_id = any(${unitIds}::bigint[]) and iu.number <> ${number}
    order by iu.number, iu.unit_id`;
  return rows.map((r) => ({ unitId: String(r.unit_id), number: r.number as number }));
}

export async function releaseFrom(db: Db, guildId: string, number: number, unitIds: string[]): Promise<void> {
  await db`delete from incident_units where guild_id = ${guildId} and number = ${number} and unit_id = any(${unitIds}::bigint[])`;
}

/** Assigns the unit to the sheet if need be and (re)sets its alarm: alarmedAt now, not acknowledged. */
export async function alarmUnit(db: Db, guildId: string, number: number, unitId: string): Promise<void> {
  await db`insert into incident_units (guild_id, number, unit_id, alarmed_at) values (${guildId}, ${number}, ${unitId}, now())
    on conflict (guild_id, number, unit_id) do update set alarmed_at = now(), acknowledged_at = null`;
}

/** Open sheets on which the unit has an alarm it has not acknowledged, in number order. */
export async function pendingAlarms(db: Db, guildId: string, unitId: string): Promise<number[]> {
  const rows = await db`select iu.number from incident_units iu
    join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
    where iu.guild_id = ${guildId} and iu.unit_id = ${unitId} and iu.alarmed_at is not null and iu.acknowledged_at is null
    order by iu.number`;
  return rows.map((r) => r.number as number);
}

export async function acknowledge(db: Db, guildId: string, number: number, unitId: string): Promise<boolean> {
  const rows = await db`update incident_units set acknowledged_at = now()
    where guild_id = ${guildId} and number = ${number} and unit_id = ${unitId} and alarmed_at is not null and acknowledged_at is null
    returning number`;
  return rows.length === 1;
}

/**
 * The open sheet the unit was most recently alarmed for, as its crew sees it: keyword, priority,
 * location, the game call's message, the other alarmed units, the own alarm time, and the newest
 * 50 timeline entries (oldest first). Null when the unit has none.
 */
export async function crewIncident(db: Db, guildId: string, callsign: string): Promise<CrewIncident | null> {
  const [row] = await db`
    select i.number, i.keyword, i.priority, i.location, c.message, iu.alarmed_at, iu.acknowledged_at,
      coalesce((select json_agg(json_build_object('callsign', u.callsign, 'label', u.label, 'alarmedAt', o.alarmed_at, 'acknowledgedAt', o.acknowledged_at)
          order by o.alarmed_at, u.callsign)
        from incident_units o join units u on u.guild_id = o.guild_id and u.id = o.unit_id
        where o.guild_id = i.guild_id and o.number = i.number and o.alarmed_at is not null and o.unit_id <> iu.unit_id), '[]'::json) as others,
      coalesce((select json_agg(json_build_object('kind', e.kind, 'text', e.text, 'at', e.at, 'by', e.by_name) order by e.id)
        from (select * from incident_entries x where x.guild_id = i.guild_id and x.number = i.number order by x.id desc limit 50) e), '[]'::json) as entries
    from incident_units iu
    join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
    left join calls c on c.guild_id = i.guild_id and c.id = i.call_id
    where iu.guild_id = ${guildId} and iu.alarmed_at is not null
      and iu.unit_id = (select id from units where guild_id = ${guildId} and callsign = ${callsign})
    order by iu.alarmed_at desc, iu.number desc limit 1`;
  if (!row) return null;
  const date = (v: string | null) => (v ? new Date(v) : null);
  return {
    number: row.number as number, keyword: row.keyword as string, priority: row.priority as number,
    location: (row.location ?? null) as CrewIncident['location'], message: (row.message as string | null) ?? null,
    alarmedAt: row.alarmed_at as Date, acknowledgedAt: (row.acknowledged_at as Date | null) ?? null,
    units: (row.others as { callsign: string; label: string; alarmedAt: string; acknowledgedAt: string | null }[])
      .map((u) => ({ callsign: u.callsign, label: u.label, alarmedAt: new Date(u.alarmedAt), acknowledgedAt: date(u.acknowledgedAt) })),
    entries: (row.entries as { kind: string; text: string; at: string; by: string | null }[]).map((e) => ({ ...e, at: new Date(e.at) })),
  };
}

/** Units alarmed on open sheets, newest alarm first, each with its crew and its sheet. */
export async function ingameAlarms(db: Db, guildId: string): Promise<IngameAlarmList> {
  const rows = await db`
    select u.callsign, u.label, iu.alarmed_at, iu.acknowledged_at, i.number, i.keyword, i.priority, i.location, c.message,
      coalesce((select json_agg(json_build_object('userId', m.user_id, 'nickname', p.nickname, 'badge', p.badge) order by m.since)
        from unit_members m join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
        where m.guild_id = u.guild_id and m.unit_id = u.id), '[]'::json) as crew,
      (select json_agg(json_build_object('callsign', ou.callsign, 'label', ou.label, 'alarmedAt', o.alarmed_at, 'acknowledgedAt', o.acknowledged_at)
          order by o.alarmed_at, ou.callsign)
        from incident_units o join units ou on ou.guild_id = o.guild_id and ou.id = o.unit_id
        where o.guild_id = i.guild_id and o.number = i.number and o.alarmed_at is not null) as units
    from incident_units iu
    join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
    join units u on u.guild_id = iu.guild_id and u.id = iu.unit_id
    left join calls c on c.guild_id = i.guild_id and c.id = i.call_id
    where iu.guild_id = ${guildId} and iu.alarmed_at is not null
    order by iu.alarmed_at desc, u.callsign limit 500`;
  const date = (v: string | null) => (v ? new Date(v) : null);
  return {
    alarms: rows.map((r) => ({
      callsign: r.callsign as string, label: r.label as string, alarmedAt: r.alarmed_at as Date, acknowledgedAt: (r.acknowledged_at as Date | null) ?? null,
      crew: r.crew as { userId: string; nickname: string; badge: string | null }[],
      incident: {
        number: r.number as number, keyword: r.keyword as string, priority: r.priority as number,
        location: (r.location ?? null) as IngameAlarmList['alarms'][number]['incident']['location'], message: (r.message as string | null) ?? null,
        units: (r.units as { callsign: string; label: string; alarmedAt: string; acknowledgedAt: string | null }[])
          .map((u) => ({ callsign: u.callsign, label: u.label, alarmedAt: new Date(u.alarmedAt), acknowledgedAt: date(u.acknowledgedAt) })),
      },
    })),
  };
}
