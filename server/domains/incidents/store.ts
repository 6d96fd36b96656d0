import type postgres from 'postgres';
import type { Db } from '../../store/db.ts';
import type { ActorName } from '../calls/store.ts';
import type { EntryOut, IncidentOut } from './schema.ts';

/** A jsonb parameter; SQL null (not JSON null) for a missing value. */
const json = (db: Db, v: unknown) => (v === undefined || v === null ? null : db.json(v as postgres.JSONValue));

/** The guild's next sheet number; the counter row stays locked until the transaction ends. */
export async function nextIncidentNumber(db: Db, guildId: string): Promise<number> {
  const [row] = await db`
    insert into incident_counters as c (guild_id, last_number) values (${guildId}, 1)
    on conflict (guild_id) do update set last_number = c.last_number + 1
    returning last_number`;
  return row.last_number as number;
}

export async function insertIncident(db: Db, guildId: string, number: number, i: {
  keyword: string; location: unknown; priority: number; callId: string | null; by: ActorName;
}): Promise<void> {
  await db`
    insert into incidents (guild_id, number, keyword, location, priority, call_id, created_by_kind, created_by_id, created_by_name)
    values (${guildId}, ${number}, ${i.keyword}, ${json(db, i.location)}::jsonb, ${i.priority}, ${i.callId}::bigint, ${i.by.kind}, ${i.by.id}, ${i.by.name})`;
}

/** The sheet's state and version, its row locked for the rest of the transaction; null when unknown. */
export async function lockIncident(db: Db, guildId: string, number: number) {
  const [row] = await db`select state, version from incidents where guild_id = ${guildId} and number = ${number} for update`;
  return row ? { state: row.state as 'open' | 'closed', version: row.version as number } : null;
}

/** Applies the given fields (undefined = unchanged; location null = cleared) and bumps the version. */
export async function updateIncident(db: Db, guildId: string, number: number, p: { keyword?: string; location?: unknown; priority?: number }): Promise<void> {
  await db`
    update incidents set
      keyword = coalesce(${p.keyword ?? null}::text, keyword),
      location = case when ${p.location !== undefined} then ${json(db, p.location)}::jsonb else location end,
      priority = coalesce(${p.priority ?? null}::smallint, priority),
      version = version + 1, updated_at = now()
    where guild_id = ${guildId} and number = ${number}`;
}

export async function closeIncident(db: Db, guildId: string, number: number): Promise<void> {
  await db`update incidents set state = 'closed', closed_at = now(), updated_at = now(), version = version + 1
    where guild_id = ${guildId} and number = ${number}`;
}

/**
 * Assigns the unit with `callsign` (any case, like the units domain) of this guild. `unit` null: no such unit in the guild;
 * `assigned` false: it was assigned already.
 */
export async function assignUnit(db: Db, guildId: string, number: number, callsign: string) {
  const [row] = await db`
    with u as (select id, callsign from units where guild_id = ${guildId} and lower(callsign) = lower(${callsign})),
    ins as (
      insert into incident_units (guild_id, number, unit_id) select ${guildId}, ${number}, u.id from u
      on conflict do nothing returning unit_id
    )
    select u.callsign, exists (select 1 from ins) as assigned from u`;
  return row ? { callsign: row.callsign as string, assigned: row.assigned as boolean } : null;
}

/** Releases the unit; `unit` null: no such unit in the guild; `released` false: it was not assigned. */
export async function releaseUnit(db: Db, guildId: string, number: number, callsign: string) {
  const [row] = await db`
    with u as (select id, callsign from units where guild_id = ${guildId} and lower(callsign) = lower(${callsign})),
    del as (
      delete from incident_units i using u
      where i.guild_id = ${guildId} and i.number = ${number} and i.unit_id = u.id returning i.unit_id
    )
    select u.callsign, exists (select 1 from del) as released from u`;
  return row ? { callsign: row.callsign as string, released: row.released as boolean } : null;
}

export async function insertEntry(db: Db, guildId: string, number: number, kind: EntryOut['kind'], text: string, by: ActorName): Promise<EntryOut> {
  const [row] = await db`
    insert into incident_entries (guild_id, number, kind, text, by_kind, by_id, by_name)
    values (${guildId}, ${number}, ${kind}, ${text}, ${by.kind}, ${by.id}, ${by.name})
    returning id::text as entry_id, number, kind, text, by_kind, by_id, by_name, at`;
  return toEntry(row);
}

/**
 * The timeline in the order it was written: every write to a sheet holds its row lock, so ids follow
 * commit order (`at`, the transaction's start, need not: a writer that waited for the lock started earlier).
 */
export async function entriesOf(db: Db, guildId: string, number: number): Promise<EntryOut[]> {
  const rows = await db`
    select id::text as entry_id, number, kind, text, by_kind, by_id, by_name, at from incident_entries
    where guild_id = ${guildId} and number = ${number} order by id`;
  return rows.map(toEntry);
}

export async function incidentByNumber(db: Db, guildId: string, number: number): Promise<IncidentOut | null> {
  const [row] = await db`
    select i.*, c.id::text as call_id_text, c.external_id as call_external_id, ${unitsOf(db)} as units
    from incidents i left join calls c on c.guild_id = i.guild_id and c.id = i.call_id
    where i.guild_id = ${guildId} and i.number = ${number}`;
  return row ? toIncident(row) : null;
}

export async function setAlarmAckTimeout(db: Db, guildId: string, seconds: number): Promise<void> {
  await db`update guilds set alarm_ack_timeout_s = ${seconds} where id = ${guildId}`;
}

/** The guild's `alarmAckTimeoutS` setting. */
export async function alarmAckTimeout(db: Db, guildId: string): Promise<number> {
  const [row] = await db`select alarm_ack_timeout_s from guilds where id = ${guildId}`;
  return (row?.alarm_ack_timeout_s as number | undefined) ?? 60;
}

/**
 * The sheet's assigned units as a JSON array (a correlated subquery on `i`). `unacknowledged` is
 * computed here, at read time, against the guild's alarmAckTimeoutS: no timer has to flip it.
 */
export function unitsOf(db: Db) {
  return db`coalesce((
    select json_agg(json_build_object('callsign', u.callsign, 'label', u.label, 'assignedAt', iu.assigned_at,
      'alarmedAt', iu.alarmed_at, 'acknowledgedAt', iu.acknowledged_at,
      'unacknowledged', iu.alarmed_at is not null and iu.acknowledged_at is null
        and iu.alarmed_at + make_interval(secs => (select g.alarm_ack_timeout_s from guilds g where g.id = i.guild_id)) < statement_timestamp())
      order by iu.assigned_at, u.callsign)
    from incident_units iu join units u on u.guild_id = iu.guild_id and u.id = iu.unit_id
    where iu.guild_id = i.guild_id and iu.number = i.number), '[]'::json)`;
}

export function toIncident(r: Record<string, any>): IncidentOut {
  return {
    number: r.number,
    keyword: r.keyword,
    location: r.location ?? null,
    priority: r.priority,
    state: r.state,
    version: r.version,
    call: r.call_id_text ? { id: r.call_id_text, externalId: r.call_external_id } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    closedAt: r.closed_at ?? null,
    createdBy: { kind: r.created_by_kind, id: r.created_by_id, name: r.created_by_name ?? null },
    units: (r.units as { callsign: string; label: string; assignedAt: string; alarmedAt: string | null; acknowledgedAt: string | null; unacknowledged: boolean }[]).map((u) => ({
      callsign: u.callsign, label: u.label, assignedAt: new Date(u.assignedAt),
      alarmedAt: u.alarmedAt ? new Date(u.alarmedAt) : null, acknowledgedAt: u.acknowledgedAt ? new Date(u.acknowledgedAt) : null, unacknowledged: u.unacknowledged,
    })),
  };
}

function toEntry(r: Record<string, any>): EntryOut {
  return {
    id: r.entry_id, number: r.number, kind: r.kind, text: r.text, at: r.at,
    by: { kind: r.by_kind, id: r.by_id, name: r.by_name ?? null },
  };
}
