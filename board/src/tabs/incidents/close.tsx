import { useState } from 'preact/hooks';
import { api, httpStatusOf, messageOf } from '../../app/api.ts';
import { statuses } from '../../app/catalogue.ts';
import { can } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { alarmText } from './alarm-words.ts';
import { loadTimeline, openOrder, sheet, writeSheet, type Sheet } from './store.ts';
import { incidentText } from './words.ts';

/** Statuses a released unit may go to: those the catalogue marks available (AAO), else FMS 1 and 2. */
function freeStatuses() {
  const all = statuses.value;
  const marked = all.filter((s) => (s as { available?: boolean }).available === true);
  return (marked.length ? marked : all.filter((s) => s.code === '1' || s.code === '2')).filter((s) => !s.alarm);
}

/** The open sheet, other than `n`, that has `callsign` on it now (the unit moved on), if any. */
function otherSheetOf(callsign: string, n: number): number | null {
  for (const m of openOrder.value) {
    if (m !== n && sheet(m).value?.units.some((u) => u.callsign === callsign)) return m;
  }
  return null;
}

/**
 * Close with one confirmation that also asks which units are free again ("freigeben"). Releasing
 * means: the sheet is closed first (a stale version or a failure changes no unit), then each unit
 * ticked gets the chosen free status (FMS 1 by default) through the dispatcher's status route. The
 * units stay on the closed sheet, as its record of who was there (and the history search finds
 * them). Units already free, or now on another open sheet, are not offered. Without
 * dispatch.manage the sheet is only closed.
 */
export function CloseSheet({ s }: { s: Sheet }) {
  const t = incidentText();
  const a = alarmText();
  const action = useAction();
  const [asking, setAsking] = useState(false);
  const free = freeStatuses();
  const offered = can('dispatch.manage') && free.length
    ? s.units.filter((u) => {
      const status = live.units.peek(u.callsign)?.status;
      return status !== undefined && !free.some((f) => f.code === status) && otherSheetOf(u.callsign, s.number) === null;
    }).map((u) => u.callsign)
    : [];
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [to, setTo] = useState<string>('');
  const picked = offered.filter((c) => (chosen ?? new Set(offered)).has(c));
  const target = to || free[0]?.code || '1';

  const close = async () => {
    const done = await action.run(async () => {
      try {
        await writeSheet(() => api.incidents.close.mutate({ number: s.number, version: s.version }));
      } catch (err) {
        if (httpStatusOf(err) === 409) await loadTimeline(s.number).catch(() => {});
        throw err;
      }
      const failed: string[] = [];
      for (const callsign of picked) {
        try {
          await api.units.setStatus.mutate({ callsign, status: target });
        } catch (err) {
          failed.push(`${callsign} (${messageOf(err)})`);
        }
      }
      if (failed.length) throw new Error(a.releaseFailed(failed.join('; ')));
      return picked.length ? a.releasedOk(s.number, picked.map((c) => `${c} → ${target}`).join(', ')) : t.closedOk(s.number);
    }, (msg) => msg);
    if (done) setAsking(false);
  };
  const toggle = (c: string) => {
    const next = new Set(chosen ?? offered);
    if (next.has(c)) next.delete(c);
    else next.add(c);
    setChosen(next);
  };

  // Closed (by this close, or by someone else): only the outcome of this board's close stays.
  if (s.state !== 'open') return action.ok || action.error ? <div class="sheet-close"><Result action={action} id="close-result" /></div> : null;
  return (
    <div class="sheet-close">
      {!asking ? <button type="button" class="danger" id="sheet-close" onClick={() => { setChosen(null); setAsking(true); }}>{t.close}</button> : (
        <div class="close-ask" role="group" aria-label={t.closeConfirm}>
          <p>{t.closeConfirm}</p>
          {offered.length > 0 && (
            <fieldset class="release-units" id="release-units">
              <legend>{a.release}</legend>
              <p class="muted">{a.releaseHint}</p>
              {offered.map((c) => (
                <label class="release-unit"><input type="checkbox" data-release-unit={c} checked={picked.includes(c)} onChange={() => toggle(c)} /> {c}</label>
              ))}
              <label>{a.releaseTo}
                <select id="release-status" value={target} onChange={(e) => setTo(e.currentTarget.value)}>
                  {free.map((f) => <option value={f.code}>{f.code} – {f.label}</option>)}
                </select>
              </label>
            </fieldset>
          )}
          <div class="row">
            <button type="button" class="danger" id="sheet-close-yes" disabled={action.busy} onClick={() => void close()}>
              {offered.length ? a.closeRelease(picked.length) : t.yesClose}
            </button>
            <button type="button" onClick={() => setAsking(false)}>{t.cancel}</button>
          </div>
        </div>
      )}
      <Result action={action} id="close-result" />
    </div>
  );
}
