import { statusByCode } from '../../app/catalogue.ts';
import { live } from '../../live/board-live.ts';
import type { CallEntry } from '../../live/entries.ts';
import type { Place } from '../incidents/location.ts';
import { openOrder, sheet, type Sheet } from '../incidents/store.ts';
import { positions, staleAfterMs, type ShownPosition } from './positions.ts';
import type { PlaceMark, UnitMark } from './scene.ts';
import type { Postal } from './settings.ts';

/** A place's game coordinates: its own x/y, else its postal's from the postal list. */
export function coordsOf(place: Place | undefined, byCode: ReadonlyMap<string, Postal>): { x: number; y: number } | null {
  if (!place || typeof place === 'string') return null;
  if (typeof place.x === 'number' && typeof place.y === 'number') return { x: place.x, y: place.y };
  const p = place.postal ? byCode.get(place.postal.trim()) : undefined;
  return p ? { x: p.x, y: p.y } : null;
}

export const isStale = (p: ShownPosition, now: number, staleMs = staleAfterMs.peek()) => now - p.seenAt > staleMs;

/** Every unit with a position, in its status colour; reads the units topic, the catalogue and `staleMs`. */
export function unitMarks(now: number, staleMs: number): UnitMark[] {
  const out: UnitMark[] = [];
  const catalogue = statusByCode.value;
  for (const callsign of live.units.keys.value) {
    const u = live.units.entry(callsign).value;
    const p = positions.get(callsign);
    if (!u || !p) continue;
    const s = catalogue.get(u.status);
    out.push({
      callsign, x: p.x, y: p.y, heading: p.heading, color: s?.color ?? '#607d8b', stale: isStale(p, now, staleMs),
      title: `${callsign} · ${u.status}${s ? ` ${s.label}` : ''}${u.label ? ` · ${u.label}` : ''}`,
    });
  }
  return out;
}

export const isPanic = (c: CallEntry) => c.kind === 'panik';

/** Open calls with a place (x/y, or a postal the list knows), by kind and priority. */
export function callMarks(byCode: ReadonlyMap<string, Postal>, kinds: Record<string, string>): PlaceMark[] {
  const out: PlaceMark[] = [];
  for (const id of live.calls.keys.value) {
    const c = live.calls.entry(id).value;
    if (!c || c.status !== 'open') continue;
    const at = coordsOf(c.location as Place, byCode);
    if (!at) continue;
    out.push({
      key: `call:${id}`, ...at, cls: `map-call kind-${c.kind} prio-${c.priority}`, badge: `P${c.priority}`,
      label: c.title.length > 24 ? `${c.title.slice(0, 23)}…` : c.title, title: `${kinds[c.kind] ?? c.kind} · P${c.priority} · ${c.title}`,
    });
  }
  return out;
}

/** The callsigns alarmed on a sheet (assigned ones that were alarmed). */
export const alarmedOn = (s: Sheet) => s.units.filter((u) => u.alarmedAt !== null).map((u) => u.callsign);

/** Open incident sheets with a place, with their alarmed units. */
export function incidentMarks(byCode: ReadonlyMap<string, Postal>): PlaceMark[] {
  const out: PlaceMark[] = [];
  for (const n of openOrder.value) {
    const s = sheet(n).value;
    if (!s || s.state !== 'open') continue;
    const at = coordsOf(s.location as Place, byCode);
    if (!at) continue;
    const alarmed = alarmedOn(s);
    out.push({
      key: `incident:${n}`, ...at, cls: `map-incident prio-${s.priority}`, badge: `E${n}`,
      label: [s.keyword, alarmed.join(', ')].filter(Boolean).join(' · '), title: `${n} · ${s.keyword}${alarmed.length ? ` · ${alarmed.join(', ')}` : ''}`,
    });
  }
  return out;
}
