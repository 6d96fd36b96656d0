import { AppError } from '../core/errors.ts';
import type { Database, Sql } from '../store/db.ts';
import { decodeDeltas } from '../store/event-codec.ts';
import type { TopicState } from '../../contract/reducers.ts';
import { overviewCounters, type GuildEvent, type HotTopic } from '../../contract/topics.ts';
import { loadCalls, loadDispatchers, loadOnDuty, loadStandby, loadUnits } from './state/loaders.ts';

export interface GuildSnapshot {
  epoch: string;
  seq: number;
  states: Record<HotTopic, TopicState>;
  /** The newest events up to `seq`, oldest first: a contiguous run ending at `seq` (empty when none is asked for). */
  recent: GuildEvent[];
}

/**
 * Loads every hot topic of a guild and the stream position they correspond to, from one
 * REPEATABLE READ snapshot: the state is exactly the result of events 1..seq. With `recentEvents`,
 * also the newest that many events up to seq from the same snapshot, so a freshly started node can
 * resume clients that were with the node before it (a restart) from the log instead of a snapshot.
 */
export async function loadGuildSnapshot(db: Database, guildId: string, recentEvents = 0): Promise<GuildSnapshot> {
  return db.begin(async (tx) => {
    const [stream] = await tx`select epoch, seq::float8 as seq from event_streams where guild_id = ${guildId}`;
    if (!stream) throw new AppError('NOT_FOUND', `guild ${guildId} does not exist`); // every guild has its stream (sql/0006)
    const [onDuty, dispatchers, units, standby, calls] = await Promise.all([
      loadOnDuty(tx, guildId), loadDispatchers(tx, guildId), loadUnits(tx, guildId), loadStandby(tx, guildId), loadCalls(tx, guildId),
    ]);
    const states = { onDuty, dispatchers, units: units.units, alarm: units.alarm, standby, calls, overview: {} } as Record<HotTopic, TopicState>;
    for (const [counter, topic] of Object.entries(overviewCounters)) states.overview[counter] = Object.keys(states[topic]).length;
    const epoch = stream.epoch as string;
    const seq = stream.seq as number;
    const rows = recentEvents > 0 ? await tx`select seq::float8 as seq, deltas, (extract(epoch from created_at) * 1000)::float8 as at
      from events where guild_id = ${guildId} and seq <= ${seq} and seq > ${seq - recentEvents} order by seq` : [];
    const recent = contiguousUpTo(rows.map((r) => ({ guildId, epoch, seq: r.seq as number, at: Math.round(r.at as number), deltas: decodeDeltas(r.deltas) })), seq);
    return { epoch, seq, states, recent };
  }, 'isolation level repeatable read read only');
}

/** The run of `events` (ascending seq) that ends at `head` without a hole; a resume needs every event after its position. */
function contiguousUpTo(events: GuildEvent[], head: number): GuildEvent[] {
  let from = events.length;
  while (from > 0 && events[from - 1].seq === head - (events.length - from)) from--;
  return events.slice(from);
}

/** Committed events after `afterSeq`, in order (gap repair and catch-up). */
export async function eventsAfter(sql: Sql, guildId: string, afterSeq: number, limit = 10_000) {
  const rows = await sql`select seq::float8 as seq, deltas, (extract(epoch from created_at) * 1000)::float8 as at
    from events where guild_id = ${guildId} and seq > ${afterSeq} order by seq limit ${limit}`;
  return rows.map((r) => ({ seq: r.seq as number, deltas: decodeDeltas(r.deltas), at: Math.round(r.at as number) }));
}

/** Current stream heads of several guilds (periodic position check). */
export async function streamHeads(sql: Sql, guildIds: string[]): Promise<Map<string, { epoch: string; seq: number }>> {
  const rows = await sql`select guild_id, epoch, seq::float8 as seq from event_streams where guild_id = any(${guildIds})`;
  return new Map(rows.map((r) => [r.guild_id as string, { epoch: r.epoch as string, seq: r.seq as number }]));
}
