import type { Db } from '../../store/db.ts';
import type { TopicState } from '../reducers.ts';

/** The stand-by roster arrives with the dispatch centre; until then it is empty. */
export async function loadStandby(_db: Db, _guildId: string): Promise<TopicState> {
  return {};
}
