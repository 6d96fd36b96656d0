import type { GuildEvent } from '../../contract/topics.ts';

/**
 * The event log. Every change writes its event row in the transaction (or the statement) that makes
 * the change, so rows, event and audit row commit together or not at all:
 *
 *   stream as (update event_streams set seq = seq + 1 where guild_id = … returning epoch, seq),
 *   written as (insert into events (guild_id, seq, topics, deltas) select …, stream.seq, … from stream)
 *
 * The guild stream's next seq is taken under its row lock, held until commit, so committed seqs are
 * contiguous and in commit order. Every guild has its stream row from creation on (sql/0006), so
 * this is a plain UPDATE. `inGuildTx` (tx.ts) writes it just before COMMIT; the clock statements
 * (domains/timeclock/store.ts) write it in the one statement that makes the change.
 *
 * Such a statement returns, when it wrote an event, its `epoch`, `seq` (float8) and `at` (epoch
 * ms, float8: `(extract(epoch from now()) * 1000)::float8`).
 */
export interface EventColumns {
  epoch: unknown;
  seq: unknown;
  at: unknown;
}

/** The committed event whose columns `row` holds; null when the statement wrote none. */
export function eventOf(guildId: string, row: EventColumns | undefined, deltas: GuildEvent['deltas']): GuildEvent | null {
  if (!row || row.seq === null || row.seq === undefined) return null;
  return { guildId, epoch: row.epoch as string, seq: row.seq as number, at: Math.round(row.at as number), deltas };
}
