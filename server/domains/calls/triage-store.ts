import type { Db } from '../../store/db.ts';
import { toCall, type ActorName } from './store.ts';

/** SQL of call triage (triage.ts): dismissing an open call, attaching it to a sheet, a sheet's calls. */

/** Marks the open call dismissed with who, when and why; null when no call with that id is open (any more). */
export async function dismissOpenCall(db: Db, guildId: string, externalId: string, reason: string, by: ActorName) {
  const [row] = await db`
    update calls set status = 'dismissed', dismissed_at = now(), updated_at = now(), dismiss_reason = ${reason},
      dismissed_by_kind = ${by.kind}, dismissed_by_id = ${by.id}, dismissed_by_name = ${by.name}
    where guild_id = ${guildId} and external_id = ${externalId} and status = 'open'
    returning *, id::text as call_id`;
  return row ? toCall(row) : null;
}

/**
 * Attaches the open call to sheet `number`: it becomes taken (by whom and when, like a take) with
 * the sheet as its incidentNumber and attached_at set; null when no call with that id is open.
 */
export async function attachOpenCall(db: Db, guildId: string, externalId: string, number: number, by: ActorName) {
  // clock_timestamp, not now(): calls attached in one transaction (a merge) keep the order they were attached in.
  const [row] = await db`
    with t as (select clock_timestamp() as at)
    update calls set status = 'taken', taken_at = t.at, attached_at = t.at, updated_at = t.at, incident_number = ${number},
      taken_by_kind = ${by.kind}, taken_by_id = ${by.id}, taken_by_name = ${by.name}
    from t where guild_id = ${guildId} and external_id = ${externalId} and status = 'open'
    returning calls.*, calls.id::text as call_id`;
  return row ? toCall(row) : null;
}

/** The calls of sheet `number`: the one it was made of, then those attached, in the order they were attached. */
export async function callsOfSheet(db: Db, guildId: string, number: number) {
  const rows = await db`
    select *, id::text as call_id from calls where guild_id = ${guildId} and incident_number = ${number}
    order by attached_at is not null, attached_at, id`;
  return rows.map(toCall);
}

export async function sheetExists(db: Db, guildId: string, number: number): Promise<boolean> {
  const rows = await db`select 1 from incidents where guild_id = ${guildId} and number = ${number}`;
  return rows.length > 0;
}
