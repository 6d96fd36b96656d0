import type { Db } from '../../store/db.ts';
import type { TopicState } from '../reducers.ts';

/** Game calls arrive with the dispatch centre; until then there are none. */
export async function loadCalls(_db: Db, _guildId: string): Promise<TopicState> {
  return {};
}
