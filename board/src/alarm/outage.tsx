import { now } from '../app/clock.ts';
import { duration, texts } from '../app/i18n.ts';
import { feedState, outageSince } from './feed.ts';

const text = texts({
  cut: (d: string) => `Alarmierung gestört — keine Verbindung seit ${d}`,
  degraded: (d: string) => `Alarmierung gestört — Server ohne Datenbank seit ${d}`,
}, {
  cut: (d: string) => `Alarms disrupted — no connection for ${d}`,
  degraded: (d: string) => `Alarms disrupted — server without database for ${d}`,
});

/**
 * What an alarm surface says instead of "Alarm bereit" while alarms cannot reach it (the socket is
 * down, or the server lacks its database), with the time since, ticking; null while they can.
 */
export function outageText(): string | null {
  const since = outageSince.value;
  const state = feedState.value;
  if (since === null || (state !== 'cut' && state !== 'degraded')) return null;
  void now.value; // re-read every second
  const t = text();
  const d = duration(Date.now() - since);
  return state === 'cut' ? t.cut(d) : t.degraded(d);
}
