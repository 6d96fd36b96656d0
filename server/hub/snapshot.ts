import type { Sql } from '../store/db.ts';
import { randomEpoch } from '../core/ids.ts';
import type { TopicState } from './reducers.ts';
import type { HotTopic } from './topics.ts';

/** Status codes that raise an alarm until the status catalogue is editable (FMS 0: Notruf). */
export const DEFAULT_ALARM_STATUSES = ['0'];

export interface GuildSnapshot {
  epoch: string;
  seq: number;
  states: Record<HotTopic, TopicState>;
}

/**
 * Loads every hot topic of a guild and the stream position they correspond to, from one
 * REPEATABLE READ snapshot: the state is exactly the result of events 1..seq.
 * Creates the guild's stream row (seq 0) on first use so its epoch is fixed from then on.
 */
export async function loadGuildSnapshot(sql: Sql, guildId: string): Promise<GuildSnapshot> {
  await sql`insert into event_streams (guild_id, epoch, seq) values (${guildId}, ${randomEpoch()}, 0) on conflict do nothing`;
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const [stream] = await tx`select epoch, seq::float8 as seq from event_streams where guild_id = ${guildId}`;
    const onDuty = await tx`
      select p.user_id, p.nickname, p.badge, r.name as rank, s.clock_in_at from shifts s
      join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
      left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
      where s.guild_id = ${guildId} and s.clock_out_at is null`;
    const slots = await tx`
      select d.slot, d.user_id, p.nickname, d.since from dispatcher_slots d
      join people p on p.guild_id = d.guild_id and p.user_id = d.user_id where d.guild_id = ${guildId}`;
    const units = await tx`
      select u.callsign, u.label, u.org_unit, u.status, u.status_since,
        coalesce(json_agg(json_build_object('id', m.user_id, 'nickname', p.nickname) order by m.since)
          filter (where m.user_id is not null), '[]') as members
      from units u
      left join unit_members m on m.guild_id = u.guild_id and m.unit_id = u.id
      left join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
      where u.guild_id = ${guildId} group by u.guild_id, u.id`;

    const states: Record<HotTopic, TopicState> = { units: {}, alarm: {}, onDuty: {}, dispatchers: {}, standby: {}, overview: {}, calls: {} };
    for (const r of onDuty) {
      states.onDuty[r.user_id] = { userId: r.user_id, nickname: r.nickname, badge: r.badge, rank: r.rank, since: r.clock_in_at.getTime() };
    }
    for (const r of slots) states.dispatchers[String(r.slot)] = { slot: r.slot, userId: r.user_id, nickname: r.nickname, since: r.since.getTime() };
    for (const r of units) {
      const since = r.status_since.getTime();
      states.units[r.callsign] = { callsign: r.callsign, label: r.label, orgUnit: r.org_unit, status: r.status, since, members: r.members };
      if (DEFAULT_ALARM_STATUSES.includes(r.status)) states.alarm[r.callsign] = { callsign: r.callsign, status: r.status, since };
    }
    states.overview = {
      onDuty: onDuty.length,
      dispatchers: slots.length,
      units: units.length,
      alarms: Object.keys(states.alarm).length,
      openCalls: 0,
      standby: 0,
    };
    return { epoch: stream.epoch as string, seq: stream.seq as number, states };
  }) as Promise<GuildSnapshot>;
}

/** Committed events after `afterSeq`, in order (gap repair and catch-up). */
export async function eventsAfter(sql: Sql, guildId: string, afterSeq: number, limit = 10_000) {
  const rows = await sql`select seq::float8 as seq, deltas, (extract(epoch from created_at) * 1000)::float8 as at
    from events where guild_id = ${guildId} and seq > ${afterSeq} order by seq limit ${limit}`;
  return rows.map((r) => ({ seq: r.seq as number, deltas: r.deltas, at: Math.round(r.at as number) }));
}

/** Current stream heads of several guilds (periodic position check). */
export async function streamHeads(sql: Sql, guildIds: string[]): Promise<Map<string, { epoch: string; seq: number }>> {
  const rows = await sql`select guild_id, epoch, seq::float8 as seq from event_streams where guild_id = any(${guildIds})`;
  return new Map(rows.map((r) => [r.guild_id as string, { epoch: r.epoch as string, seq: r.seq as number }]));
}
