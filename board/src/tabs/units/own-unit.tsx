import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { crewIncident, occupiedStatus, occupiedUnit } from '../../alarm/feed.ts';
import { Address, SinceAlarm, Timeline, UnitList, words } from '../../alarm/incident-parts.tsx';
import { Result, useAction } from '../../ui/action.tsx';
import { crewText } from './crew-text.ts';
import { StatusPicker } from './picker.tsx';

type CrewUnit = Awaited<ReturnType<typeof api.units.crewList.query>>['units'][number];

/**
 * "Mein Fahrzeug": a crew member's own unit. Without one: the units to choose from (never a typed
 * callsign). With one: its current status highlighted, large status buttons (also the digit keys),
 * a note for the desk sent with the next status (e.g. 5 Sprechwunsch), and the incident it was
 * alarmed for, live. Which unit, its status and the incident come from the alarm state.
 */
export function OwnUnit() {
  const unit = occupiedUnit.value;
  return (
    <section id="own-unit" class="card own-unit" aria-labelledby="own-unit-title">
      <h2 id="own-unit-title">{crewText().title}</h2>
      {unit ? <Occupied key={unit} unit={unit} /> : <Chooser />}
    </section>
  );
}

function Chooser() {
  const t = crewText();
  const action = useAction();
  const [units, setUnits] = useState<CrewUnit[] | null>(null);
  useEffect(() => {
    api.units.crewList.query().then((r) => setUnits(r.units)).catch(() => setUnits([]));
  }, []);
  const join = (c: string) => action.run(() => api.units.join.mutate({ callsign: c }), (r) => t.joined(r.callsign ?? c));
  if (!units) return <p class="muted">{t.loading}</p>;
  if (!units.length) return <p class="muted" id="own-no-units">{t.none}</p>;
  const stations = [...new Set(units.map((u) => u.orgUnit))];
  return (
    <div class="own-choose">
      <h3>{t.choose}</h3>
      <p class="muted">{t.chooseHint}</p>
      {stations.map((station) => (
        <div class="own-station" key={station}>
          {station && <h4>{station}</h4>}
          <ul class="own-units">
            {units.filter((u) => u.orgUnit === station).map((u) => (
              <li key={u.callsign}>
                <button type="button" class="own-pick" data-callsign={u.callsign} aria-label={t.occupy(u.callsign)} disabled={action.busy} onClick={() => void join(u.callsign)}>
                  <b class="cs">{u.callsign}</b>
                  <span class="lbl">{u.label}</span>
                  <span class="st"><Code code={u.status} /> {u.statusLabel ?? ''}</span>
                  <span class="cr">{t.crew(u.crew)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <Result id="own-result" action={action} />
    </div>
  );
}

function Code({ code }: { code: string }) {
  const color = statusByCode.value.get(code)?.color ?? '#555555';
  return <span class="code-chip" style={{ background: color, color: textOn(color) }}>{code}</span>;
}

function Occupied({ unit }: { unit: string }) {
  const t = crewText();
  const action = useAction();
  const [note, setNote] = useState('');
  const code = occupiedStatus.value;
  const status = code ? statusByCode.value.get(code) : undefined;
  const pick = (next: string) => {
    const sent = note.trim();
    return action.run(async () => {
      const r = await api.units.selfStatus.mutate({ callsign: unit, status: next, ...(sent ? { note: sent } : {}) });
      setNote('');
      return r;
    }, (r) => (r.note ? `${t.statusSet(r.callsign, r.status, r.statusLabel)} ${t.noteSent(r.note)}` : t.statusSet(r.callsign, r.status, r.statusLabel)));
  };
  const leave = () => action.run(() => api.units.leave.mutate({}), (r) => t.left(r.left ?? unit));
  // The digits set the status here too (not while typing in a field), as on the fleet view.
  const onDigit = useRef<(code: string) => void>(() => {});
  onDigit.current = (c) => !action.busy && void pick(c);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.altKey || e.ctrlKey || e.metaKey || e.repeat || !/^[0-9]$/.test(e.key)) return;
      if (target.closest('input, textarea, select, [contenteditable="true"], nav, [role="dialog"]')) return;
      onDigit.current(e.key);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const color = status?.color ?? '#555555';
  return (
    <div class="own-occupied">
      <div class="own-head" style={{ background: color, color: textOn(color) }} id="own-current">
        <b class="cs">{unit}</b>
        <span class="now"><span class="lbl">{t.current}:</span> <b class="code">{code ?? '–'}</b> {status?.label ?? (code ? '' : t.statusUnknown)}</span>
      </div>
      <h3>{t.status}</h3>
      <StatusPicker current={code} busy={action.busy} large only={(c) => /^[0-9]$/.test(c)} onPick={(c) => void pick(c)} />
      <label class="own-note">{t.note}
        <input id="own-note" value={note} maxLength={200} autoComplete="off" placeholder={t.notePlaceholder} onInput={(e) => setNote((e.target as HTMLInputElement).value)} />
      </label>
      <Result id="own-result" action={action} />
      <div class="row"><button id="own-leave" type="button" disabled={action.busy} onClick={() => void leave()}>{t.leave}</button></div>
      <CurrentIncident unit={unit} />
    </div>
  );
}

/** The incident the unit was last alarmed for, live: keyword, priority, address, message, units, timeline. */
function CurrentIncident({ unit }: { unit: string }) {
  const t = crewText();
  const w = words();
  const inc = crewIncident.value;
  return (
    <section id="own-incident" class="own-incident" aria-labelledby="own-incident-title">
      <h3 id="own-incident-title">{t.incident}</h3>
      {!inc ? <p class="muted">{t.noIncident}</p> : (
        <>
          <p class="oi-head"><b>{w.incident(inc.number)}</b> · <span>{w.priority[inc.priority] ?? inc.priority}</span> · <SinceAlarm at={inc.alarmedAt} /></p>
          <p class="oi-keyword" id="own-incident-keyword">{inc.keyword}</p>
          <Address place={inc.location} id="own-incident-address" />
          {inc.message && <p class="oi-message"><b>{t.message}:</b> {inc.message}</p>}
          <h4>{t.units}</h4>
          <UnitList own={unit} incident={inc} />
          <h4>{t.timeline}</h4>
          <Timeline incident={inc} max={50} />
        </>
      )}
    </section>
  );
}
