import type postgres from 'postgres';
import type { Db } from '../../store/db.ts';
import type { CallOut } from './schema.ts';

/** Advisory-lock class of the per-guild call-report lock (the objid is the guild id's hash). */
const CALL_REPORT_LOCK = 724_003;

export interface ActorName { kind: 'session' | 'key' | 'system'; id: string; name: string | null }

export interface CallReport {
  externalId: string;
  kind: string | null;
  priority: number | null;
  title: string;
  message: string | null;
  location: unknown;
  caller: unknown;
  source: string | null;
}

/** A jsonb parameter; SQL null (not JSON null) for a missing value. */
const json = (db: Db, v: unknown) => (v === undefined || v === null ? null : db.json(v as postgres.JSONValue));

/**
 * Serialises the guild's call reports, takes and resolves until the transaction ends: the open-calls
 * count a report reads (next statement, fresh snapshot) cannot be raced past the cap, and the state
 * of a call read under the lock stays as read until the transaction writes it.
 */
export async function lockCallReports(db: Db, guildId: string): Promise<void> {
  await db`select pg_advisory_xact_lock(${CALL_REPORT_LOCK}, hashtext(${guildId}))`;
}

/** SET list of a repeated report of call `c`: fields sent replace, fields left out (null) keep theirs; the report is counted. */
export function reReport(db: Db, r: CallReport) {
  return db`
      kind = coalesce(${r.kind}::text, c.kind),
      priority = coalesce(${r.priority}::smallint, c.priority),
      title = ${r.title}::text,
      message = coalesce(${r.message}::text, c.message),
      location = coalesce(${json(db, r.location)}::jsonb, c.location),
      caller = coalesce(${json(db, r.caller)}::jsonb, c.caller),
      source = coalesce(${r.source}::text, c.source),
      report_count = c.report_count + 1,
      updated_at = now()`;
}

/**
 * Opens a call, or updates the open call with the same external id and counts the report (the
 * partial unique index decides). Fields left out (null) keep their stored value on an update.
 * Null when the call would be new and `cap` calls are open already.
 */
export async function upsertOpenCall(db: Db, guildId: string, r: CallReport, cap: number) {
  const [row] = await db`
    with open_now as (
      select count(*) as n, coalesce(bool_or(external_id = ${r.externalId}), false) as has_id
      from calls where guild_id = ${guildId} and status = 'open'
    )
    insert into calls as c (guild_id, external_id, kind, priority, title, message, location, caller, source)
    select ${guildId}, ${r.externalId}, coalesce(${r.kind}::text, 'notruf'), coalesce(${r.priority}::smallint, 2),
      ${r.title}, ${r.message}::text, ${json(db, r.location)}::jsonb, ${json(db, r.caller)}::jsonb, ${r.source}::text
    from open_now where open_now.has_id or open_now.n < ${cap}
    on conflict (guild_id, external_id) where status = 'open' do update set ${reReport(db, r)}
    returning c.*, c.id::text as call_id, (c.xmax = 0) as inserted`;
  return row ? { call: toCall(row), inserted: row.inserted as boolean } : null;
}

/** A report of a taken call's external id while its sheet is open: updated like an open call, and counted. */
export async function reReportTakenCall(db: Db, guildId: string, callId: string, r: CallReport) {
  const [row] = await db`
    update calls as c set ${reReport(db, r)}
    where c.guild_id = ${guildId} and c.id = ${callId}::bigint and c.status = 'taken'
    returning c.*, c.id::text as call_id`;
  return row ? toCall(row) : null;
}

/** The game resolved call `callId` (open or taken; who took it and its sheet stay); null when it was neither. */
export async function resolveCall(db: Db, guildId: string, callId: string, resolution: string) {
  const [row] = await db`
    update calls set status = 'resolved', resolution = ${resolution}, resolved_at = now(), updated_at = now()
    where guild_id = ${guildId} and id = ${callId}::bigint and status in ('open', 'taken')
    returning *, id::text as call_id`;
  return row ? toCall(row) : null;
}

/** Marks the open call taken; null when no call with that id is open (any more). */
export async function takeOpenCall(db: Db, guildId: string, externalId: string, by: ActorName) {
  const [row] = await db`
    update calls set status = 'taken', taken_at = now(), updated_at = now(),
      taken_by_kind = ${by.kind}, taken_by_id = ${by.id}, taken_by_name = ${by.name}
    where guild_id = ${guildId} and external_id = ${externalId} and status = 'open'
    returning *, id::text as call_id`;
  return row ? toCall(row) : null;
}

export async function linkCallIncident(db: Db, guildId: string, callId: string, incidentNumber: number): Promise<void> {
  await db`update calls set incident_number = ${incidentNumber} where guild_id = ${guildId} and id = ${callId}::bigint`;
}

/**
 * The newest call with this external id in any state: the one a report, a resolve or a take of the id
 * is about. Newest by id: calls are inserted under the guild's call lock, so ids follow commit order
 * (`created_at`, the transaction's start, need not).
 */
export async function latestCall(db: Db, guildId: string, externalId: string) {
  const [row] = await db`
    select *, id::text as call_id from calls where guild_id = ${guildId} and external_id = ${externalId}
    order by id desc limit 1`;
  return row ? toCall(row) : null;
}

/** Open calls, most urgent first, then oldest first. */
export async function openCalls(db: Db, guildId: string) {
  const rows = await db`
    select *, id::text as call_id from calls where guild_id = ${guildId} and status = 'open'
    order by priority, created_at, id`;
  return rows.map(toCall);
}

/**
 * Whether the person is on duty, their open shift share-locked until the transaction ends: a
 * clock-out in flight is waited for and seen, a later one waits for this transaction.
 */
export async function lockOpenShift(db: Db, guildId: string, userId: string): Promise<boolean> {
  const rows = await db`select id from shifts where guild_id = ${guildId} and user_id = ${userId} and clock_out_at is null for share`;
  return rows.length > 0;
}

export async function callRateLimit(db: Db, guildId: string) {
  const [row] = await db`select per_minute, burst from guild_call_limits where guild_id = ${guildId}`;
  return row ? { perMinute: row.per_minute as number, burst: row.burst as number } : null;
}

export async function setCallRateLimit(db: Db, guildId: string, limit: { perMinute: number; burst: number }): Promise<void> {
  await db`insert into guild_call_limits (guild_id, per_minute, burst) values (${guildId}, ${limit.perMinute}, ${limit.burst})
    on conflict (guild_id) do update set per_minute = excluded.per_minute, burst = excluded.burst, updated_at = now()`;
}

export function toCall(r: Record<string, any>): CallOut {
  return {
    id: r.call_id as string,
    externalId: r.external_id,
    status: r.status,
    kind: r.kind,
    priority: r.priority,
    title: r.title,
    message: r.message ?? null,
    location: r.location ?? null,
    caller: r.caller ?? null,
    source: r.source ?? null,
    reportCount: r.report_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    takenAt: r.taken_at ?? null,
    takenBy: r.taken_by_kind ? { kind: r.taken_by_kind, id: r.taken_by_id, name: r.taken_by_name ?? null } : null,
    incidentNumber: r.incident_number ?? null,
    attachedAt: r.attached_at ?? null,
    resolvedAt: r.resolved_at ?? null,
    resolution: r.resolution ?? null,
    dismissedAt: r.dismissed_at ?? null,
    dismissedBy: r.dismissed_by_kind ? { kind: r.dismissed_by_kind, id: r.dismissed_by_id, name: r.dismissed_by_name ?? null } : null,
    dismissReason: r.dismiss_reason ?? null,
  };
}

/** A call as the `calls` topic holds it: the API object with times as epoch ms. */
export function liveCall(c: CallOut) {
  return {
    ...c,
    createdAt: c.createdAt.getTime(),
    updatedAt: c.updatedAt.getTime(),
    takenAt: c.takenAt?.getTime() ?? null,
    attachedAt: c.attachedAt?.getTime() ?? null,
    resolvedAt: c.resolvedAt?.getTime() ?? null,
    dismissedAt: c.dismissedAt?.getTime() ?? null,
  };
}
