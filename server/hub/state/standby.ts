import type { Db } from '../../store/db.ts';
import type { TopicState } from '../../../contract/reducers.ts';

/** Stand-by roster: userId -> { userId, nickname, since } (epoch ms), as the dispatch domain emits it. */
export async function loadStandby(db: Db, guildId: string): Promise<TopicState> {
  const rows = await db`select s.user_id, p.nickname, s.since from standby s
    join people p on p.guild_id = s.guild_id and p.user_id = s.user_id where s.guild_id = ${guildId}`;
  const state: TopicState = {};
  for (const r of rows) state[r.user_id] = { userId: r.user_id, nickname: r.nickname, since: r.since.getTime() };
  return state;
}
