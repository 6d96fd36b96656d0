import { memo } from 'preact/compat';
import { useComputed } from '@preact/signals';
import { clockTime, duration } from '../../app/i18n.ts';
import { now } from '../../app/clock.ts';
import { statusByCode, textOn } from '../../app/catalogue.ts';
import { access } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import { matches, query, selected, statusFilter, tileId } from './state.ts';
import { text } from './text.ts';

/** The running time since `at`: the only part of a tile that re-renders every second. */
export function Since({ at }: { at: number }) {
  return <span class="running">{duration(now.value - at)}</span>;
}

/** The colours of a status code (grey for a code the catalogue lacks). */
export function statusLook(code: string) {
  const s = statusByCode.value.get(code);
  const color = s?.color ?? '#555555';
  return { status: s, style: { '--status': color, '--on-status': textOn(color) } as Record<string, string> };
}

/**
 * One unit: re-renders when its own entry changes (a delta on this callsign), when it becomes or
 * stops being the chosen one, or when the filter flips it; never for another unit's change.
 */
export const UnitTile = memo(({ callsign }: { callsign: string }) => {
  const t = text();
  const entry = live.units.entry(callsign);
  const isSelected = useComputed(() => selected.value === callsign).value;
  const shown = useComputed(() => !!entry.value && matches(entry.value, query.value, statusFilter.value)).value;
  const me = useComputed(() => access.value?.userId).value;
  const u = entry.value;
  if (!u || !shown) return null;
  const { status, style } = statusLook(u.status);
  const alarm = !!status?.alarm;
  const mine = u.members.some((m) => m.id === me);
  return (
    <li id={tileId(callsign)} role="option" aria-selected={isSelected} data-callsign={callsign} data-status={u.status}
      class={`unit-tile${alarm ? ' alarm' : ''}${isSelected ? ' selected' : ''}${mine ? ' mine' : ''}`} style={style}
      onClick={() => (selected.value = callsign)}>
      <div class="band">
        <span class="callsign">{u.callsign}</span>
        {alarm && <span class="alarm-tag">{t.alarm}</span>}
        <span class="code" aria-label={`Status ${u.status}`}>{u.status}</span>
        <span class="status-label">{status?.label ?? '–'}</span>
      </div>
      <div class="body">
        {u.label && <div class="where" title={u.label}>{u.label}</div>}
        {u.orgUnit && <div class="where org" title={u.orgUnit}>{u.orgUnit}</div>}
        <ul class="members" aria-label={t.members}>
          {u.members.length === 0 ? <li class="muted">{t.unmanned}</li> : u.members.map((m) => (
            <li class={m.id === me ? 'me' : ''}>{m.nickname}{m.id === me && <span class="you"> ({t.you})</span>}</li>
          ))}
        </ul>
        {u.note && <div class="note" title={u.note}><span class="sr-only">{t.note}: </span>„{u.note}“</div>}
        <div class="time" title={t.inStatus}>{t.since} {clockTime(u.since)} · <Since at={u.since} /></div>
      </div>
    </li>
  );
});
