import { useState } from 'preact/hooks';
import { api, reasonOf } from '../../app/api.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { can } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { AlarmTimes, useNow } from './alarm-times.tsx';
import { alarmText } from './alarm-words.ts';
import { writeSheet, type Sheet } from './store.ts';
import { incidentText } from './words.ts';
import { incidentLimits } from '../../../../contract/limits.ts';

/** A unit's current FMS status beside its callsign, live. */
function UnitStatus({ callsign }: { callsign: string }) {
  const u = live.units.entry(callsign).value;
  if (!u) return null;
  const s = statusByCode.value.get(u.status);
  const color = s?.color ?? '#666';
  return <span class={`unit-status${s?.alarm ? ' alarm' : ''}`} style={{ background: color, color: textOn(color) }} title={s?.label ?? ''}>{u.status}</span>;
}

/** Units the server refused because they are on another open sheet: alarm them here with force? */
interface Elsewhere { callsigns: string[]; units: string; sheets: string }

/**
 * Units assigned to the sheet with their alarm (alarmed at, acknowledged at, the time between, an
 * alarm not acknowledged within the guild's alarmAckTimeoutS in red); assign a unit, assign and
 * alarm it, alarm one or all (again), release one. A unit on another open sheet is alarmed only
 * after the dispatcher confirms (then with force: it leaves that sheet).
 */
export function SheetUnits({ s, canEdit }: { s: Sheet; canEdit: boolean }) {
  const t = incidentText();
  const a = alarmText();
  const action = useAction();
  const [pick, setPick] = useState('');
  const [elsewhere, setElsewhere] = useState<Elsewhere | null>(null);
  const open = s.state === 'open';
  const canAlarm = open && can('dispatch.manage');
  const now = useNow(open && s.units.some((u) => u.alarmedAt !== null && u.acknowledgedAt === null));
  const assigned = new Set(s.units.map((u) => u.callsign.toLowerCase()));
  const known = live.units.keys.value;
  const free = known.filter((c) => !assigned.has(c.toLowerCase())).sort((x, y) => x.localeCompare(y, 'de', { numeric: true }));

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
  /** POST /incidents/{n}/alarm; a 409 unit_on_other_incident asks first, then `force` alarms anyway. */
  const alarm = async (callsigns: string[], force = false) => {
    setElsewhere(null);
    const box: { asked: Elsewhere | null } = { asked: null };
    const done = await action.run(async () => {
      try {
        return await writeSheet(() => api.incidents.alarm.mutate({ number: s.number, callsigns, ...(force ? { force: true } : {}) }));
      } catch (err) {
        const why = reasonOf(err);
        if (why?.reason === 'unit_on_other_incident') {
          box.asked = { callsigns, units: why.params.units ?? callsigns.join(', '), sheets: why.params.sheets ?? '?' };
          return null;
        }
        if (why?.reason === 'no_alarm_status') throw new Error(a.noAlarmStatus);
        throw err;
      }
    }, (r) => (r ? a.alarmed(callsigns.join(', ')) : null));
    if (box.asked) setElsewhere(box.asked);
    if (done && callsigns.includes(pick)) setPick('');
  };
  const alarmable = s.units.slice(0, incidentLimits.alarmUnits).map((u) => u.callsign);

  return (
    <section class="sheet-units-box" aria-labelledby="sheet-units-title">
      <div class="units-head">
        <h3 id="sheet-units-title">{t.units} <span class="pill">{s.units.length}</span></h3>
        {canAlarm && s.units.length > 1 && (
          <button type="button" class="small alarm-btn" id="alarm-all" disabled={action.busy} onClick={() => void alarm(alarmable)}>{a.alarmAll}</button>
        )}
      </div>
      {s.units.length === 0 ? <p class="muted" id="sheet-no-units">{t.noUnits}</p> : (
        <ul class="assigned" id="sheet-units">
          {s.units.map((u) => (
            <li class={`assigned-unit${u.alarmedAt !== null && u.acknowledgedAt === null ? ' pending' : ''}`} data-unit={u.callsign}>
              <div class="unit-line">
                <UnitStatus callsign={u.callsign} />
                <b>{u.callsign}</b> <span class="muted unit-label">{u.label}</span>
                <span class="unit-actions">
                  {canAlarm && (
                    <button type="button" class="small alarm-btn" data-alarm={u.callsign} disabled={action.busy}
                      aria-label={u.alarmedAt ? a.realarmOf(u.callsign) : a.alarmOf(u.callsign)} onClick={() => void alarm([u.callsign])}>
                      {u.alarmedAt ? a.realarm : a.alarm}
                    </button>
                  )}
                  {canEdit && <button type="button" class="small release" data-release={u.callsign} aria-label={t.release(u.callsign)} title={t.release(u.callsign)} disabled={action.busy} onClick={() => void release(u.callsign)}>✕</button>}
                </span>
              </div>
              <AlarmTimes u={u} timeoutS={s.alarmAckTimeoutS ?? 60} now={now} open={open} />
            </li>
          ))}
        </ul>
      )}
      {elsewhere && (
        <div class="alarm-confirm" id="alarm-confirm" role="alertdialog" aria-labelledby="alarm-confirm-text">
          <p id="alarm-confirm-text">{a.elsewhere(elsewhere.units, elsewhere.sheets)}</p>
          <div class="row">
            <button type="button" class="danger" id="alarm-force" disabled={action.busy} onClick={() => void alarm(elsewhere.callsigns, true)}>{a.force}</button>
            <button type="button" id="alarm-cancel" onClick={() => setElsewhere(null)}>{a.cancel}</button>
          </div>
        </div>
      )}
      {(canEdit || canAlarm) && (
        <form class="row assign" onSubmit={canEdit ? assign : (e) => { e.preventDefault(); void alarm([pick.trim()]); }}>
          {known.length ? (
            <select id="assign-unit" aria-label={t.unit} value={free.includes(pick) ? pick : ''} onChange={(e) => setPick(e.currentTarget.value)}>
              <option value="">{t.chooseUnit}</option>
              {free.map((c) => <option value={c}>{c}{live.units.peek(c)?.label ? ` – ${live.units.peek(c)!.label}` : ''}</option>)}
            </select>
          ) : (
            <input id="assign-unit" aria-label={t.unit} placeholder={t.unit} maxLength={32} value={pick} onInput={(e) => setPick(e.currentTarget.value)} />
          )}
          {canEdit && <button type="submit" id="assign" disabled={!pick.trim() || action.busy}>{t.assign}</button>}
          {canAlarm && (
            <button type="button" class="alarm-btn" id="assign-alarm" disabled={!pick.trim() || action.busy} onClick={() => void alarm([pick.trim()])}>{a.assignAlarm}</button>
          )}
        </form>
      )}
      <Result action={action} id="units-result" />
    </section>
  );
}
