import { memo } from 'preact/compat';
import { useComputed } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { duration } from '../../app/i18n.ts';
import { now } from '../../app/clock.ts';
import { filter, listError, listOrder, listState, loadList, loadMore, nextBefore, openFile, patientRow, query, showFile } from './store.ts';
import { ms, type Filter, type Summary } from './types.ts';
import { medicText } from './words.ts';
import { VitalValue } from './vital-value.tsx';

/** The state badge of a citizen (the game's latest state), or the file's outcome once closed. */
export function StateBadge({ s, id }: { s: Pick<Summary, 'status' | 'outcome' | 'state'>; id?: string }) {
  const t = medicText();
  if (s.status === 'closed') {
    const o = s.outcome ?? 'closed';
    return <span id={id} class={`pill badge outcome-${o}`}>{t.outcome[o] ?? o}</span>;
  }
  if (!s.state) return null;
  return <span id={id} class={`pill badge state-${s.state.state}`}>{t.state[s.state.state] ?? s.state.state}</span>;
}

/** "vor 3 min", ticking with the board's clock. */
function Since({ at }: { at: string }) {
  return <span class="since">{medicText().ago(duration(now.value - ms(at)))}</span>;
}

/** One file in the list; re-renders when this file changes or is opened/left, not for others. */
const PatientRow = memo(({ fileId }: { fileId: string }) => {
  const t = medicText();
  const s = patientRow(fileId).value;
  const selected = useComputed(() => openFile.value === fileId).value;
  if (!s) return null;
  const v = s.lastVitals;
  return (
    <li>
      <button type="button" class={`patient-row status-${s.status}${selected ? ' selected' : ''}`} data-file={s.fileId} data-citizen={s.citizenId}
        aria-current={selected ? 'true' : undefined} onClick={() => showFile(s.fileId)}>
        <span class="patient-main">
          <span class="patient-name">{s.name ?? t.unnamed}</span>
          <span class="patient-cid">{s.citizenId}</span>
        </span>
        <span class="patient-side">
          <StateBadge s={s} />
          <Since at={s.lastEventAt} />
        </span>
        <span class="patient-facts">
          <span class={s.injuries ? 'inj has' : 'inj'} data-injuries={s.injuries}>{s.injuries ? t.injuries(s.injuries) : t.noInjuriesShort}</span>
          {v && (
            <span class="patient-vitals">
              {v.heartRate !== null && <span class="vital hr" title={t.heartRate}>{t.hr} <VitalValue kind="heartRate" value={v.heartRate} /></span>}
              {v.spo2 !== null && <span class="vital spo2" title={t.spo2Label}>{t.spo2} <VitalValue kind="spo2" value={v.spo2} unit="%" /></span>}
            </span>
          )}
        </span>
      </button>
    </li>
  );
});

/** Offen / Geschlossen / Alle as one segmented control (radio buttons). */
function FilterBar() {
  const t = medicText();
  const options: [Filter, string][] = [['open', t.open], ['closed', t.closed], ['all', t.all]];
  return (
    <div class="segmented small" role="radiogroup" aria-label={t.filter} id="medic-filter">
      {options.map(([value, label]) => (
        <label class={filter.value === value ? 'seg active' : 'seg'}>
          <input type="radio" name="medic-filter" value={value} checked={filter.value === value} aria-label={label}
            onChange={() => { filter.value = value; void loadList(); }} />
          <span>{label}</span>
        </label>
      ))}
    </div>
  );
}

/** The search field: asks the server 250 ms after the last key. */
function Search() {
  const t = medicText();
  const [text, setText] = useState(query.peek());
  useEffect(() => {
    if (text === query.peek()) return;
    const timer = setTimeout(() => { query.value = text; void loadList(); }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <input id="medic-search" type="search" aria-label={t.search} placeholder={t.searchPlaceholder} value={text} maxLength={64}
      onInput={(e) => setText(e.currentTarget.value)} />
  );
}

export function PatientList() {
  const t = medicText();
  const list = listOrder.value;
  const state = listState.value;
  const [more, setMore] = useState(false);
  const empty = query.value.trim() ? t.noneFound : filter.value === 'open' ? t.noneOpen : t.none;
  return (
    <>
      <div class="medic-bar">
        <h2 id="medic-list-title">{t.title} <span class="pill" id="medic-count">{list.length}</span></h2>
        <FilterBar />
      </div>
      <Search />
      {state === 'loading' && <p class="muted">{t.loading}</p>}
      {state === 'ready' && listError.value && <p class="error" role="alert">{t.loadFailed} {listError.value}</p>}
      {state === 'error' && (
        <p class="error" role="alert">{t.loadFailed} {listError.value} <button type="button" class="small" onClick={() => void loadList()}>{t.retry}</button></p>
      )}
      {state === 'ready' && !list.length && <p class="muted" id="medic-none">{empty}</p>}
      <ul class="patients" id="medic-patients" aria-labelledby="medic-list-title">
        {list.map((n) => <PatientRow key={n} fileId={n} />)}
      </ul>
      {nextBefore.value !== null && (
        <button type="button" class="small more" id="medic-more" disabled={more}
          onClick={() => { setMore(true); void loadMore().finally(() => setMore(false)); }}>{t.more}</button>
      )}
    </>
  );
}
