import { memo } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { computed, useComputed } from '@preact/signals';
import { api } from '../../app/api.ts';
import { clockTime, duration } from '../../app/i18n.ts';
import { now } from '../../app/clock.ts';
import { access, can, moduleOn } from '../../app/session.ts';
import { live, watching } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { text } from './text.ts';

/** The slot the signed-in person holds, or null. */
const mySlot = computed(() => {
  const me = access.value?.userId;
  return live.dispatchers.values().find((d) => d.userId === me)?.slot ?? null;
});

function Running({ at }: { at: number }) {
  return <span class="running">{duration(now.value - at)}</span>;
}

/** One seat: re-renders when its own entry changes, or when the person's own seat moves. */
const SlotTile = memo(({ slot }: { slot: number }) => {
  const t = text();
  const action = useAction();
  const entry = live.dispatchers.entry(String(slot));
  const d = entry.value;
  const mine = useComputed(() => !!entry.value && entry.value.userId === access.value?.userId).value;
  const elsewhere = useComputed(() => mySlot.value !== null && mySlot.value !== slot).value;
  const manage = useComputed(() => can('dispatch.manage')).value;
  const self = useComputed(() => can('timeclock.own.use')).value;
  const take = () => action.run(() => api.dispatch.selfSet.mutate({ slot }), (r) => t.taken(r.slot));
  return (
    <li class={`slot${d ? ' taken' : ' free'}${mine ? ' mine' : ''}`} data-slot={slot} aria-label={t.slot(slot)}>
      <div class="slot-head"><span class="slot-no">{t.slot(slot)}</span>{mine && <span class="pill">{t.you}</span>}</div>
      {d ? (
        <>
          <div class="slot-who">{d.nickname}</div>
          <div class="muted slot-since">{t.since(clockTime(d.since))} · <Running at={d.since} /></div>
        </>
      ) : <div class="slot-who muted">{t.free}</div>}
      <div class="row slot-actions">
        {!d && self && <button type="button" class={`small take${elsewhere ? '' : ' primary'}`} disabled={action.busy} onClick={() => void take()}>{elsewhere ? t.moveHere : t.take}</button>}
        {mine && <button type="button" class="small leave" disabled={action.busy} onClick={() => void action.run(() => api.dispatch.selfClear.mutate({}), (r) => t.left(r.cleared))}>{t.leave}</button>}
        {d && !mine && manage && (
          <button type="button" class="danger small clear" aria-label={t.clearLabel(slot, d.nickname)} disabled={action.busy}
            onClick={() => void action.run(() => api.dispatch.clear.mutate({ slot }), () => t.cleared(slot))}>{t.clear}</button>
        )}
      </div>
      {(action.error || action.ok) && <Result action={action} />}
    </li>
  );
});

/** The person's own seat (or none), with the one-click take and leave; a hint when they are off duty. */
function MySeat({ known }: { known: boolean }) {
  const t = text();
  const action = useAction();
  const slot = known ? mySlot.value : null;
  const d = slot !== null ? live.dispatchers.entry(String(slot)).value : undefined;
  const me = access.value?.userId;
  const offDuty = !!me && watching.value.includes('onDuty') && !live.onDuty.entry(me).value;
  const takeFirst = () => action.run(() => api.dispatch.selfSet.mutate({}), (r) => t.taken(r.slot));
  const leave = () => action.run(() => api.dispatch.selfClear.mutate({}), (r) => t.left(r.cleared));
  return (
    <div id="my-seat" class="my-seat">
      {known && <p>{slot !== null && d ? <>{t.mySeat(slot)} · {t.since(clockTime(d.since))} · <Running at={d.since} /></> : t.noSeat}</p>}
      <div class="row">
        {(!known || slot === null) && <button id="seat-take" type="button" class="primary" disabled={action.busy} onClick={() => void takeFirst()}>{t.takeFirst}</button>}
        {(!known || slot !== null) && <button id="seat-leave" type="button" disabled={action.busy} onClick={() => void leave()}>{t.leave}</button>}
        {offDuty && slot === null && <span class="muted">{t.needDuty} {moduleOn('timeclock') && <a href="#clock">{t.toClock}</a>}</span>}
      </div>
      <Result id="seat-result" action={action} />
    </div>
  );
}

/** Dispatcher seats: who sits where since when; take, leave, and (dispatch.manage) free any seat. */
export function Slots() {
  const t = text();
  const [maxSlots, setMaxSlots] = useState(20);
  const [all, setAll] = useState(false);
  const visible = watching.value.includes('dispatchers');
  useEffect(() => {
    if (visible) api.dispatch.list.query().then((r) => setMaxSlots(r.maxSlots), () => {});
  }, [visible]);
  const occupied = live.dispatchers.keys.value.map(Number).filter((n) => Number.isInteger(n));
  const upTo = all ? maxSlots : Math.min(maxSlots, Math.max(4, ...occupied.map((n) => n + 1)));
  const shown = [...new Set([...Array.from({ length: upTo }, (_, i) => i + 1), ...occupied])].sort((a, b) => a - b);
  return (
    <section id="slots" class="card" aria-labelledby="slots-title">
      <h2 id="slots-title">{t.slots} {visible && <span class="pill" id="slots-count">{t.occupied(occupied.length, maxSlots)}</span>}</h2>
      {can('timeclock.own.use') && <MySeat known={visible} />}
      {!visible ? <p id="slots-no-right" class="muted">{t.noSlotsRight}</p> : (
        <>
          <ul class="slots" id="slot-list">{shown.map((n) => <SlotTile key={n} slot={n} />)}</ul>
          {maxSlots > 4 && <button type="button" class="small" id="slots-all" onClick={() => setAll(!all)}>{all ? t.showFewer : t.showAll(maxSlots)}</button>}
        </>
      )}
    </section>
  );
}
