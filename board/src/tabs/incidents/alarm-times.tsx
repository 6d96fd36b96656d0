import { useEffect, useState } from 'preact/hooks';
import { clockTimeSeconds, duration } from '../../app/i18n.ts';
import { alarmText } from './alarm-words.ts';
import type { Sheet } from './store.ts';

type SheetUnit = Sheet['units'][number];

/** Now, re-read every second while `ticking` (an alarm waits for its acknowledgement). */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** Seconds as "75 s" up to 10 minutes (a dispatcher counts an acknowledgement in seconds), then "12 min". */
const seconds = (ms: number) => (ms < 600_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : duration(ms));

/**
 * A unit's alarm on the sheet: alarmed at, acknowledged at and the time between; while it waits,
 * the seconds since the alarm, in red once they pass the guild's alarmAckTimeoutS (or when the
 * server already read it as unacknowledged). Nothing for a unit assigned without an alarm.
 */
export function AlarmTimes({ u, timeoutS, now, open }: { u: SheetUnit; timeoutS: number; now: number; open: boolean }) {
  const a = alarmText();
  if (u.alarmedAt === null) return <p class="alarm-times muted" data-alarm-state="none">{a.notAlarmed}</p>;
  const since = now - u.alarmedAt;
  if (u.acknowledgedAt !== null) {
    return (
      <p class="alarm-times acked" data-alarm-state="acknowledged">
        <span class="alarmed-at">{a.alarmedAt} <time dateTime={new Date(u.alarmedAt).toISOString()}>{clockTimeSeconds(u.alarmedAt)}</time></span>
        {' · '}<span class="acked-at">{a.ackAt} <time dateTime={new Date(u.acknowledgedAt).toISOString()}>{clockTimeSeconds(u.acknowledgedAt)}</time></span>
        {' '}<span class="ack-after">({a.after(seconds(u.acknowledgedAt - u.alarmedAt))})</span>
      </p>
    );
  }
  const late = open && (u.unacknowledged || since > timeoutS * 1000);
  return (
    <p class={`alarm-times ${late ? 'unacked' : 'waiting'}`} data-alarm-state={late ? 'unacknowledged' : 'waiting'}>
      <span class="alarmed-at">{a.alarmedAt} <time dateTime={new Date(u.alarmedAt).toISOString()}>{clockTimeSeconds(u.alarmedAt)}</time></span>
      {open && <>{' · '}<span class="ack-wait">{late ? a.unacked(seconds(since)) : a.waiting(seconds(since))}</span></>}
    </p>
  );
}
