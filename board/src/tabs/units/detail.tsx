import { api } from '../../app/api.ts';
import { clockTime } from '../../app/i18n.ts';
import { access, can } from '../../app/session.ts';
import { live, watching } from '../../live/board-live.ts';
import type { UnitEntry } from '../../live/entries.ts';
import { Result, type ActionState } from '../../ui/action.tsx';
import { StatusPicker } from './picker.tsx';
import { myUnit, selected } from './state.ts';
import { Since, statusLook } from './tile.tsx';
import { text } from './text.ts';

export type Run = <T>(fn: () => Promise<T>, ok?: (result: T) => string | null) => Promise<T | undefined>;
interface Props { action: ActionState; resultFor: string | null; run: Run; setStatus: (callsign: string, code: string) => void }
const idle: ActionState = { busy: false, ok: null, error: null, status: null };

/** Dispatchers put people on duty into a unit and take them out of it. */
function Crew({ u, run }: { u: UnitEntry; run: Run }) {
  const t = text();
  const manage = can('dispatch.manage');
  const me = access.value?.userId;
  const free = manage && watching.value.includes('onDuty')
    ? live.onDuty.values().filter((p) => !u.members.some((m) => m.id === p.userId)).sort((a, b) => a.nickname.localeCompare(b.nickname))
    : [];
  const add = (userId: string) => {
    const name = live.onDuty.peek(userId)?.nickname ?? userId;
    void run(() => api.units.addMember.mutate({ callsign: u.callsign, userId }), () => t.added(name, u.callsign));
  };
  return (
    <div class="crew">
      <h3>{t.members}</h3>
      <ul class="crew-list">
        {u.members.length === 0 && <li class="muted">{t.unmanned}</li>}
        {u.members.map((m) => (
          <li>
            <span>{m.nickname}{m.id === me && <span class="you"> ({t.you})</span>}</span>
            {manage && (
              <button type="button" class="small danger" aria-label={t.remove(m.nickname)} title={t.remove(m.nickname)}
                onClick={() => void run(() => api.units.removeMember.mutate({ callsign: u.callsign, userId: m.id }), () => t.removed(m.nickname, u.callsign))}>×</button>
            )}
          </li>
        ))}
      </ul>
      {free.length > 0 && (
        <label>{t.addMember}
          <select id="unit-add-member" value="" onChange={(e) => { const v = (e.target as HTMLSelectElement).value; if (v) add(v); }}>
            <option value="">{t.addPlaceholder}</option>
            {free.map((p) => <option value={p.userId}>{p.nickname} ({p.badge})</option>)}
          </select>
        </label>
      )}
    </div>
  );
}

/**
 * The chosen unit: its status with the picker (for whoever may set it), occupy or leave, the crew.
 * A side panel on a desk, a sheet at the bottom of a phone.
 */
export function UnitDetail({ action, resultFor, run, setStatus }: Props) {
  const t = text();
  const callsign = selected.value;
  const u = callsign ? live.units.entry(callsign).value : undefined;
  if (!callsign) {
    return <aside id="unit-detail" class="unit-detail card empty" aria-label={t.setStatus}><p class="muted">{t.chooseUnit}</p></aside>;
  }
  const close = <button type="button" class="small close" aria-label={t.close} onClick={() => (selected.value = null)}>×</button>;
  if (!u) {
    return <aside id="unit-detail" class="unit-detail card" aria-label={callsign}><div class="detail-head"><h2>{callsign}</h2>{close}</div><p class="muted">{t.gone}</p></aside>;
  }
  const { status, style } = statusLook(u.status);
  const me = access.value?.userId;
  const isMine = !!me && u.members.some((m) => m.id === me);
  const canSet = can('dispatch.manage') || isMine;
  const current = myUnit.value;
  const join = () => run(() => api.units.join.mutate({ callsign: u.callsign }), (r) => t.joined(r.callsign ?? u.callsign));
  const leave = () => run(() => api.units.leave.mutate({}), (r) => t.left(r.left ?? u.callsign));
  return (
    <aside id="unit-detail" class={`unit-detail card${status?.alarm ? ' alarm' : ''}`} aria-labelledby="unit-detail-title" data-callsign={u.callsign}>
      <div class="detail-head" style={style}>
        <h2 id="unit-detail-title">{u.callsign}</h2>
        <span class="detail-status"><b>{u.status}</b> {status?.label ?? ''}</span>
        {close}
      </div>
      <p class="muted">{[u.label, u.orgUnit].filter(Boolean).join(' · ')}</p>
      <p class="muted">{t.inStatus}: {clockTime(u.since)} · <Since at={u.since} /></p>
      {u.note && <p class="unit-note" id="unit-detail-note"><b>{t.note}:</b> {u.note}</p>}
      {canSet
        ? <StatusPicker current={u.status} busy={action.busy} onPick={(code) => setStatus(u.callsign, code)} />
        : <p class="muted" id="no-status-right">{t.noStatusRight}</p>}
      {can('timeclock.own.use') && (
        <div class="row occupy">
          {isMine
            ? <button id="unit-leave" type="button" disabled={action.busy} onClick={() => void leave()}>{t.leave}</button>
            : <button id="unit-join" type="button" class="primary" disabled={action.busy} onClick={() => void join()}>{current ? t.switchTo(current) : t.occupy}</button>}
        </div>
      )}
      <Result id="unit-result" action={resultFor === u.callsign ? action : idle} />
      <Crew u={u} run={run} />
    </aside>
  );
}
