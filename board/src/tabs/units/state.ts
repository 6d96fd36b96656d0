import { computed, signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { statusByCode } from '../../app/catalogue.ts';
import { access, can } from '../../app/session.ts';
import { live } from '../../live/board-live.ts';
import type { UnitEntry } from '../../live/entries.ts';

/** The chosen unit (its callsign): the one digits set and the side panel shows. Kept across tab switches. */
export const selected = signal<string | null>(null);
/** The search box and the status filter; empty: every unit. */
export const query = signal('');
export const statusFilter = signal('');
/** Dense tiles for large fleets (callsign, status, crew on one line each), kept in this browser. */
export const compact = signal(localStorage.getItem('dt.units.compact') === '1');
export function setCompact(on: boolean): void {
  compact.value = on;
  localStorage.setItem('dt.units.compact', on ? '1' : '0');
}

/** Callsigns in natural order: RTW-2 before RTW-10, case ignored. */
const collator = new Intl.Collator('de', { numeric: true, sensitivity: 'base' });
export const byCallsign = (a: string, b: string) => collator.compare(a, b);

export const filtering = computed(() => query.value.trim() !== '' || statusFilter.value !== '');

/** Whether `u` passes the search (every word somewhere in callsign, label, station, status or crew) and the status filter. */
export function matches(u: UnitEntry, q: string, status: string): boolean {
  if (status && u.status !== status) return false;
  const words = q.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = [u.callsign, u.label, u.orgUnit, u.status, statusByCode.peek().get(u.status)?.label, ...u.members.map((m) => m.nickname)]
    .filter(Boolean).join(' ').toLocaleLowerCase();
  return words.every((w) => hay.includes(w));
}

/** How many units pass the filters (read only by the small count label, and only while filtering). */
export const matchCount = computed(() => {
  if (!filtering.value) return live.units.keys.value.length;
  const q = query.value;
  const s = statusFilter.value;
  return live.units.values().filter((u) => matches(u, q, s)).length;
});

/** The unit the signed-in person occupies (their user id among its members), or null. */
export const myUnit = computed(() => {
  const me = access.value?.userId;
  if (!me) return null;
  return live.units.values().find((u) => u.members.some((m) => m.id === me))?.callsign ?? null;
});

/**
 * Sets a unit's status the way this person may: any unit as a dispatcher (`dispatch.manage`), else
 * the unit they occupy (`PUT /me/unit-status`); the server decides and its message is shown.
 */
export function putStatus(callsign: string, status: string) {
  return can('dispatch.manage')
    ? api.units.setStatus.mutate({ callsign, status })
    : api.units.selfStatus.mutate({ callsign, status });
}

/** An element id for a callsign (callsigns may hold spaces, dots and slashes). */
export function tileId(callsign: string): string {
  return `unit-${[...callsign].map((c) => (/[A-Za-z0-9-]/.test(c) ? c : `_${c.charCodeAt(0).toString(16)}`)).join('')}`;
}
