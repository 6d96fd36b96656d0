/**
 * Alarms for the game: polls `GET /integrations/ingame/alarms` (scope `calls:read`) and emits one
 * `alarm` event per unit and alarm (a unit alarmed again, or for another incident, is a new
 * alarm), with the incident and the waypoint to set; `cleared` when the unit's alarm is gone (the
 * sheet closed, the unit released); `error` when a poll fails (polling goes on, slower). Polling
 * keeps the bridge free of dependencies (FiveM's Node 16 has no WebSocket): every 500 ms by
 * default, so an alarm reaches the game within about half a second.
 */
import type { RouterOutputs } from '../router.ts';

/** A JSON answer: Dates become ISO strings (as bridge.ts's Wire). */
type Wire<T> = T extends Date ? string : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

export type IngameAlarmList = Wire<RouterOutputs['ingameAlarms']['list']>;
type Listed = IngameAlarmList['alarms'][number];

/** One unit's alarm, as the `alarm` event carries it. */
export interface GameAlarm extends Listed {
  /** Street, postal code and text of the location, or null. */
  address: string | null;
  /** Where to set the GPS waypoint (the location's x/y), or null when the sheet has none. */
  waypoint: { x: number; y: number } | null;
  /** True for alarms that were already there at the first poll (the resource started after them). */
  initial: boolean;
}

export interface AlarmWatchOptions {
  /** Between two polls (default 500 ms). */
  intervalMs?: number;
  /** After a failed poll, the wait grows to at most this (default 5000 ms). */
  maxIntervalMs?: number;
}

/** What `watchAlarms()` returns: `on` for the three events (chainable), `close` to stop. No node:events in its type: consumers need no @types/node. */
export interface AlarmWatch {
  on(event: 'alarm', listener: (alarm: GameAlarm) => void): AlarmWatch;
  on(event: 'cleared', listener: (alarm: { callsign: string; number: number }) => void): AlarmWatch;
  on(event: 'error', listener: (err: Error) => void): AlarmWatch;
  /** Stops polling. */
  close(): void;
}

/** "Hafenstraße 5, 20457, am Kran" from a location, or null. */
export function addressOfLocation(location: Listed['incident']['location']): string | null {
  if (!location) return null;
  if (typeof location === 'string') return location || null;
  return [location.street, location.postal, location.text].filter((p) => p && p.trim()).join(', ') || null;
}

const keyOf = (a: Listed) => `${a.callsign}|${a.incident.number}|${a.alarmedAt}`;

export function pollAlarms(list: () => Promise<IngameAlarmList>, opts: AlarmWatchOptions = {}): AlarmWatch {
  const interval = opts.intervalMs ?? 500;
  const maxInterval = opts.maxIntervalMs ?? 5000;
  const listeners: Record<'alarm' | 'cleared' | 'error', ((x: never) => void)[]> = { alarm: [], cleared: [], error: [] };
  const emit = (event: keyof typeof listeners, x: unknown) => {
    for (const fn of listeners[event]) fn(x as never);
  };
  let known: Map<string, Listed> | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  async function poll() {
    try {
      const { alarms } = await list();
      if (closed) return;
      failures = 0;
      const initial = known === null;
      const next = new Map(alarms.map((a) => [keyOf(a), a]));
      // An alarm that is gone is cleared, unless its unit was alarmed anew (that is the next `alarm`).
      const alarmed = new Set(alarms.map((a) => a.callsign));
      for (const [key, a] of known ?? []) if (!next.has(key) && !alarmed.has(a.callsign)) emit('cleared', { callsign: a.callsign, number: a.incident.number });
      for (const [key, a] of next) {
        if (known?.has(key)) continue;
        const loc = a.incident.location;
        const waypoint = loc && typeof loc === 'object' && typeof loc.x === 'number' && typeof loc.y === 'number' ? { x: loc.x, y: loc.y } : null;
        emit('alarm', { ...a, address: addressOfLocation(loc), waypoint, initial });
      }
      known = next;
    } catch (err) {
      failures++;
      emit('error', err as Error);
    }
    if (!closed) timer = setTimeout(poll, Math.min(maxInterval, interval * 2 ** Math.min(failures, 10)));
  }
  const watch: AlarmWatch = {
    on(event: 'alarm' | 'cleared' | 'error', listener: (x: never) => void) {
      listeners[event].push(listener);
      return watch;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
  void poll();
  return watch;
}
