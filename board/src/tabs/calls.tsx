import { showTab } from '../app/shell.tsx';
import { can, moduleOn } from '../app/session.ts';
import { live, watching } from '../live/board-live.ts';
import { callOrder, kindCounts, kindFilter } from './calls/order.ts';
import { CallRow } from './calls/row.tsx';
import { takeFailure, taking } from './calls/take.ts';
import { busyCall, clearSelection, mergeSelected, notice, selection, showSheet } from './calls/triage.ts';
import { callKinds, callText } from './calls/words.ts';
import './calls/calls.css';
import { WithMapBeside } from './map/calls-side.tsx';

// New calls chime and flash on every tab, from the board's start (this module loads with the tabs).

function KindFilter() {
  const t = callText();
  const counts = kindCounts.value;
  const active = kindFilter.value;
  const total = live.calls.keys.value.length;
  const option = (id: string, label: string, n: number, value: typeof active) => (
    <button type="button" id={`calls-filter-${id}`} class={`chip${active === value ? ' on' : ''}${value === 'panik' && n ? ' hot' : ''}`}
      aria-pressed={active === value} onClick={() => (kindFilter.value = value)}>
      {label} <span class="n">{n}</span>
    </button>
  );
  return (
    <div class="chips" role="group" aria-label={t.filter}>
      {option('all', t.all, total, 'all')}
      {callKinds.map((k) => option(k, t.kinds[k], counts[k], k))}
    </div>
  );
}

function Count() {
  return <span class="pill" id="calls-count">{live.calls.keys.value.length}</span>;
}

function CallList() {
  const t = callText();
  const ids = callOrder.value;
  if (!ids.length) return <p class="muted calls-empty" id="calls-empty">{live.calls.keys.value.length ? t.noneOfKind : t.none}</p>;
  return <ul class="calls" id="calls" aria-label={t.title}>{ids.map((id) => <CallRow key={id} id={id} />)}</ul>;
}

/** The selected calls, and one button to take them into one sheet (the most urgent makes it). */
function MergeBar() {
  const t = callText();
  const ids = selection.value;
  if (!ids.length) return null;
  const busy = busyCall.value !== null || taking.value !== null;
  return (
    <div class="calls-merge" id="calls-merge" role="group" aria-label={t.selection}>
      <span id="calls-selected">{t.selected(ids.length)}</span>
      <button type="button" class="primary small" id="calls-merge-go" disabled={busy || ids.length < 2} onClick={() => void mergeSelected()}>
        {busy && busyCall.value === ids[0] ? t.merging : t.merge}
      </button>
      {ids.length < 2 && <span class="muted">{t.mergeHint}</span>}
      <button type="button" class="small" id="calls-merge-clear" onClick={clearSelection}>{t.clearSelection}</button>
    </div>
  );
}

/** What a dismiss or an attach did, until the next action or closed; an attach leads to its sheet. */
function Notice() {
  const t = callText();
  const n = notice.value;
  if (!n) return null;
  return (
    <div id="calls-notice" class="calls-toast ok" role="status">
      <span>{n.text}</span>
      {n.sheet !== undefined && <button type="button" class="small" onClick={() => showSheet(n.sheet!)}>{t.toSheet}</button>}
      <button type="button" class="small" aria-label={t.dismiss} onClick={() => (notice.value = null)}>✕</button>
    </div>
  );
}

/** A failed take (or dismiss, attach, merge) stays in view (the row may be gone: someone else took the call). */
function TakeFailure() {
  const t = callText();
  const f = takeFailure.value;
  return (
    <div id="calls-result" class={f ? 'calls-toast' : 'calls-toast empty'} role="alert">
      {f && (
        <>
          <span>{f.offDuty ? t.offDuty : <>{t.failed} <b>{f.title}</b> – {f.message}</>}</span>
          {f.offDuty && moduleOn('timeclock') && <button type="button" class="small" onClick={() => showTab('clock')}>{t.toClock}</button>}
          <button type="button" class="small" aria-label={t.dismiss} onClick={() => (takeFailure.value = null)}>✕</button>
        </>
      )}
    </div>
  );
}

export function CallsTab() {
  const t = callText();
  if (watching.value.length && !watching.value.includes('calls')) return <section class="card"><h2>{t.title}</h2><p class="muted">{t.noRight}</p></section>;
  return (
    <WithMapBeside>
    <section class="card calls-card" aria-labelledby="calls-title">
      <div class="calls-bar">
        <h2 id="calls-title">{t.title} <Count /></h2>
      </div>
      <KindFilter />
      {!can('dispatch.manage') && <p class="muted" id="calls-view-only">{t.viewOnly}</p>}
      <CallList />
      {can('dispatch.manage') && <MergeBar />}
      <TakeFailure />
      <Notice />
    </section>
    </WithMapBeside>
  );
}
