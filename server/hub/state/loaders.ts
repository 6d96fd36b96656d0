import type { Db } from '../../store/db.ts';
import type { TopicState } from '../../../contract/reducers.ts';

/**
 * Hot-topic state as stored, one loader per topic, all run inside the hub's REPEATABLE READ
 * snapshot. The shapes here are the contract for the ops the services emit (see reducers.ts):
 * - onDuty:      userId   -> { userId, nickname, badge, rank, since }
 * - dispatchers: slot     -> { slot, userId, nickname, since }
 * - units:       callsign -> { callsign, label, orgUnit, type, status, since, note, members: [{ id, nickname }] }
 * - alarm:       callsign -> { callsign, status, since }   (units whose status has alarm: true)
 * - standby:     userId   -> { userId, nickname, since }
 * - calls:       externalId -> the open call as `GET /integrations/ingame/calls` lists it
 * Times are epoch ms.
 */

/**
 * Codes that carry `alarm: true` in the default catalogue (FMS 0: Notruf) that sql/0002 seeds for
 * every guild. Which statuses alarm is the guild's catalogue's decision (`unit_statuses.alarm`).
 */
export const DEFAULT_ALARM_STATUSES = ['0'];

export async function loadOnDuty(db: Db, guildId: string): Promise<TopicState> {
  const rows = await db`
    select p.user_id, p.nickname, p.badge, r.name as rank, s.clock_in_at from shifts s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id
    left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id
    where s.guild_id = ${guildId} and s.clock_out_at is null`;
  const state: TopicState = {};
  for (const r of rows) state[r.user_id] = { userId: r.user_id, nickname: r.nickname, badge: r.badge, rank: r.rank, since: r.clock_in_at.getTime() };
  return state;
}

export async function loadDispatchers(db: Db, guildId: string): Promise<TopicState> {
  const rows = await db`
    select d.slot, d.user_id, p.nickname, d.since from dispatcher_slots d
    join people p on p.guild_id = d.guild_id and p.user_id = d.user_id where d.guild_id = ${guildId}`;
  const state: TopicState = {};
  for (const r of rows) state[String(r.slot)] = { slot: r.slot, userId: r.user_id, nickname: r.nickname, since: r.since.getTime() };
  return state;
}

/** Units, and the alarm topic: the units whose status carries `alarm: true` in the guild's catalogue. */
export async function loadUnits(db: Db, guildId: string): Promise<{ units: TopicState; alarm: TopicState }> {
  const rows = await db`
    select u.callsign, u.label, u.org_unit, u.type, u.status, u.status_since, u.status_note, coalesce(s.alarm, false) as alarm,
      coalesce(json_agg(json_build_object('id', m.user_id, 'nickname', p.nickname) order by m.since, m.user_id)
        filter (where m.user_id is not null), '[]') as members
    from units u
    left join unit_statuses s on s.guild_id = u.guild_id and s.code = u.status
    left join unit_members m on m.guild_id = u.guild_id and m.unit_id = u.id
    left join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
    where u.guild_id = ${guildId} group by u.guild_id, u.id, s.alarm`;
  const units: TopicState = {};
  const alarm: TopicState = {};
  for (const r of rows) {
    const since = r.status_since.getTime();
    units[r.callsign] = { callsign: r.callsign, label: r.label, orgUnit: r.org_unit, type: r.type ?? null, status: r.status, since, note: r.status_note ?? null, members: r.members };
    if (r.alarm) alarm[r.callsign] = { callsign: r.callsign, status: r.status, since };
  }
  return { units, alarm };
}

export { loadStandby } from './standby.ts';
export { loadCalls } from './calls.ts';
