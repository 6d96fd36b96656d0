import { AppError } from '../core/errors.ts';
import type { Database, Sql } from '../store/db.ts';
import { decodeDeltas } from '../store/event-codec.ts';
import type { TopicState } from '../../contract/reducers.ts';
import { overviewCounters, type HotTopic } from '../../contract/topics.ts';
import { loadCalls, loadDispatchers, loadOnDuty, loadStandby, loadUnits } from './state/loaders.ts';

export interface GuildSnapshot {
  epoch: string;
  seq: number;
  states: Record<HotTopic, TopicState>;
}

/**
 * Loads every hot topic of a guild and the stream position they correspond to, from one
 * REPEATABLE READ snapshot: the state is exactly the result of events 1..seq.
 */
export async function loadGuildSnapshot(db: Database, guildId: string): Promise<GuildSnapshot> {
  return db.begin(async (tx) => {
    const [stream] = await tx`select epoch, seq::float8 as seq from event_streams where guild_id = ${guildId}`;
    if (!stream) throw new AppError('NOT_FOUND', `guild ${guildId} does not exist`); // every guild has its stream (sql/0006)
    const [onDuty, dispatchers, units, standby, calls] = await Promise.all([
      loadOnDuty(tx, guildId), loadDispatchers(tx, guildId), loadUnits(tx, guildId), loadStandby(tx, guildId), loadCalls(tx, guildId),
    ]);
    const states = { onDuty, dispatchers, units: units.units, alarm: units.alarm, standby, calls, overview: {} } as Record<HotTopic, TopicState>;
    for (const [counter, topic] of Object.entries(overviewCounters)) states.overview[counter] = Object.keys(states[topic]).length;
    return { epoch: stream.epoch as string, seq: stream.seq as number, states };
  }, 'isolation level repeatable read read only');
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
