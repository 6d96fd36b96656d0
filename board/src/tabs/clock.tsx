import { memo } from 'preact/compat';
import { clockTime, duration, texts } from '../app/i18n.ts';
import { now } from '../app/clock.ts';
import { live, watching } from '../live/board-live.ts';
import { MyClock } from '../ui/my-clock.tsx';

const text = texts({
  onDuty: 'Im Dienst', nobody: 'Niemand ist im Dienst.', badge: 'Dienstnr.', name: 'Name', rank: 'Rang', since: 'Seit', duration: 'Dauer',
  noRight: 'Wer im Dienst ist, sehen Ränge mit dem Recht „die Stempeluhr für andere bedienen“.',
}, {
  onDuty: 'On duty', nobody: 'Nobody is on duty.', badge: 'Badge', name: 'Name', rank: 'Rank', since: 'Since', duration: 'Duration',
  noRight: 'Who is on duty is shown to ranks with the right to “run the time clock for others”.',
});

/** One row: re-renders when this person's entry changes, and its duration label every second. */
const Row = memo(({ userId }: { userId: string }) => {
  const p = live.onDuty.entry(userId).value;
  if (!p) return null;
  return (
    <tr data-user={userId}>
      <td class="badge">{p.badge}</td><td>{p.nickname}</td><td>{p.rank ?? '–'}</td>
      <td class="wide-only">{clockTime(p.since)}</td><td class="running">{duration(now.value - p.since)}</td>
    </tr>
  );
});

export function ClockTab() {
  const t = text();
  const watched = watching.value.includes('onDuty');
  const ids = [...live.onDuty.keys.value].sort((a, b) => (live.onDuty.peek(a)?.since ?? 0) - (live.onDuty.peek(b)?.since ?? 0));
  return (
    <div class="grid two">
      <MyClock />
      <section class="card" aria-labelledby="onduty-title">
        {/* a count only from the list it counts: without the topic it would say 0 beside "Du bist im Dienst" */}
        <h2 id="onduty-title">{t.onDuty} {watched && <span class="pill" id="onduty-count">{ids.length}</span>}</h2>
        {!watched ? <p class="muted">{t.noRight}</p> : ids.length === 0 ? <p class="muted">{t.nobody}</p> : (
          <div class="table-wrap"><table class="list" id="on-duty">
            <thead><tr><th>{t.badge}</th><th>{t.name}</th><th>{t.rank}</th><th class="wide-only">{t.since}</th><th>{t.duration}</th></tr></thead>
            <tbody>{ids.map((id) => <Row key={id} userId={id} />)}</tbody>
          </table></div>
        )}
      </section>
    </div>
  );
}
