import { signal } from '@preact/signals';
import { watchAlarm } from '../../../client-sdk/live.ts';
import { httpStatusOf } from '../app/api.ts';

/**
 * `connecting` until the first state, `live` while states flow, `degraded` while the server lacks
 * its database (the last list stays), `forbidden` when the rank lacks timeclock.own.use (or lost
 * it), `signedOut` when the session ended, `failed` for any other end.
 */
export type FeedState = 'connecting' | 'live' | 'degraded' | 'forbidden' | 'signedOut' | 'failed';

/** Callsigns of every unit in an alarm status (`me.alarm.watch`), null before the first state. */
export const alarmCallsigns = signal<readonly string[] | null>(null);
export const feedState = signal<FeedState>('connecting');
/** The callsign of the unit the person occupies (`unit` of the alarm state), null for none or before the first state. */
export const occupiedUnit = signal<string | null>(null);
/** Whether the person is clocked in (`onDuty` of the alarm state), null before the first state: the own clock follows it live. */
export const ownOnDuty = signal<boolean | null>(null);

let current: { guildId: string; watcher: { close(): void } } | null = null;

/**
 * Watches `me.alarm.watch` of `guildId` (its own WebSocket, beside the board's `live.watch`; the
 * SDK reconnects and resumes by itself) until `stopAlarmFeed()` or another guild.
 */
export function startAlarmFeed(guildId: string): void {
  if (current?.guildId === guildId) return;
  stopAlarmFeed();
  const mine = (): boolean => current?.guildId === guildId && current.watcher === watcher;
  const watcher = watchAlarm({
    url: location.origin,
    guildId,
    onState: ({ onDuty, alarms, unit }) => {
      if (!mine()) return;
      alarmCallsigns.value = alarms;
      ownOnDuty.value = onDuty;
      occupiedUnit.value = unit;
      if (feedState.peek() !== 'degraded') feedState.value = 'live';
    },
    onStatus: ({ degraded }) => {
      if (mine()) feedState.value = degraded ? 'degraded' : alarmCallsigns.peek() ? 'live' : 'connecting';
    },
    onError: (err) => {
      if (!mine()) return;
      const status = httpStatusOf(err) ?? (err as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
      feedState.value = status === 403 || status === 404 ? 'forbidden' : status === 401 ? 'signedOut' : 'failed';
    },
  });
  current = { guildId, watcher };
}

export function stopAlarmFeed(): void {
  current?.watcher.close();
  current = null;
  alarmCallsigns.value = null;
  ownOnDuty.value = null;
  occupiedUnit.value = null;
  feedState.value = 'connecting';
}
