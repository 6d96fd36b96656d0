import type { Tx } from '../../store/tx.ts';
import type { MemberRow, UnitRow } from './store.ts';
import { unitStatusDeltas } from './events.ts';
import type { Op, Topic } from '../../../contract/topics.ts';

/**
 * Topic ops of unit writes, in the state shapes of hub/state/loaders.ts (times epoch ms):
 * units: callsign -> { callsign, label, orgUnit, type, status, since, note, members: [{ id, nickname }] }
 *   (note: the crew's note with the current status, or null)
 * alarm: callsign -> { callsign, status, since } while the unit's status carries alarm: true.
 * `overview.units` and `overview.alarms` count those two maps.
 */
export function unitValue(u: UnitRow, members: MemberRow[]) {
  return {
    callsign: u.callsign, label: u.label, orgUnit: u.orgUnit, type: u.type, status: u.status, since: u.since.getTime(), note: u.note,
    members: members.map((m) => ({ id: m.userId, nickname: m.nickname })),
  };
}

export function emitUnitAdded(tx: Tx, u: UnitRow, alarm: boolean) {
  tx.emit('units', { op: 'upsert', key: u.callsign, value: unitValue(u, []) });
  tx.emit('overview', { op: 'add', field: 'units', by: 1 });
  if (alarm) emitAlarmEntered(tx, u.callsign, u.status, u.since.getTime());
}

export function emitUnitRemoved(tx: Tx, callsign: string, alarm: boolean) {
  tx.emit('units', { op: 'remove', key: callsign });
  tx.emit('overview', { op: 'add', field: 'units', by: -1 });
  if (alarm) emitAlarmLeft(tx, callsign);
}

export function emitMembers(tx: Tx, callsign: string, members: MemberRow[]) {
  tx.emit('units', { op: 'patch', key: callsign, value: { members: members.map((m) => ({ id: m.userId, nickname: m.nickname })) } });
}

export function emitMemberLeft(tx: Tx, callsign: string, userId: string) {
  tx.emit('units', { op: 'unlink', key: callsign, field: 'members', id: userId });
}

/** A unit's status changed from one with alarm flag `was` to one with `is`; `note` replaces the last one (events.ts unitStatusDeltas). */
export function emitStatus(tx: Tx, callsign: string, status: string, since: number, was: boolean, is: boolean, note: string | null) {
  const deltas = unitStatusDeltas({ callsign, status, since: new Date(since), note, wasAlarm: was, alarm: is });
  for (const [topic, ops] of Object.entries(deltas) as [Topic, Op[]][]) for (const op of ops) tx.emit(topic, op);
}

export function emitAlarmEntered(tx: Tx, callsign: string, status: string, since: number) {
  tx.emit('alarm', { op: 'upsert', key: callsign, value: { callsign, status, since } });
  tx.emit('overview', { op: 'add', field: 'alarms', by: 1 });
}

export function emitAlarmLeft(tx: Tx, callsign: string) {
  tx.emit('alarm', { op: 'remove', key: callsign });
  tx.emit('overview', { op: 'add', field: 'alarms', by: -1 });
}
