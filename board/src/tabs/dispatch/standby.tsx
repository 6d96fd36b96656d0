import { memo } from 'preact/compat';
import { useComputed } from '@preact/signals';
import { api } from '../../app/api.ts';
import { clockTime, duration } from '../../app/i18n.ts';
import { now } from '../../app/clock.ts';
import { access, can } from '../../app/session.ts';
import { live, watching } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { text } from './text.ts';

/** One person on stand-by: re-renders when their entry changes, its duration every second. */
const Row = memo(({ userId }: { userId: string }) => {
  const t = text();
  const action = useAction();
  const p = live.standby.entry(userId).value;
  const mine = useComputed(() => access.value?.userId === userId).value;
  const manage = useComputed(() => can('dispatch.manage')).value;
  if (!p) return null;
  return (
    <tr data-user={userId} class={mine ? 'mine' : ''}>
      <td>{p.nickname}{mine && <span class="pill">{t.you}</span>}</td>
      <td>{clockTime(p.since)}</td>
      <td class="running">{duration(now.value - p.since)}</td>
      <td class="act">
        {manage && !mine && (
          <button type="button" class="danger small remove" aria-label={t.removeLabel(p.nickname)} disabled={action.busy}
            onClick={() => void action.run(() => api.dispatch.removeStandby.mutate({ userId }), () => t.removed(p.nickname))}>{t.remove}</button>
        )}
        {action.error && <Result action={action} />}
      </td>
    </tr>
  );
});

/** Going on and off stand-by oneself; without the roster (no dispatch.view) both buttons, the server says what applied. */
function MyStandby({ known }: { known: boolean }) {
  const t = text();
  const action = useAction();
  const me = access.value?.userId;
  const on = known && !!me && !!live.standby.entry(me).value;
  const enter = () => action.run(() => api.dispatch.selfStandby.mutate({}), () => t.entered);
  const end = () => action.run(() => api.dispatch.selfStandbyEnd.mutate({}), () => t.ended);
  return (
    <div id="my-standby" class="my-standby">
      {known && <p>{on ? t.onStandby : t.offStandby}</p>}
      <div class="row">
        {(!known || !on) && <button id="standby-on" type="button" class="primary" disabled={action.busy} onClick={() => void enter()}>{t.enter}</button>}
        {(!known || on) && <button id="standby-off" type="button" disabled={action.busy} onClick={() => void end()}>{t.end}</button>}
      </div>
      <Result id="standby-result" action={action} />
    </div>
  );
}

/** The stand-by roster: who can be alarmed away from the desk, longest first. */
export function Standby() {
  const t = text();
  const visible = watching.value.includes('standby');
  const ids = [...live.standby.keys.value].sort((a, b) => (live.standby.peek(a)?.since ?? 0) - (live.standby.peek(b)?.since ?? 0));
  return (
    <section id="standby" class="card" aria-labelledby="standby-title">
      <h2 id="standby-title">{t.standby} {visible && <span class="pill" id="standby-count">{ids.length}</span>}</h2>
      <p class="muted">{t.standbyHint}</p>
      {can('timeclock.own.use') && <MyStandby known={visible} />}
      {!visible ? <p id="standby-no-right" class="muted">{t.noStandbyRight}</p> : ids.length === 0 ? <p class="muted">{t.nobodyStandby}</p> : (
        <table class="list" id="standby-list">
          <thead><tr><th>{t.name}</th><th>{t.sinceCol}</th><th>{t.duration}</th><th><span class="sr-only">{t.remove}</span></th></tr></thead>
          <tbody>{ids.map((id) => <Row key={id} userId={id} />)}</tbody>
        </table>
      )}
    </section>
  );
}
