import { useEffect, useState } from 'preact/hooks';
import { callTriageLimits, dismissPresets } from '../../../../contract/call-triage.ts';
import { ensureSheets, listState, openOrder, sheet } from '../incidents/store.ts';
import { attachCall, busyCall, dismissCall, panel } from './triage.ts';
import { callText } from './words.ts';

const close = () => (panel.value = null);

/** Why the call goes: one click on a preset, or the dispatcher's own words. */
export function DismissPanel({ id }: { id: string }) {
  const t = callText();
  const [own, setOwn] = useState('');
  const busy = busyCall.value !== null;
  return (
    <div class="call-panel" role="group" aria-label={t.discardTitle} data-dismiss-panel={id}>
      <span class="call-panel-title">{t.discardTitle}</span>
      <div class="call-panel-row">
        {dismissPresets.map((p) => (
          <button type="button" class="small" data-reason={p} disabled={busy} onClick={() => void dismissCall(id, p, t.presets[p])}>{t.presets[p]}</button>
        ))}
      </div>
      <form class="call-panel-row" onSubmit={(e) => { e.preventDefault(); if (own.trim()) void dismissCall(id, own.trim()); }}>
        <label class="grow">
          <span class="sr-only">{t.ownReason}</span>
          <input type="text" data-own-reason maxLength={callTriageLimits.dismissReason} placeholder={t.ownReasonPlaceholder} value={own} onInput={(e) => setOwn(e.currentTarget.value)} />
        </label>
        <button type="submit" class="small danger" data-dismiss-own disabled={busy || !own.trim()}>{t.discardOwn}</button>
        <button type="button" class="small" onClick={close}>{t.cancel}</button>
      </form>
    </div>
  );
}

/** To which open sheet the call belongs: the open sheets, most urgent first, as the Einsätze tab lists them. */
export function AttachPanel({ id }: { id: string }) {
  const t = callText();
  useEffect(() => ensureSheets(), []);
  const numbers = openOrder.value;
  const [chosen, setChosen] = useState<number | null>(null);
  const target = chosen !== null && numbers.includes(chosen) ? chosen : numbers[0] ?? null;
  const busy = busyCall.value !== null;
  const ready = listState.value === 'ready';
  return (
    <div class="call-panel" role="group" aria-label={t.attachTitle} data-attach-panel={id}>
      <span class="call-panel-title">{t.attachTitle}</span>
      {!ready && !numbers.length ? <p class="muted">{t.loadingSheets}</p> : !numbers.length ? (
        <div class="call-panel-row"><p class="muted">{t.noOpenSheets}</p><button type="button" class="small" onClick={close}>{t.cancel}</button></div>
      ) : (
        <form class="call-panel-row" onSubmit={(e) => { e.preventDefault(); if (target !== null) void attachCall(id, target); }}>
          <label class="grow">
            <span class="sr-only">{t.attachTo}</span>
            <select data-attach-sheet value={target ?? ''} onChange={(e) => setChosen(Number(e.currentTarget.value))}>
              {numbers.map((n) => <option value={n}>{t.sheetOption(n, sheet(n).value?.keyword ?? '')}</option>)}
            </select>
          </label>
          <button type="submit" class="small primary" data-attach-go disabled={busy || target === null}>{t.attachGo}</button>
          <button type="button" class="small" onClick={close}>{t.cancel}</button>
        </form>
      )}
    </div>
  );
}
