import { memo } from 'preact/compat';
import { useComputed } from '@preact/signals';
import { now } from '../../app/clock.ts';
import { dateTime, duration } from '../../app/i18n.ts';
import { can } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { placeCoords, placeText } from '../incidents/location.ts';
import { freshOf } from './arrivals.ts';
import { takeCall, taking } from './take.ts';
import { busyCall, isPicked, panel, toggle } from './triage.ts';
import { AttachPanel, DismissPanel } from './panels.tsx';
import { callText } from './words.ts';

/**
 * How long the call waits, in minutes ("< 1 min" at first): a text node bound to the clock, so the
 * row does not re-render as time passes, and the text changes once a minute.
 */
function Age({ since }: { since: number }) {
  const label = useComputed(() => (now.value - since < 60_000 ? callText().underMinute : duration(now.value - since)));
  return <span class="call-age" title={`${callText().age} ${dateTime(since)}`}>{label}</span>;
}

/** One open call; re-renders when its own entry changes (or it flashes), never for another call. */
export const CallRow = memo(({ id }: { id: string }) => {
  const t = callText();
  const c = live.calls.entry(id).value;
  const isFresh = freshOf(id).value;
  const busy = useComputed(() => taking.value === id).value;
  const anyBusy = useComputed(() => taking.value !== null || busyCall.value !== null).value;
  const open = useComputed(() => (panel.value?.id === id ? panel.value.mode : null)).value;
  const chosen = useComputed(() => isPicked(id)).value;
  if (!c) return null;
  const manage = can('dispatch.manage');
  const togglePanel = (mode: 'dismiss' | 'attach') => (panel.value = open === mode ? null : { id, mode });
  const where = placeText(c.location);
  const coords = placeCoords(c.location);
  const caller = [c.caller?.name, c.caller?.phone].filter(Boolean).join(' · ');
  return (
    <li class={`call kind-${c.kind} prio-${c.priority}${isFresh ? ' fresh' : ''}${chosen ? ' picked' : ''}`} data-call={id} data-kind={c.kind} data-fresh={isFresh ? '' : undefined}>
      <div class="call-tags">
        {manage && (
          <input type="checkbox" class="call-pick" data-pick={id} checked={chosen} aria-label={t.select(c.title)} onChange={() => toggle(id)} />
        )}
        <span class="call-kind">{t.kinds[c.kind]}</span>
        <span class="call-prio" title={t.prioLong(c.priority)} aria-label={t.prioLong(c.priority)}>{t.prio(c.priority)}</span>
      </div>
      <div class="call-body">
        <div class="call-head">
          <strong class="call-title">{c.title}</strong>
          {isFresh && <span class="call-new">{t.fresh}</span>}
          {c.reportCount > 1 && <span class="call-reports pill">{t.reports(c.reportCount)}</span>}
        </div>
        {c.message && <p class="call-message">{c.message}</p>}
        {/* The game's id of the call means nothing to a dispatcher: only a tooltip, for talking to the script's author. */}
        <p class="call-meta" title={t.technical(c.externalId)}>
          {where && <span class="call-where">{where}</span>}
          {coords && <span class="call-coords">{coords}</span>}
          {caller && <span class="call-caller">{t.caller}: {caller}</span>}
          {c.source && <span class="call-source">{t.source}: {c.source}</span>}
        </p>
      </div>
      <div class="call-side">
        <Age since={c.createdAt} />
        {manage && (
          <div class="call-actions">
            <button type="button" class="primary small call-take" data-take={id} aria-label={t.takeLabel(c.title)}
              disabled={anyBusy} onClick={() => void takeCall(id, c.title)}>
              {busy ? t.taking : t.take}
            </button>
            <button type="button" class="small" data-attach={id} aria-label={t.attachLabel(c.title)} aria-expanded={open === 'attach'}
              disabled={anyBusy} onClick={() => togglePanel('attach')}>{t.attach}</button>
            <button type="button" class="small" data-dismiss={id} aria-label={t.discardLabel(c.title)} aria-expanded={open === 'dismiss'}
              disabled={anyBusy} onClick={() => togglePanel('dismiss')}>{t.discard}</button>
          </div>
        )}
      </div>
      {manage && open === 'dismiss' && <DismissPanel id={id} />}
      {manage && open === 'attach' && <AttachPanel id={id} />}
    </li>
  );
});
