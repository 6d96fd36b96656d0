import type { Out } from '../app/types.ts';

/**
 * Entries of the hot topics, as server/hub/state/loaders.ts documents them (times epoch ms).
 * Calls are `GET /calls` entries with their dates as epoch ms.
 */
export interface UnitEntry {
  callsign: string; label: string | null; orgUnit: string | null; status: string; since: number;
  /** Unit type, a code of the guild's AAO catalogue (RTW, NEF …), or null. */
  type?: string | null;
  /** The crew's note with the current status (e.g. with 5 Sprechwunsch), cleared by the next status. */
  note?: string | null;
  members: { id: string; nickname: string }[];
}
export interface AlarmEntry { callsign: string; status: string; since: number }
export interface OnDutyEntry { userId: string; nickname: string; badge: string; rank: string | null; since: number }
export interface DispatcherEntry { slot: number; userId: string; nickname: string; since: number }
export interface StandbyEntry { userId: string; nickname: string; since: number }

type ApiCall = Out['calls']['list']['calls'][number];
export type CallEntry = Omit<ApiCall, 'createdAt' | 'updatedAt' | 'takenAt' | 'attachedAt' | 'resolvedAt' | 'dismissedAt'> & {
  createdAt: number; updatedAt: number; takenAt: number | null; attachedAt: number | null; resolvedAt: number | null; dismissedAt: number | null;
};
