import { statusByCode, type UnitStatus } from '../app/catalogue.ts';
import { access, can, moduleOn } from '../app/session.ts';
import { live, synced, watching } from '../live/board-live.ts';

/**
 * Whether the board can tell which unit the person occupies: only from the `units` topic (members),
 * which ranks with dispatch.view watch. Without it, "own unit only" cannot be honoured and every
 * alarm rings (the preference panel says so).
 */
export function ownUnitVisible(): boolean {
  return moduleOn('dispatch') && can('dispatch.view');
}

/** The callsign of the unit the person occupies, from the live units (null: none, or not visible). */
export function myUnit(): string | null {
  const me = access.value?.userId;
  if (!me || !watching.value.includes('units')) return null;
  return live.units.values().find((u) => u.members.some((m) => m.id === me))?.callsign ?? null;
}

/**
 * Which of `alarms` ring on this board for `scope`: every one, or (`own`) only the unit the person
 * occupies. Null while that is not known yet (the units have not arrived): nothing is decided then.
 * Reads only the entries of the callsigns in alarm, so other units' changes do not re-run it.
 */
export function inScope(alarms: readonly string[], scope: 'own' | 'all'): readonly string[] | null {
  if (scope === 'all' || !ownUnitVisible()) return alarms;
  if (!synced.value) return null;
  const me = access.value?.userId;
  return alarms.filter((c) => live.units.entry(c).value?.members.some((m) => m.id === me));
}

/** `?units=RTW-1,RTW-2` of the kiosk: the station's units (upper case), or null for every unit. */
export function kioskUnits(search = location.search): readonly string[] | null {
  const raw = new URLSearchParams(search).get('units');
  const list = (raw ?? '').split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
  return list.length ? [...new Set(list)] : null;
}

export interface AlarmInfo {
  callsign: string;
  /** The unit's name (`Rettungswagen 1`), when the board sees units. */
  label: string | null;
  /** Where the unit belongs (`Rettungswache Mitte`), when the board sees units. */
  orgUnit: string | null;
  status: UnitStatus | null;
  /** Code of the status, also when the catalogue is not readable. */
  code: string | null;
  /** Since when the unit is in that status (epoch ms), when known. */
  since: number | null;
}

/** What the board knows about a callsign in alarm: status (code, label, colour) and unit name, as far as the person may see them. */
export function alarmInfo(callsign: string): AlarmInfo {
  const alarm = live.alarm.entry(callsign).value;
  const unit = live.units.entry(callsign).value;
  const code = alarm?.status ?? unit?.status ?? null;
  return {
    callsign,
    label: unit?.label ?? null,
    orgUnit: unit?.orgUnit ?? null,
    status: code ? statusByCode.value.get(code) ?? null : null,
    code,
    since: alarm?.since ?? unit?.since ?? null,
  };
}
