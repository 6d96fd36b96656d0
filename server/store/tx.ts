import type postgres from 'postgres';
import type { Sql } from './db.ts';
import type { Bus } from '../hub/bus.ts';
import { eventColumns, eventOf, outboxCtes } from './outbox.ts';
import { statement } from './statement.ts';
import { reserveWarm } from './warm.ts';
import type { GuildEvent, Op, Topic } from '../hub/topics.ts';

/** Who did it, for the audit log. */
export interface Actor { kind: 'session' | 'key' | 'system'; id: string }

export interface Tx {
  /** The transaction's connection: store functions run their queries on it. */
  sql: postgres.ReservedSql<{}>;
  guildId: string;
  /** Adds a change to `topic`'s delta; all ops of one topic become one event at commit. */
  emit(topic: Topic, op: Op): void;
  audit(action: string, actor: Actor, data?: object): void;
  /**
   * A write sent on `sql` but not awaited, so it travels with the next statements and COMMIT (one
   * round trip less). If it fails, the transaction rolls back and the caller gets its error.
   */
  defer(write: Promise<unknown>): void;
}

/**
 * Runs `fn` in one transaction of guild `guildId`. Its event (all topic deltas of the transaction,
 * with the guild stream's next seq taken under the stream's row lock, so committed seqs are
 * contiguous and in commit order) and its audit rows are written by one statement just before
 * COMMIT. The event goes to the bus only after COMMIT succeeded.
 *
 * Round trips are pipelined on one reserved connection: BEGIN travels with the first statement,
 * and COMMIT with the outbox statement, so the stream lock is held for the commit itself and no
 * extra round trip.
 *
 * Connection loss: the caller gets the failure (a CONNECTION_CLOSED or similar, which the doors
 * answer with 503), never a success for a transaction whose COMMIT did not come back. Nothing else
 * is sent on a lost connection, and it is not handed back to the pool (reserved.ts).
 */
export async function inGuildTx<T>(sql: Sql, bus: Bus, guildId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const ops = new Map<Topic, Op[]>();
  const deferred: Promise<unknown>[] = [];
  const audits: { kind: string; id: string; action: string; data: object }[] = [];
  const reserved = await reserveWarm(sql, 'begin');
  const conn = reserved.sql;
  let open = true;
  let failure: unknown;
  try {
    const tx: Tx = {
      sql: conn,
      guildId,
      emit(topic, op) {
        const list = ops.get(topic);
        if (list) list.push(op);
        else ops.set(topic, [op]);
      },
      audit(action, actor, data = {}) {
        audits.push({ kind: actor.kind, id: actor.id, action, data });
      },
      defer(write) {
        write.catch(() => {}); // awaited after COMMIT
        deferred.push(write);
      },
    };
    const value = await fn(tx);
    await reserved.first;
    let committed: GuildEvent | null = null;
    if (ops.size > 0 || audits.length > 0) {
      const outbox = writeOutbox(conn, guildId, ops, audits);
      const commit = conn`commit`.execute();
      outbox.catch(() => {}); // awaited below; COMMIT of a failed transaction rolls back
      const done = await commit;
      open = false;
      await committedOrThrow(done, [...deferred, outbox]); // the earliest failure is the reason
      committed = await outbox;
    } else {
      const done = await conn`commit`;
      open = false;
      await committedOrThrow(done, deferred);
    }
    if (committed) bus.publish([committed]);
    return value;
  } catch (err) {
    failure = err;
    if (open) await reserved.rollback(err);
    throw err;
  } finally {
    reserved.release(failure);
  }
}

/**
 * PostgreSQL answers COMMIT of a transaction in which a statement failed with ROLLBACK, not an
 * error. The first failed statement sent before COMMIT is the reason; a ROLLBACK without one still fails.
 */
async function committedOrThrow(commit: { command: string }, sent: Promise<unknown>[]): Promise<void> {
  for (const statement of sent) await statement; // in order (Promise.all would report the first settled of its own jobs)
  if (commit.command === 'ROLLBACK') throw new Error('the transaction was rolled back: one of its statements failed');
}

/** The event (when any topic changed) and all audit rows of an `inGuildTx`; parameters in `writeOutbox`. */
const outboxStatement = statement<[guildId: string, changed: boolean, topics: Topic[], deltas: GuildEvent['deltas'], audits: object[]]>(`
  with ${outboxCtes({ guild: '$1', from: '(select where $2::boolean) changed', topics: '$3::text[]', deltas: '$4::json' })}, audited as (
    insert into audit_log (guild_id, actor_kind, actor_id, action, data)
    select $1, a.kind, a.id, a.action, a.data from jsonb_to_recordset($5::jsonb) as a(kind text, id text, action text, data jsonb)
  )
  select ${eventColumns(false)} from (select 1) one left join stream on true left join written on true`);

async function writeOutbox(
  sql: postgres.ReservedSql<{}>,
  guildId: string,
  ops: Map<Topic, Op[]>,
  audits: { kind: string; id: string; action: string; data: object }[],
): Promise<GuildEvent | null> {
  const deltas = Object.fromEntries(ops) as GuildEvent['deltas'];
  const [row] = await outboxStatement(sql, guildId, ops.size > 0, [...ops.keys()].sort(), deltas, audits);
  return eventOf(guildId, row, deltas); // the bus gets the ops as emitted, not their JSON round trip
}
