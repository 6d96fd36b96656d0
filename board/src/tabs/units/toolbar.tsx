import { memo } from 'preact/compat';
import { statuses } from '../../app/catalogue.ts';
import { can } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { compact, filtering, matchCount, myUnit, query, selected, setCompact, statusFilter } from './state.ts';
import { text } from './text.ts';

/** "12 of 200" while a filter is on, else the number of units. */
function Count() {
  const t = text();
  const all = live.units.keys.value.length;
  return <span class="pill" id="units-count">{filtering.value ? t.shown(matchCount.value, all) : all}</span>;
}

/** Which unit the signed-in person occupies; a click chooses it. */
function MyUnitLine() {
  const t = text();
  const mine = myUnit.value;
  if (!can('timeclock.own.use')) return null;
  return (
    <p id="my-unit" class="muted">
      {mine ? <>{t.youOccupy} <button type="button" class="link" onClick={() => (selected.value = mine)}>{mine}</button></> : t.notInUnit}
    </p>
  );
}

/** Title, search, status filter, the person's own unit and the keyboard help. */
export const Toolbar = memo(() => {
  const t = text();
  return (
    <section class="card units-bar" aria-labelledby="units-title">
      <h2 id="units-title">{t.title} <Count /></h2>
      <div class="row filters">
        <label class="search">{t.search}
          <input id="unit-search" type="search" placeholder={t.searchPlaceholder} value={query.value} autoComplete="off"
            onInput={(e) => (query.value = (e.target as HTMLInputElement).value)}
            onKeyDown={(e) => e.key === 'Escape' && (query.value = '')} />
        </label>
        <label>{t.statusFilter}
          <select id="unit-status-filter" value={statusFilter.value} onChange={(e) => (statusFilter.value = (e.target as HTMLSelectElement).value)}>
            <option value="">{t.allStatuses}</option>
            {statuses.value.map((s) => <option value={s.code}>{s.code} – {s.label}</option>)}
          </select>
        </label>
        <button id="units-compact" type="button" aria-pressed={compact.value} onClick={() => setCompact(!compact.value)}>{t.compact}</button>
        <MyUnitLine />
      </div>
      <p id="units-help" class="muted help">{can('dispatch.manage') ? t.help : t.helpCrew}</p>
    </section>
  );
});
