import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { live } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { writeSheet, type Sheet } from './store.ts';
import { incidentText } from './words.ts';

/** A unit's current FMS status beside its callsign, live. */
function UnitStatus({ callsign }: { callsign: string }) {
  const u = live.units.entry(callsign).value;
  if (!u) return null;
  const s = statusByCode.value.get(u.status);
  const color = s?.color ?? '#666';
  return <span class={`unit-status${s?.alarm ? ' alarm' : ''}`} style={{ background: color, color: textOn(color) }} title={s?.label ?? ''}>{u.status}</span>;
}

/** Units assigned to the sheet; assign one of the guild's units, release one. */
export function SheetUnits({ s, canEdit }: { s: Sheet; canEdit: boolean }) {
  const t = incidentText();
  const action = useAction();
  const [pick, setPick] = useState('');
  const assigned = new Set(s.units.map((u) => u.callsign.toLowerCase()));
  const known = live.units.keys.value;
  const free = known.filter((c) => !assigned.has(c.toLowerCase())).sort((a, b) => a.localeCompare(b, 'de', { numeric: true }));
  const assign = async (e: Event) => {
    e.preventDefault();
    const callsign = pick.trim();
    if (!callsign) return;
    const done = await action.run(() => writeSheet(() => api.incidents.assignUnit.mutate({ number: s.number, callsign })), () => t.assigned(callsign));
    if (done) setPick('');
  };
  const release = async (callsign: string) => {
    await action.run(() => writeSheet(() => api.incidents.releaseUnit.mutate({ number: s.number, callsign })), () => t.released(callsign));
  };
  return (
    <section class="sheet-units-box" aria-labelledby="sheet-units-title">
      <h3 id="sheet-units-title">{t.units} <span class="pill">{s.units.length}</span></h3>
      {s.units.length === 0 ? <p class="muted" id="sheet-no-units">{t.noUnits}</p> : (
        <ul class="assigned" id="sheet-units">
          {s.units.map((u) => (
            <li class="assigned-unit" data-unit={u.callsign}>
              <UnitStatus callsign={u.callsign} />
              <b>{u.callsign}</b> <span class="muted">{u.label}</span>
              {canEdit && <button type="button" class="small release" data-release={u.callsign} aria-label={t.release(u.callsign)} title={t.release(u.callsign)} disabled={action.busy} onClick={() => void release(u.callsign)}>✕</button>}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form class="row assign" onSubmit={assign}>
          {known.length ? (
            <select id="assign-unit" aria-label={t.unit} value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
              <option value="">{t.chooseUnit}</option>
              {free.map((c) => <option value={c}>{c}{live.units.peek(c)?.label ? ` – ${live.units.peek(c)!.label}` : ''}</option>)}
            </select>
          ) : (
            <input id="assign-unit" aria-label={t.unit} placeholder={t.unit} maxLength={32} value={pick} onInput={(e) => setPick(e.currentTarget.value)} />
          )}
          <button type="submit" id="assign" disabled={!pick.trim() || action.busy}>{t.assign}</button>
        </form>
      )}
      <Result action={action} id="units-result" />
    </section>
  );
}
