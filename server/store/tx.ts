import type postgres from 'postgres';
import type { Sql } from './db.ts';
import type { Bus } from '../hub/bus.ts';
import type { Op, StreamEvent, Topic } from '../hub/topics.ts';
import { randomEpoch } from '../core/ids.ts';

/** Who did it, for the audit log. */
export interface Actor { kind: 'session' | 'key' | 'system'; id: string }

export interface Tx {
  sql: postgres.TransactionSql<{}>;
  guildId: string;
  /** Adds a change to `topic`'s delta; all ops of one topic become one event at commit. */
  emit(topic: Topic, op: Op): void;
  audit(action: string, actor: Actor, data?: object): void;
}

/**
 * Runs `fn` in one transaction of guild `guildId`. Its events (one per touched topic, with the
 * stream's next seq taken under the stream's row lock, so committed seqs are contiguous) and
 * audit rows are written by one statement just before COMMIT. Events go to the bus only after
 * COMMIT succeeded.
 */
export async function inGuildTx<T>(sql: Sql, bus: Bus, guildId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const ops = new Map<Topic, Op[]>();
  const audits: { kind: string; id: string; action: string; data: object }[] = [];
  let committed: StreamEvent[] = [];
  const result = await sql.begin(async (txSql) => {
    const tx: Tx = {
      sql: txSql,
      guildId,
      emit(topic, op) {
        const list = ops.get(topic);
        if (list) list.push(op);
        else ops.set(topic, [op]);
      },
      audit(action, actor, data = {}) {
        audits.push({ kind: actor.kind, id: actor.id, action, data });
      },
    };
    const value = await fn(tx);
    if (ops.size > 0 || audits.length > 0) committed = await writeOutbox(txSql, guildId, ops, audits);
    return value;
  });
  if (committed.length > 0) bus.publish(committed);
  return result as T;
}

async function writeOutbox(
  sql: postgres.TransactionSql<{}>,
  guildId: string,
  ops: Map<Topic, Op[]>,
  audits: { kind: string; id: string; action: string; data: object }[],
): Promise<StreamEvent[]> {
  // Streams are locked in topic order so two transactions never wait on each other crosswise.
  const items = [...ops].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([topic, list]) => ({ topic, payload: { ops: list } }));
  const rows = await sql`
    with items as (
      select * from jsonb_to_recordset(${sql.json(items as never)}) as i(topic text, payload jsonb)
    ), streams as (
      insert into event_streams as s (guild_id, topic, epoch, seq)
      select ${guildId}, topic, ${randomEpoch()}, 1 from items order by topic
      on conflict (guild_id, topic) do update set seq = s.seq + 1
      returning topic, epoch, seq
    ), written as (
      insert into events (guild_id, topic, seq, payload)
      select ${guildId}, streams.topic, streams.seq, items.payload from streams join items using (topic)
      returning topic
    ), audited as (
      insert into audit_log (guild_id, actor_kind, actor_id, action, data)
      select ${guildId}, a.kind, a.id, a.action, a.data
      from jsonb_to_recordset(${sql.json(audits as never)}) as a(kind text, id text, action text, data jsonb)
      returning id
    )
    select streams.topic, streams.epoch, streams.seq::int as seq,
      (extract(epoch from now()) * 1000)::float8 as at,
      (select count(*) from written)::int as written, (select count(*) from audited)::int as audited
    from streams order by streams.topic`;
  return rows.map((r) => ({
    guildId,
    topic: r.topic as Topic,
    epoch: r.epoch as string,
    seq: r.seq as number,
    at: Math.round(r.at as number),
    ops: ops.get(r.topic as Topic)!,
  }));
}
