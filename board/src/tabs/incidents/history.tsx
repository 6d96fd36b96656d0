import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../../live/board-live.ts';
import { emptyQuery, hasMore, historyError, historyNumbers, historyQuery, historyState, isFiltered, searchHistory, type HistoryQuery } from './history.ts';
import { historyText } from './history-words.ts';
import { SheetRow } from './list.tsx';
import { incidentLimits } from '../../../../contract/limits.ts';

/**
 * Einsatzhistorie: every sheet, open and closed, newest first, searchable by words (number,
 * keyword, address, unit, names), a unit and days; 25 at a time, "Mehr laden" for the next.
 * Typing searches after a short pause; the date and unit fields at once.
 */
export function SheetHistory() {
  const t = historyText();
  const [draft, setDraft] = useState<HistoryQuery>(historyQuery.peek());
  const typing = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (historyState.peek() === 'idle') void searchHistory(emptyQuery);
    return () => { if (typing.current) clearTimeout(typing.current); };
  }, []);
  const badRange = !!(draft.from && draft.to && draft.from > draft.to);
  const ask = (next: HistoryQuery, wait: number) => {
    setDraft(next);
    if (typing.current) clearTimeout(typing.current);
    if (next.from && next.to && next.from > next.to) return;
    typing.current = setTimeout(() => void searchHistory(next), wait);
  };
  const state = historyState.value;
  const numbers = historyNumbers.value;
  const units = live.units.keys.value;
  return (
    <section class="sheet-history" aria-labelledby="history-title">
      <h2 id="history-title">{t.title}</h2>
      <form class="history-search" role="search" onSubmit={(e) => { e.preventDefault(); ask(draft, 0); }}>
        <label class="grow">{t.search}
          <input id="history-q" type="search" maxLength={incidentLimits.searchText} placeholder={t.searchPlaceholder} value={draft.q}
            onInput={(e) => ask({ ...draft, q: e.currentTarget.value }, 300)} />
        </label>
        <div class="row history-filters">
          <label>{t.unit}
            <select id="history-unit" value={draft.unit} onChange={(e) => ask({ ...draft, unit: e.currentTarget.value }, 0)}>
              <option value="">{t.anyUnit}</option>
              {[...units].sort((a, b) => a.localeCompare(b, 'de', { numeric: true })).map((c) => <option value={c}>{c}</option>)}
            </select>
          </label>
          <label>{t.from}<input id="history-from" type="date" value={draft.from} onChange={(e) => ask({ ...draft, from: e.currentTarget.value }, 0)} /></label>
          <label>{t.to}<input id="history-to" type="date" value={draft.to} onChange={(e) => ask({ ...draft, to: e.currentTarget.value }, 0)} /></label>
          {isFiltered(draft) && <button type="button" class="small" id="history-reset" onClick={() => ask(emptyQuery, 0)}>{t.reset}</button>}
        </div>
        {badRange && <p class="error" role="alert" id="history-range">{t.badRange}</p>}
      </form>
      {state === 'loading' && <p class="muted" id="history-loading">{t.loading}</p>}
      {state === 'error' && (
        <p class="error" role="alert">{t.failed} {historyError.value} <button type="button" class="small" onClick={() => void searchHistory()}>{t.retry}</button></p>
      )}
      {(state === 'ready' || state === 'more') && !numbers.length && (
        <p class="muted" id="history-none">{isFiltered(historyQuery.value) ? t.none : t.noneYet}</p>
      )}
      {numbers.length > 0 && <p class="muted history-count" id="history-count" aria-live="polite">{t.shown(numbers.length, hasMore.value)}</p>}
      <ul class="sheets" id="sheets-history" aria-labelledby="history-title">{numbers.map((n) => <SheetRow key={n} n={n} showState />)}</ul>
      {hasMore.value && (
        <button type="button" class="history-more" id="history-more" disabled={state === 'more'} onClick={() => void searchHistory(historyQuery.peek(), true)}>
          {state === 'more' ? t.loading : t.more}
        </button>
      )}
    </section>
  );
}
