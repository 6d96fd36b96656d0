import { batch, signal } from '@preact/signals';
import { watchAlarm } from '../../../client-sdk/live.ts';
import type { CrewIncident } from '../../../contract/alarm.ts';
import { httpStatusOf } from '../app/api.ts';

/**
 * `connecting` until the first state, `live` while states flow, `cut` while the socket to the
 * server is down (the SDK reconnects by itself), `degraded` while the server lacks its database
 * (the last list stays), `forbidden` when the rank lacks timeclock.own.use (or lost it),
 * `signedOut` when the session ended, `failed` for any other end.
 */
export type FeedState = 'connecting' | 'live' | 'cut' | 'degraded' | 'forbidden' | 'signedOut' | 'failed';

/** Callsigns of every unit in an alarm status (`me.alarm.watch`), null before the first state. */
export const alarmCallsigns = signal<readonly string[] | null>(null);
export const feedState = signal<FeedState>('connecting');
/** The callsign of the unit the person occupies (`unit` of the alarm state), null for none or before the first state. */
export const occupiedUnit = signal<string | null>(null);
/** Whether the person is clocked in (`onDuty` of the alarm state), null before the first state: the own clock follows it live. */
export const ownOnDuty = signal<boolean | null>(null);
/** The status code the occupied unit is in (the alarm state's `unitStatus`), null for none. */
export const occupiedStatus = signal<string | null>(null);
/** The open sheet the occupied unit was last alarmed for (keyword, address, units, timeline), live; null for none. */
export const crewIncident = signal<CrewIncident | null>(null);
/**
 * Since when (epoch ms) alarms cannot reach this page: the socket is down or the server lacks its
 * database; null while they can. What every alarm surface says instead of "Alarm bereit".
 */
export const outageSince = signal<number | null>(null);

/** Sets the feed state; entering `cut` or `degraded` starts the outage clock, `live` stops it. */
function setFeed(state: FeedState): void {
  batch(() => {
    feedState.value = state;
    if (state === 'cut' || state === 'degraded') outageSince.value ??= Date.now();
    else if (state === 'live') outageSince.value = null;
  });
}

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
    onState: ({ onDuty, alarms, unit, unitStatus, incident }) => {
      if (!mine()) return;
      batch(() => {
        alarmCallsigns.value = alarms;
        ownOnDuty.value = onDuty;
        occupiedUnit.value = unit;
        occupiedStatus.value = unitStatus ?? null;
        crewIncident.value = incident;
        if (feedState.peek() !== 'degraded') setFeed('live');
      });
    },
    onStatus: ({ degraded }) => {
      if (mine()) setFeed(degraded ? 'degraded' : alarmCallsigns.peek() ? 'live' : 'connecting');
    },
    // The socket closed: nothing reaches this page until it is open again (the resume then says
    // at once what changed meanwhile, and whether the database answers).
    onConnection: (open) => {
      if (!mine()) return;
      const state = feedState.peek();
      if (!open && (state === 'live' || state === 'degraded' || state === 'connecting')) setFeed('cut');
      else if (open && state === 'cut') setFeed('live');
    },
    onError: (err) => {
      if (!mine()) return;
      const status = httpStatusOf(err) ?? (err as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
      setFeed(status === 403 || status === 404 ? 'forbidden' : status === 401 ? 'signedOut' : 'failed');
    },
  });
  current = { guildId, watcher };
}

export function stopAlarmFeed(): void {
  current?.watcher.close();
  current = null;
  batch(() => {
    alarmCallsigns.value = null;
    ownOnDuty.value = null;
    occupiedUnit.value = null;
    occupiedStatus.value = null;
    crewIncident.value = null;
    feedState.value = 'connecting';
    outageSince.value = null;
  });
}
