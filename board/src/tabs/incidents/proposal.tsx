import './proposal.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../../app/api.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { can } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { live } from '../../live/board-live.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { aaoKeywords, aaoRevision, linkAao } from '../settings/aao-state.ts';
import { aaoText } from '../settings/aao-words.ts';
import { writeSheet, type Sheet } from './store.ts';

type Proposal = Out['aao']['proposal'];
type Unit = Proposal['units'][number];

/**
 * What the sheet's state and the units' statuses are now, as one string: the proposal is read
 * again when it changes (a unit alarmed, released, or changing status; the keyword edited).
 */
function stateKey(s: Sheet): string {
  const units = live.units.values().map((u) => `${u.callsign}:${u.status}:${u.type ?? ''}:${u.members.length}`).join(',');
  return `${s.keyword}|${s.version}|${s.units.map((u) => `${u.callsign}:${u.alarmedAt ?? ''}`).join(',')}|${units}|${aaoRevision.value}`;
}

function UnitChoice({ u, checked, onToggle, disabled }: { u: Unit; checked: boolean; onToggle: (on: boolean) => void; disabled: boolean }) {
  const t = aaoText();
  const s = statusByCode.value.get(u.status);
  const color = s?.color ?? '#666';
  return (
    <li class={`proposal-unit${u.crew ? '' : ' crewless'}`} data-unit={u.callsign}>
      <label>
        <input type="checkbox" data-propose={u.callsign} checked={checked} disabled={disabled} onChange={(e) => onToggle((e.target as HTMLInputElement).checked)} />
        <span class="unit-status" style={{ background: color, color: textOn(color) }} title={s?.label ?? ''}>{u.status}</span>
        <b>{u.callsign}</b>
        <span class="pill type">{u.type}</span>
        <span class="muted">{[u.orgUnit, u.crew ? '' : t.crewless, u.distance !== null ? t.distance(u.distance) : ''].filter(Boolean).join(' · ')}</span>
      </label>
    </li>
  );
}

/**
 * The AAO proposal of an open sheet: the units to alarm, ticked (the dispatcher may untick them or
 * tick others of the required types), what is missing ("NEF fehlt"), and one button that alarms
 * the ticked units (POST /incidents/{number}/alarm). Read again whenever the sheet or a unit changes.
 */
export function ProposalPanel({ s }: { s: Sheet }) {
  const t = aaoText();
  const action = useAction();
  const [p, setP] = useState<Proposal | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  /** The dispatcher's own ticks, over the proposal's. */
  const [ticks, setTicks] = useState<Record<string, boolean>>({});
  const asked = useRef(0);
  useEffect(() => linkAao(), []);
  const key = stateKey(s);
  useEffect(() => {
    const mine = ++asked.current;
    const timer = setTimeout(() => {
      api.aao.proposal.query({ number: s.number })
        .then((next) => { if (mine === asked.current) { setP(next); setFailed(null); } })
        .catch((err) => { if (mine === asked.current) setFailed(messageOf(err)); });
    }, p ? 150 : 0);
    return () => clearTimeout(timer);
  }, [key, s.number]);
  useEffect(() => setTicks({}), [s.number]);
  if (s.state !== 'open') return null;
  if (!p) return failed ? <p class="error" id="proposal-error">{failed}</p> : null;
  if (!p.matched) return aaoKeywords.value.length ? <p class="muted proposal-none" id="sheet-proposal-none">{t.noMatch}</p> : null;

  const mayAlarm = can('dispatch.manage');
  const ticked = (u: Unit) => ticks[u.callsign] ?? u.proposed;
  const chosen = p.units.filter(ticked).map((u) => u.callsign);
  const tick = (callsign: string, on: boolean) => setTicks({ ...ticks, [callsign]: on });
  const alarm = async () => {
    const done = await action.run(() => writeSheet(() => api.incidents.alarm.mutate({ number: s.number, callsigns: chosen })), () => t.alarmed(chosen.join(', ')));
    if (done) setTicks({});
  };
  const proposed = p.units.filter((u) => u.proposed);
  const others = p.units.filter((u) => !u.proposed);
  return (
    <section class="sheet-proposal" id="sheet-proposal" aria-labelledby="proposal-title">
      <h3 id="proposal-title">{t.proposal}</h3>
      <p class="muted" id="proposal-matched">{t.matched(p.matched.keyword, p.matched.priority)}</p>
      {p.missing.length > 0 && (
        <ul class="proposal-missing" id="proposal-missing">
          {p.missing.map((m) => <li data-type={m.type}>{t.missing(m.count, m.type)}</li>)}
        </ul>
      )}
      {p.requirements.some((r) => r.onSheet.length) && (
        <p class="muted proposal-on-sheet">{t.onSheet(p.requirements.flatMap((r) => r.onSheet).join(', '))}</p>
      )}
      {proposed.length === 0 && p.missing.length === 0 && <p class="ok" id="proposal-complete">{t.complete}</p>}
      {proposed.length > 0 && (
        <ul class="proposal-units" id="proposal-units">
          {proposed.map((u) => <UnitChoice u={u} checked={ticked(u)} disabled={!mayAlarm || action.busy} onToggle={(on) => tick(u.callsign, on)} />)}
        </ul>
      )}
      {others.length > 0 && (
        <details class="proposal-others" open={p.missing.length > 0 || others.some(ticked)}>
          <summary>{t.others} <span class="pill">{others.length}</span></summary>
          <ul class="proposal-units">
            {others.map((u) => <UnitChoice u={u} checked={ticked(u)} disabled={!mayAlarm || action.busy} onToggle={(on) => tick(u.callsign, on)} />)}
          </ul>
        </details>
      )}
      {mayAlarm && p.units.length > 0 && (
        <button type="button" class="primary proposal-alarm" id="proposal-alarm" disabled={action.busy || chosen.length === 0} onClick={() => void alarm()}>
          {t.alarm} <span class="pill">{chosen.length}</span>
        </button>
      )}
      <Result id="proposal-result" action={action} />
    </section>
  );
}
