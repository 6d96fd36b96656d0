import { useEffect, useState } from 'preact/hooks';
import { api, httpStatusOf } from '../app/api.ts';
import { clockTime, duration, texts } from '../app/i18n.ts';
import { now } from '../app/clock.ts';
import { access, guild } from '../app/session.ts';
import { live, synced, watching } from '../live/board-live.ts';
import { ownOnDuty } from '../alarm/feed.ts';
import { Result, useAction } from './action.tsx';

const text = texts({
  title: 'Mein Dienst', loading: 'Status wird geladen …', onDuty: 'Du bist im Dienst.', offDuty: 'Du bist außer Dienst.',
  since: (at: string, d: string) => `Seit ${at} Uhr (${d}).`,
  clockIn: 'Einstempeln', clockOut: 'Ausstempeln',
  clockedIn: (at: string) => `Eingestempelt um ${at} Uhr.`, clockedOut: (at: string, d: string) => `Ausgestempelt um ${at} Uhr (${d}).`,
  noClockRight: 'Deinem Rang fehlt die Berechtigung für die Stempeluhr.', clockOff: 'Die Stempeluhr ist für diese Wache ausgeschaltet.',
}, {
  title: 'My duty', loading: 'Loading status …', onDuty: 'You are on duty.', offDuty: 'You are off duty.',
  since: (at: string, d: string) => `Since ${at} (${d}).`,
  clockIn: 'Clock in', clockOut: 'Clock out',
  clockedIn: (at: string) => `Clocked in at ${at}.`, clockedOut: (at: string, d: string) => `Clocked out at ${at} (${d}).`,
  noClockRight: 'Your rank lacks the right to use the time clock.', clockOff: 'The time clock is switched off for this station.',
});

/**
 * The signed-in person's own clock: on or off duty, and the two buttons. What it says is live,
 * from the same source as every counter beside it: the `onDuty` topic when the board watches it
 * (the overview's "Im Dienst" counts it), else the person's own `me.alarm.watch` (a clock-in or
 * -out anywhere shows at once); `GET /me/alarm` only until one of them has answered.
 */
export function MyClock() {
  const t = text();
  const me = guild.value;
  const [fallback, setFallback] = useState<{ onDuty: boolean } | { error: number | null } | null>(null);
  const action = useAction();
  const userId = access.value?.userId;
  const mine = userId ? live.onDuty.entry(userId).value : undefined;
  // The live topic decides once the board watches it; until then (or without the right) GET /me/alarm does.
  const watched = watching.value.includes('onDuty') && synced.value;

  async function refresh() {
    try {
      setFallback({ onDuty: (await api.me.alarm.get.query()).onDuty });
    } catch (err) {
      setFallback({ error: httpStatusOf(err) ?? null });
    }
  }
  useEffect(() => void refresh(), [me?.guildId]);

  const own = ownOnDuty.value;
  const onDuty = mine !== undefined ? true : watched ? false : own !== null ? own : fallback && 'onDuty' in fallback ? fallback.onDuty : null;
  const status = fallback && 'error' in fallback
    ? fallback.error === 403 ? t.noClockRight : fallback.error === 404 ? t.clockOff : t.loading
    : onDuty === null ? t.loading : onDuty ? t.onDuty : t.offDuty;

  const clock = (direction: 'in' | 'out') => action.run(async () => {
    const r = direction === 'in' ? await api.timeclock.selfClockIn.mutate({}) : await api.timeclock.selfClockOut.mutate({});
    await refresh();
    return r;
  }, (r) => ('clockOutAt' in r && r.clockOutAt
    ? t.clockedOut(clockTime(r.clockOutAt.getTime()), duration(r.durationMs))
    : t.clockedIn(clockTime(r.clockInAt.getTime()))));

  return (
    <section id="clock" class="card" aria-labelledby="clock-title">
      <h2 id="clock-title">{t.title}</h2>
      <p id="duty" class="muted">{status}</p>
      {mine && <p class="muted">{t.since(clockTime(mine.since), duration(now.value - mine.since))}</p>}
      <div class="row">
        <button id="clock-in" class="primary" type="button" disabled={onDuty !== false || action.busy} onClick={() => void clock('in')}>{t.clockIn}</button>
        <button id="clock-out" type="button" disabled={onDuty !== true || action.busy} onClick={() => void clock('out')}>{t.clockOut}</button>
      </div>
      <Result id="result" action={action} />
    </section>
  );
}
