import { useEffect } from 'preact/hooks';
import { PatientFile } from './medic/file.tsx';
import { PatientList } from './medic/list.tsx';
import { linkMedicLive, openFile } from './medic/store.ts';
import { medicText } from './medic/words.ts';
import './medic/medic.css';

/**
 * Medic: the patient files the game sends (POST /medic/events), the list beside the open file on
 * a desk, one at a time on a phone. Both follow topic `medic` while the tab is open.
 */
export function MedicTab() {
  const t = medicText();
  useEffect(() => linkMedicLive(), []);
  const n = openFile.value;
  return (
    <div class={`medic${n !== null ? ' has-file' : ''}`}>
      <section class="card patient-list" aria-labelledby="medic-list-title"><PatientList /></section>
      <section class="card file-pane" id="medic-file">
        {n !== null ? <PatientFile fileId={n} /> : <p class="muted file-pick">{t.pick}</p>}
      </section>
    </div>
  );
}
