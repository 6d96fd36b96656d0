import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { occupiedUnit } from '../../alarm/feed.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { StatusPicker } from './picker.tsx';
import { text } from './text.ts';

/**
 * For crews whose rank may not watch the fleet (no `dispatch.view`): occupy a unit by callsign,
 * leave it, and set its status (`PUT /me/unit-status`). Which unit they are in comes from their
 * alarm state (`unit` of me.alarm.watch), live.
 */
export function OwnUnit() {
  const t = text();
  const action = useAction();
  const remembered = occupiedUnit.value ?? '';
  const [callsign, setCallsign] = useState(remembered);
  const cs = callsign.trim();
  const join = () => action.run(() => api.units.join.mutate({ callsign: cs }), (r) => t.joined(r.callsign ?? cs));
  const leave = () => action.run(() => api.units.leave.mutate({}), (r) => t.left(r.left ?? cs));
  const pick = (code: string) => action.run(() => api.units.selfStatus.mutate({ callsign: remembered, status: code }), (r) => t.statusSet(r.callsign, r.status, r.statusLabel));
  // The digits set the status here too (not while typing in a field), as on the fleet view.
  const onDigit = useRef<(code: string) => void>(() => {});
  onDigit.current = (code) => remembered && !action.busy && void pick(code);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.altKey || e.ctrlKey || e.metaKey || e.repeat || !/^[0-9]$/.test(e.key)) return;
      if (target.closest('input, textarea, select, [contenteditable="true"], nav')) return;
      onDigit.current(e.key);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section id="own-unit" class="card" aria-labelledby="own-unit-title">
      <h2 id="own-unit-title">{t.ownTitle}</h2>
      <p class="muted">{remembered ? t.ownRemembered(remembered) : t.ownHint}</p>
      <div class="row">
        <label class="grow">{t.ownCallsign}
          <input id="own-callsign" value={callsign} maxLength={24} autoComplete="off" onInput={(e) => setCallsign((e.target as HTMLInputElement).value)} />
        </label>
        <button id="own-join" type="button" class="primary" disabled={!cs || action.busy} onClick={() => void join()}>{t.occupy}</button>
        <button id="own-leave" type="button" disabled={action.busy} onClick={() => void leave()}>{t.leave}</button>
      </div>
      {remembered && <h3>{t.statusOf(remembered)}</h3>}
      {remembered && <StatusPicker current={null} busy={action.busy} onPick={(code) => void pick(code)} />}
      <Result id="own-result" action={action} />
    </section>
  );
}
