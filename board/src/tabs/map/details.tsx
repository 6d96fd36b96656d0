import { useComputed } from '@preact/signals';
import { now } from '../../app/clock.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { can } from '../../app/session.ts';
import { showTab } from '../../app/shell.tsx';
import { live } from '../../live/board-live.ts';
import { takeCall, taking } from '../calls/take.ts';
import { callText } from '../calls/words.ts';
import { placeCoords, placeText, type Place } from '../incidents/location.ts';
import { openSheet, sheet } from '../incidents/store.ts';
import { frames, positions } from './positions.ts';
import { isStale } from './marks.ts';
import type { MapState } from './state.ts';
import { mapText } from './words.ts';

function Head({ title, state }: { title: preact.ComponentChildren; state: MapState }) {
  const t = mapText();
  return (
    <h3>
      {title}
      <button type="button" class="small close" aria-label={t.close} onClick={() => (state.selected.value = null)}>✕</button>
    </h3>
  );
}

function UnitDetails({ callsign, state }: { callsign: string; state: MapState }) {
  const t = mapText();
  const u = live.units.entry(callsign).value;
  frames.value; // the position's age and place change with each frame
  const p = positions.get(callsign);
  const age = useComputed(() => (p ? Math.max(0, Math.round((now.value - p.seenAt) / 1000)) : null)).value;
  if (!u) return null;
  const s = statusByCode.value.get(u.status);
  const color = s?.color ?? '#607d8b';
  const following = state.following.value === callsign;
  return (
    <div class="map-details" id="map-details" data-kind="unit" data-id={callsign} role="dialog" aria-label={`${t.unit} ${callsign}`}>
      <Head state={state} title={<><span class="swatch" style={{ background: color, color: textOn(color) }}>{u.status}</span> {callsign}</>} />
      <p>{t.status}: {s?.label ?? u.status}{u.label ? ` · ${u.label}` : ''}{u.type ? ` · ${t.type} ${u.type}` : ''}</p>
      {u.note && <p>{t.note}: {u.note}</p>}
      <p>{t.crew}: {u.members.length ? u.members.map((m) => m.nickname).join(', ') : <span class="muted">{t.noCrew}</span>}</p>
      <p class="muted" id="map-unit-position">
        {p ? <>X {Math.round(p.x)} · Y {Math.round(p.y)} · {t.age(age ?? 0)}{isStale(p, Date.now()) ? ` (${t.stale})` : ''}</> : t.noPosition}
      </p>
      {p && (
        <div class="row">
          <button type="button" class={following ? 'small' : 'primary small'} id="map-follow" aria-pressed={following}
            onClick={() => (state.following.value = following ? null : callsign)}>{following ? t.unfollow : t.follow}</button>
        </div>
      )}
    </div>
  );
}

function CallDetails({ id, state }: { id: string; state: MapState }) {
  const t = mapText();
  const ct = callText();
  const c = live.calls.entry(id).value;
  const busy = taking.value !== null;
  if (!c) return null;
  const where = [placeText(c.location as Place), placeCoords(c.location as Place)].filter(Boolean).join(' · ');
  return (
    <div class="map-details" id="map-details" data-kind="call" data-id={id} role="dialog" aria-label={`${t.call} ${c.title}`}>
      <Head state={state} title={<>{ct.kinds[c.kind]} · P{c.priority}</>} />
      <p><b>{c.title}</b></p>
      {c.message && <p>{c.message}</p>}
      {where && <p class="muted">{where}</p>}
      {can('dispatch.manage') && (
        <div class="row">
          <button type="button" class="primary small" id="map-take" disabled={busy} onClick={() => void takeCall(id, c.title)}>
            {taking.value === id ? t.taking : t.take}
          </button>
        </div>
      )}
    </div>
  );
}

function IncidentDetails({ n, state }: { n: number; state: MapState }) {
  const t = mapText();
  const s = sheet(n).value;
  if (!s) return null;
  const open = () => {
    openSheet.value = n;
    showTab('incidents');
  };
  return (
    <div class="map-details" id="map-details" data-kind="incident" data-id={String(n)} role="dialog" aria-label={`${t.incident} ${n}`}>
      <Head state={state} title={<>{t.incident} {n} · {s.keyword}</>} />
      <p class="muted">{t.priority(s.priority)}{placeText(s.location as Place) ? ` · ${placeText(s.location as Place)}` : ''}</p>
      {s.units.length ? (
        <ul id="map-incident-units">
          {s.units.map((u) => <li>{u.callsign}{u.label ? ` (${u.label})` : ''} – {u.alarmedAt !== null ? t.alarmed : t.assigned}</li>)}
        </ul>
      ) : <p class="muted">{t.noUnits}</p>}
      <div class="row">
        {can('dispatch.manage') && <button type="button" class="primary small" id="map-alarm" onClick={open}>{t.alarm}</button>}
        <button type="button" class="small" id="map-open-sheet" onClick={open}>{t.openSheet}</button>
      </div>
    </div>
  );
}

/** The details of the selected marker, with what can be done about it. */
export function Details({ state }: { state: MapState }) {
  const sel = state.selected.value;
  if (!sel) return null;
  if (sel.kind === 'unit') return <UnitDetails callsign={sel.id} state={state} />;
  if (sel.kind === 'call') return <CallDetails id={sel.id} state={state} />;
  return <IncidentDetails n={sel.id} state={state} />;
}
