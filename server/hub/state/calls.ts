import type { Db } from '../../store/db.ts';
import type { TopicState } from '../../../contract/reducers.ts';
import { liveCall, openCalls } from '../../domains/calls/store.ts';

/** externalId -> the open call exactly as `GET /calls` lists it, times as epoch ms. */
export async function loadCalls(db: Db, guildId: string): Promise<TopicState> {
  const state: TopicState = {};
  for (const call of await openCalls(db, guildId)) state[call.externalId] = liveCall(call);
  return state;
}
