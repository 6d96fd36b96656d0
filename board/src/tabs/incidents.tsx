import { useEffect } from 'preact/hooks';
import { SheetHistory } from './incidents/history.tsx';
import { SheetList } from './incidents/list.tsx';
import { SheetView } from './incidents/sheet.tsx';
import { ensureSheets, openSheet } from './incidents/store.ts';
import { incidentText } from './incidents/words.ts';
import './incidents/incidents.css';

// The sheets follow the live subscription from the board's start: a sheet taken on the calls tab,
// or changed by someone else, is current whenever this tab opens.

/**
 * Einsätze: the list of sheets (open first) and the open sheet; side by side on a desk, one at a
 * time on a phone (the sheet over the list, with a way back).
 */
export function IncidentsTab() {
  const t = incidentText();
  useEffect(() => ensureSheets(), []);
  const n = openSheet.value;
  return (
    <div class={`incidents${n !== null ? ' has-sheet' : ''}`}>
      <section class="card sheet-list" aria-labelledby="sheets-title"><SheetList /><SheetHistory /></section>
      <section class="card sheet-pane" id="sheet" aria-live="off">
        {n !== null ? <SheetView key={n} n={n} /> : <p class="muted sheet-pick">{t.pick}</p>}
      </section>
    </div>
  );
}
