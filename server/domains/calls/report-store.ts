import { TransactionRolledBack, type Database, type Sql } from '../../store/db.ts';
import { eventOf } from '../../store/outbox.ts';
import type { Actor } from '../../store/tx.ts';
import type { GuildEvent } from '../../../contract/topics.ts';
import { callTriageLimits } from '../../../contract/call-triage.ts';
import { callOfJson, callReportedDeltas, readCallReported, type CallReportedFacts } from './events.ts';
import { lockCallReports, reReport, type CallReport } from './store.ts';

/** PostgreSQL's `json` type: deltas stored as sent (store/tx.ts does the same). */
const JSON_OID = 114;

/**
 * BEGIN, the guild's call lock (store.lockCallReports), `statement` and COMMIT, sent without
 * waiting in between: one transaction, and COMMIT leaves as soon as BEGIN is answered, before the
 * statement is. The statement starts once the lock is granted, so its snapshot sees every report,
 * take and resolve that held the lock before it: what the transaction's way reads statement by
 * statement, it reads at once. A statement that fails rolls the transaction back and is the error.
 */
export async function underCallLock<T>(db: Database, guildId: string, statement: (sql: Sql) => Promise<T>): Promise<T> {
  let locked!: Promise<void>;
  let answer!: Promise<T>;
  try {
    await db.begin(async (sql) => {
      locked = lockCallReports(sql, guildId);
      answer = statement(sql);
      locked.catch(() => {});
      answer.catch(() => {});
    });
  } catch (err) {
    if (err instanceof TransactionRolledBack) {
      await locked;
      await answer;
    }
    throw err;
  }
  return answer;
}

/**
 * A report of `r.externalId` in one statement: it opens a call, or updates the open call of that id
 * and counts the report (the partial unique index decides), with the event (its facts, events.ts).
 * Writes nothing when the newest call of the id was dismissed less than the hold ago (`held`, with
 * that call), when it is taken (`taken`: the transaction's way adds the report to its sheet, or opens
 * a new call when the sheet is closed), or when `cap` calls are open and this would be a new one.
 * `now`: the server's clock, which the hold is measured against, as the transaction's way does.
 */
export async function reportCallNow(sql: Sql, guildId: string, r: CallReport, cap: number, now: Date) {
  const json = (v: unknown) => (v === undefined || v === null ? null : sql.json(v as never));
  const [row] = await sql`
    with last as (
      select *, id::text as call_id from calls where guild_id = ${guildId} and external_id = ${r.externalId}
      order by id desc limit 1
    ), verdict as (
      select coalesce(l.status = 'dismissed'
          and date_trunc('milliseconds', l.dismissed_at) + ${callTriageLimits.dismissHoldMs}::int * interval '1 millisecond' > ${now}::timestamptz, false) as held,
        coalesce(l.status = 'taken', false) as taken
      from (select 1) one left join last l on true
    ), open_now as (
      select count(*) as n, coalesce(bool_or(external_id = ${r.externalId}), false) as has_id
      from calls where guild_id = ${guildId} and status = 'open'
    ), upserted as (
      insert into calls as c (guild_id, external_id, kind, priority, title, message, location, caller, source)
      select ${guildId}, ${r.externalId}, coalesce(${r.kind}::text, 'notruf'), coalesce(${r.priority}::smallint, 2),
        ${r.title}, ${r.message}::text, ${json(r.location)}::jsonb, ${json(r.caller)}::jsonb, ${r.source}::text
      from open_now, verdict v where not v.held and not v.taken and (open_now.has_id or open_now.n < ${cap})
      on conflict (guild_id, external_id) where status = 'open' do update set ${reReport(sql, r)}
      returning c.*, c.id::text as call_id, (c.xmax = 0) as inserted
    ), stream as (
      update event_streams s set seq = s.seq + 1 from upserted
      where s.guild_id = ${guildId}
      returning s.epoch, s.seq
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, case when u.inserted then '{calls,overview}'::text[] else '{calls}'::text[] end,
        json_build_object('v', 1, 'kind', 'callReported', 'inserted', u.inserted, 'call', to_json(u))
      from stream, upserted u
      returning deltas
    )
    select v.held, v.taken, case when written.deltas is null then (select to_json(l) from last l) end as last,
      stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at, written.deltas as facts
    from verdict v left join stream on true left join written on true`;
  const last = row.last ? callOfJson(row.last as Record<string, unknown>) : null;
  if (!row.facts) return { held: row.held as boolean, taken: row.taken as boolean, last, reported: null, event: null };
  const reported = readCallReported(row.facts as CallReportedFacts);
  return { held: false, taken: false, last: null, reported: reported.call, event: eventOf(guildId, row as never, callReportedDeltas(reported)) };
}

/**
 * The game resolves the newest call of `externalId` in one statement, when it is open: the call
 * leaves `calls` and the open-call count, with the audit row. Any other call is answered as found
 * (`last`; null: none) and nothing is written: the service decides (a taken call takes the
 * transaction's way, which adds the resolution to its open sheet).
 */
export async function resolveOpenCallNow(sql: Sql, guildId: string, externalId: string, resolution: string, actor: Actor) {
  const deltas: GuildEvent['deltas'] = { calls: [{ op: 'remove', key: externalId }], overview: [{ op: 'add', field: 'openCalls', by: -1 }] };
  const [row] = await sql`
    with last as (
      select *, id::text as call_id from calls where guild_id = ${guildId} and external_id = ${externalId}
      order by id desc limit 1
    ), resolved as (
      update calls c set status = 'resolved', resolution = ${resolution}, resolved_at = now(), updated_at = now()
      from last where c.guild_id = ${guildId} and c.id = last.id and last.status = 'open'
      returning c.*, c.id::text as call_id
    ), stream as (
      update event_streams s set seq = s.seq + 1 from resolved
      where s.guild_id = ${guildId}
      returning s.epoch, s.seq
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, '{calls,overview}'::text[], ${sql.typed(deltas as never, JSON_OID)} from stream
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, ${actor.kind}, ${actor.id}, 'calls.resolve', jsonb_strip_nulls(jsonb_build_object(
        'externalId', ${externalId}::text, 'callId', call_id, 'resolution', ${resolution}::text, 'incidentNumber', incident_number))
      from resolved
    )
    select case when stream.seq is null then (select to_json(l) from last l) end as last, (select to_json(r) from resolved r) as resolved,
      stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at
    from (select 1) one left join stream on true`;
  const last = row.last ? callOfJson(row.last as Record<string, unknown>) : null;
  if (!row.resolved) return { last, resolved: null, event: null };
  return { last, resolved: callOfJson(row.resolved as Record<string, unknown>), event: eventOf(guildId, row as never, deltas) };
}
