import type postgres from 'postgres';
import type { GuildEvent } from '../hub/topics.ts';

/**
 * The parts of a change's event, as SQL text for a `statement` (built once, `$n` parameters).
 * Every expression may use the columns of `from`.
 */
export interface OutboxParts {
  /** The guild id, e.g. `$1`. */
  guild: string;
  /** A from-list of at most one row: the change happened. No row: no event, no audit row. */
  from: string;
  /** Columns of `from` the later CTEs need, passed on through `stream` (e.g. `opened.clock_in_at`). */
  carry?: string;
  /** A `text[]` expression: every topic the event updates (sorted; see `identifierArray`). */
  topics: string;
  /**
   * A json expression over `stream` and `deltasFrom`: the deltas (`{ topic: [op, ...] }`, ops as in
   * hub/reducers.ts) or the facts they are derived from (see event-codec.ts). Stored as built.
   */
  deltas: string;
  /** More from-items for `deltas`, each of at most one row (CTEs of the statement). */
  deltasFrom?: string;
  /** An audit row written with the event (select-list expressions over `from`), or none. */
  audit?: { action: string; actorKind: string; actorId: string; data: string } | null;
}

/**
 * CTEs that write a change's event (and audit row) in the statement that makes the change. A write
 * that fits in one statement (clock-in/out, deltas built in SQL) runs it without BEGIN/COMMIT: one
 * round trip, with the guarantees of `inGuildTx` — rows, event and audit commit together or not at
 * all. `inGuildTx` ends its transaction with it too (deltas as a JSON parameter).
 *
 * The guild stream's next seq is taken under its row lock, held until commit, so committed seqs are
 * contiguous and in commit order. Every guild has its stream row from creation on (sql/0006), so
 * this is a plain UPDATE. `stream` returns `epoch`, `seq` and the carried columns; `written` the
 * stored `deltas` (see `eventColumns`).
 */
export function outboxCtes(e: OutboxParts): string {
  const audit = e.audit
    ? `, audited as (
        insert into audit_log (guild_id, actor_kind, actor_id, action, data)
        select ${e.guild}, ${e.audit.actorKind}, ${e.audit.actorId}, ${e.audit.action}, ${e.audit.data} from ${e.from}
      )`
    : '';
  return `stream as (
      update event_streams s set seq = s.seq + 1 from ${e.from}
      where s.guild_id = ${e.guild}
      returning s.epoch, s.seq${e.carry ? `, ${e.carry}` : ''}
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${e.guild}, stream.seq, ${e.topics}, ${e.deltas} from stream${e.deltasFrom ? `, ${e.deltasFrom}` : ''}
      returning deltas
    )${audit}`;
}

/** The event's columns, from `stream` and `written`; without its deltas when the caller has them already (`inGuildTx`: the ops it emitted). */
export const eventColumns = (withDeltas = true) => `stream.epoch as event_epoch, stream.seq::float8 as event_seq,
  ${withDeltas ? 'written.deltas as event_deltas,' : ''} (extract(epoch from now()) * 1000)::float8 as event_at`;

/** The committed event of a statement built with `outboxCtes`; null when it changed nothing. */
export function eventOf(guildId: string, row: postgres.Row, deltas: GuildEvent['deltas']): GuildEvent | null {
  if (row.event_seq === null || row.event_seq === undefined) return null;
  return { guildId, epoch: row.event_epoch, seq: row.event_seq, at: Math.round(row.event_at), deltas };
}
