import type postgres from 'postgres';
import type { Db } from './db.ts';
import type { Actor } from './tx.ts';
import type { GuildEvent, Topic } from '../hub/topics.ts';

/** A piece of a tagged query, spliced into another with `${...}`. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * The guild stream's next seq, taken under its row lock (held until commit, so committed seqs are
 * contiguous and in commit order), for each row of `from`; an empty `from` takes none.
 */
function nextSeqCte(db: Db, guildId: string, from: Fragment): Fragment {
  return db`stream as (
    insert into event_streams as s (guild_id, epoch, seq)
    select ${guildId}, substr(md5(random()::text), 1, 8), 1 from ${from}
    on conflict (guild_id) do update set seq = s.seq + 1
    returning epoch, seq
  )`;
}

export interface OneStatementEvent {
  /** A from-list of at most one row: the change happened. No row: no event, no audit row. */
  from: Fragment;
  /** Every topic `deltas` has a key for. */
  topics: Topic[];
  /** A jsonb expression over `from`: `{ topic: [op, ...] }`, ops as in hub/reducers.ts. */
  deltas: Fragment;
  /** An audit row written with the event; `data` is a jsonb expression over `from`. */
  audit?: { action: string; actor: Actor; data: Fragment } | null;
}

/**
 * CTEs that write a change's event (and audit row) in the statement that makes the change. A write
 * that fits in one statement (clock-in/out, deltas built in SQL) runs it without BEGIN/COMMIT: one
 * round trip, with the guarantees of `inGuildTx` — rows, event and audit commit together or not at
 * all, seqs contiguous in commit order. `inGuildTx` ends its transaction with it too (deltas as a
 * JSON parameter). The statement selects `outboxColumns` from `outboxJoin`; `eventOf` reads them.
 */
export function outboxCtes(db: Db, guildId: string, e: OneStatementEvent): Fragment {
  const topics = [...e.topics].sort();
  const audited = e.audit
    ? db`, audited as (
        insert into audit_log (guild_id, actor_kind, actor_id, action, data)
        select ${guildId}, ${e.audit.actor.kind}, ${e.audit.actor.id}, ${e.audit.action}, ${e.audit.data} from ${e.from}
      )`
    : db``;
  return db`${nextSeqCte(db, guildId, e.from)}, written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, ${topics}::text[], ${e.deltas} from stream, ${e.from}
      returning deltas
    )${audited}`;
}

/** Joins the event written by `outboxCtes` (none when nothing changed) to the statement's row. */
export const outboxJoin = (db: Db): Fragment => db`left join stream on true left join written on true`;

export const outboxColumns = (db: Db): Fragment => db`stream.epoch as event_epoch, stream.seq::float8 as event_seq,
  written.deltas as event_deltas, (extract(epoch from now()) * 1000)::float8 as event_at`;

/** The committed event of a statement built with `outboxCtes`; null when it changed nothing. */
export function eventOf(guildId: string, row: postgres.Row): GuildEvent | null {
  if (row.event_seq === null || row.event_seq === undefined) return null;
  return { guildId, epoch: row.event_epoch, seq: row.event_seq, at: Math.round(row.event_at), deltas: row.event_deltas };
}
