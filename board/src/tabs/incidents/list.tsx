import { memo } from 'preact/compat';
import { useComputed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { when } from '../../app/i18n.ts';
import { can } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { placeText } from './location.ts';
import { listError, listState, loadSheets, openOrder, openSheet, sheet, writeSheet } from './store.ts';
import { incidentText, priorityText } from './words.ts';
import { callLimits, incidentLimits } from '../../../../contract/limits.ts';

/**
 * One sheet in a list; re-renders when this sheet changes or is opened/left, not for others.
 * `showState`: a row of the history (says open or closed; `data-history-sheet`, as the same sheet
 * may be in the open list too).
 */
export const SheetRow = memo(({ n, showState = false }: { n: number; showState?: boolean }) => {
  const t = incidentText();
  const s = sheet(n).value;
  const selected = useComputed(() => openSheet.value === n).value;
  if (!s) return null;
  const where = placeText(s.location);
  return (
    <li>
      <button type="button" class={`sheet-row prio-${s.priority} state-${s.state}${selected ? ' selected' : ''}`}
        data-sheet={showState ? undefined : n} data-history-sheet={showState ? n : undefined}
        aria-current={selected ? 'true' : undefined} onClick={() => (openSheet.value = n)}>
        <span class="sheet-no">{n}</span>
        <span class="sheet-main">
          <span class="sheet-keyword">{s.keyword}</span>
          <span class="sheet-sub">{where || t.noLocation}</span>
        </span>
        <span class="sheet-side">
          <span class="sheet-prio" title={`${t.priority}: ${priorityText()[s.priority]}`}>P{s.priority}</span>
          <span class="sheet-time">{when(s.state === 'closed' && s.closedAt ? s.closedAt : s.createdAt)}</span>
          {showState && <span class={`sheet-state ${s.state}`}>{s.state === 'open' ? t.open : t.closed}</span>}
        </span>
        {s.units.length > 0 && <span class="sheet-units">{s.units.map((u) => <span class="unit-tag">{u.callsign}</span>)}</span>}
      </button>
    </li>
  );
});

function NewSheet({ onDone }: { onDone: () => void }) {
  const t = incidentText();
  const action = useAction();
  const [keyword, setKeyword] = useState('');
  const [priority, setPriority] = useState(2);
  const [place, setPlace] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const made = await action.run(() => writeSheet(() => api.incidents.create.mutate({ keyword: keyword.trim(), priority, ...(place.trim() ? { location: place.trim() } : {}) })), (d) => t.created(d.number));
    if (!made) return;
    openSheet.value = made.number;
    onDone();
  };
  return (
    <form class="new-sheet" id="new-sheet" onSubmit={submit}>
      <label>{t.keyword}<input id="new-keyword" required maxLength={incidentLimits.keyword} value={keyword} onInput={(e) => setKeyword(e.currentTarget.value)} /></label>
      <div class="row">
        <label>{t.priority}
          <select id="new-priority" value={priority} onChange={(e) => setPriority(Number(e.currentTarget.value))}>
            {[1, 2, 3].map((p) => <option value={p}>{p} – {priorityText()[p]}</option>)}
          </select>
        </label>
        <label class="grow">{t.location}<input id="new-location" maxLength={callLimits.locationText} value={place} onInput={(e) => setPlace(e.currentTarget.value)} /></label>
      </div>
      <div class="row">
        <button type="submit" class="primary" id="new-create" disabled={action.busy || !keyword.trim()}>{t.create}</button>
        <button type="button" onClick={onDone}>{t.cancel}</button>
      </div>
      <Result action={action} />
    </form>
  );
}

export function SheetList() {
  const t = incidentText();
  const [creating, setCreating] = useState(false);
  const open = openOrder.value;
  const state = listState.value;
  return (
    <>
      <div class="sheets-bar">
        <h2 id="sheets-title">{t.title} <span class="pill" id="sheets-open-count">{open.length}</span></h2>
        {can('incidents.manage') && !creating && <button type="button" class="primary small" id="new-sheet-open" onClick={() => setCreating(true)}>+ {t.newSheet}</button>}
      </div>
      {creating && <NewSheet onDone={() => setCreating(false)} />}
      {state === 'loading' && <p class="muted">{t.loading}</p>}
      {state === 'error' && (
        <p class="error" role="alert">{t.loadFailed} {listError.value} <button type="button" class="small" onClick={() => void loadSheets()}>{t.retry}</button></p>
      )}
      {state === 'ready' && !open.length && <p class="muted" id="sheets-none">{t.none}</p>}
      <ul class="sheets" id="sheets-open" aria-label={t.open}>{open.map((n) => <SheetRow key={n} n={n} />)}</ul>
    </>
  );
}
