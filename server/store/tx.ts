import type postgres from 'postgres';
import { TransactionRolledBack, type Database, type Sql } from './db.ts';
import type { Bus } from '../hub/bus.ts';
import { eventOf } from './outbox.ts';
import type { GuildEvent, Op, Topic } from '../../contract/topics.ts';

/** Who did it, for the audit log. */
export interface Actor { kind: 'session' | 'key' | 'system'; id: string }

export interface Tx {
  /** The transaction's connection: store functions run their queries on it. */
  sql: Sql;
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

interface AuditRow { kind: string; id: string; action: string; data: object }

/**
 * Runs `fn` in one transaction of guild `guildId`. Its event (all topic deltas of the transaction,
 * with the guild stream's next seq taken under the stream's row lock, so committed seqs are
 * contiguous and in commit order: store/outbox.ts) and its audit rows are written by one statement
 * just before COMMIT. The event goes to the bus only after COMMIT succeeded.
 *
 * Round trips are pipelined on the transaction's connection: BEGIN travels with the first
 * statement, and COMMIT with the outbox statement, so the stream lock is held for the commit itself
 * and no extra round trip.
 *
 * Connection loss: the caller gets the failure (a CONNECTION_CLOSED or similar, which the doors
 * answer with 503), never a success for a transaction whose COMMIT did not come back; nothing of it
 * runs on another connection (`Database.begin`).
 */
export async function inGuildTx<T>(db: Database, bus: Bus, guildId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const ops = new Map<Topic, Op[]>();
  const audits: AuditRow[] = [];
  const sent: Promise<unknown>[] = []; // writes sent but not awaited, then the outbox statement: in the order they went out
  let outbox: Promise<GuildEvent | null> | null = null;
  let value: T;
  try {
    value = await db.begin(async (sql) => {
      const result = await fn({
        sql,
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
          write.catch(() => {}); // awaited when the transaction fails, to tell why
          sent.push(write);
        },
      });
      if (ops.size > 0 || audits.length > 0) {
        outbox = writeOutbox(sql, guildId, ops, audits); // sent now: it travels with COMMIT
        outbox.catch(() => {});
        sent.push(outbox);
      }
      return result;
    });
  } catch (err) {
    // COMMIT answered ROLLBACK: the earliest write that failed is the reason (awaited in order;
    // Promise.all would report whichever failure settled first).
    if (err instanceof TransactionRolledBack) for (const write of sent) await write;
    throw err;
  }
  const event = outbox ? await (outbox as Promise<GuildEvent | null>) : null;
  if (event) bus.publish([event]);
  return value;
}

/** PostgreSQL's `json` type: the deltas are stored as sent, without a round through `jsonb`. */
const JSON_OID = 114;

/** The event (when any topic changed) and all audit rows of an `inGuildTx`, in one statement. */
async function writeOutbox(sql: Sql, guildId: string, ops: Map<Topic, Op[]>, audits: AuditRow[]): Promise<GuildEvent | null> {
  const deltas = Object.fromEntries(ops) as GuildEvent['deltas'];
  const [row] = await sql`
    with stream as (
      update event_streams set seq = seq + 1
      where guild_id = ${guildId} and ${ops.size > 0}
      returning epoch, seq
    ), written as (
      insert into events (guild_id, seq, topics, deltas)
      select ${guildId}, stream.seq, ${[...ops.keys()].sort()}::text[], ${sql.typed(deltas, JSON_OID)} from stream
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, a.kind, a.id, a.action, a.data
      from jsonb_to_recordset(${sql.json(audits as unknown as postgres.JSONValue)}) as a(kind text, id text, action text, data jsonb)
    )
    select stream.epoch, stream.seq::float8 as seq, (extract(epoch from now()) * 1000)::float8 as at
    from (select 1) one left join stream on true`;
  return eventOf(guildId, row as never, deltas); // the bus gets the ops as emitted, not their JSON round trip
}
