import { statusByCode, type UnitStatus } from '../app/catalogue.ts';
import { moduleOn } from '../app/session.ts';
import { live } from '../live/board-live.ts';
import { alarmCallsigns, occupiedUnit } from './feed.ts';

/**
 * Whether the board knows which unit the person occupies: the alarm state says (`unit`), for
 * every rank that may watch alarms. Until its first state arrives, "own unit only" is undecided.
 */
export function ownUnitVisible(): boolean {
  return moduleOn('dispatch') && alarmCallsigns.value !== null;
}

/** The callsign of the unit the person occupies (null: none, or not known yet). */
export function myUnit(): string | null {
  return occupiedUnit.value;
}

/**
 * Which of `alarms` ring on this board for `scope`: every one, or (`own`) only the unit the person
 * occupies. Null while that is not known yet (no alarm state yet): nothing is decided then.
 */
export function inScope(alarms: readonly string[], scope: 'own' | 'all'): readonly string[] | null {
  if (scope === 'all') return alarms;
  if (!ownUnitVisible()) return null;
  return alarms.filter((c) => c === occupiedUnit.value);
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
