import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../store/tx.ts';
import type { ActorName } from '../calls/store.ts';
import * as statusStore from '../units/status-store.ts';
import { changeStatus } from '../units/status-service.ts';
import { guildWrite } from '../units/write.ts';
import * as alarmStore from './alarm-store.ts';
import * as store from './store.ts';
import { appendEntry, emitSheet, lockOpen } from './service.ts';

/**
 * Alarms units for sheet `number` (POST /incidents/{number}/alarm), all in one transaction: each
 * unit is assigned if need be, gets alarmedAt now (a re-alarm clears its acknowledgement), enters
 * the guild's dispatch alarm status (units, alarm, overview ops) and a `unit_alarmed` entry. A unit
 * on another open sheet is refused (409 unit_on_other_incident) unless `force`, which releases it
 * from that sheet with an entry there. Lock order: catalogue, units (by id), this sheet, others.
 */
export async function alarmUnits(deps: Deps, guildId: string, input: { number: number; callsigns: string[]; force?: boolean }, who: { actor: Actor; by: ActorName }) {
  const { number } = input;
  return guildWrite(deps, guildId, async (tx) => {
    await statusStore.lockCatalogue(tx.sql, guildId, 'share');
    const found = await alarmStore.lockUnits(tx.sql, guildId, input.callsigns);
    await lockOpen(tx, number);
    const missing = input.callsigns.filter((c) => !found.some((u) => u.callsign.toLowerCase() === c.toLowerCase()));
    if (missing.length) throw new AppError('NOT_FOUND', `no unit ${missing.join(', ')} in this guild`);
    // In the order the dispatcher named them: that is the order of the timeline entries.
    const units = input.callsigns.map((c) => found.find((u) => u.callsign.toLowerCase() === c.toLowerCase())!);
    const alarm = await statusStore.dispatchAlarmStatus(tx.sql, guildId);
    if (!alarm) {
      throw new AppError('CONFLICT', 'the status catalogue has no alarm status for dispatch: add one with alarm: true (code A "Alarmiert" by default)', { reason: 'no_alarm_status' });
    }
    const elsewhere = await alarmStore.otherOpenSheets(tx.sql, guildId, units.map((u) => u.id), number);
    if (elsewhere.length && !input.force) {
      const callsigns = units.filter((u) => elsewhere.some((e) => e.unitId === u.id)).map((u) => u.callsign);
      const sheets = [...new Set(elsewhere.map((e) => e.number))];
      throw new AppError('CONFLICT', `${callsigns.join(', ')} ${callsigns.length > 1 ? 'are' : 'is'} on open incident sheet ${sheets.join(', ')}; alarm with force: true to move ${callsigns.length > 1 ? 'them' : 'it'} here`,
        { reason: 'unit_on_other_incident', params: { units: callsigns.join(', '), sheets: sheets.join(', ') } });
    }
    for (const other of [...new Set(elsewhere.map((e) => e.number))]) {
      await store.lockIncident(tx.sql, guildId, other);
      const moved = units.filter((u) => elsewhere.some((e) => e.number === other && e.unitId === u.id));
      await alarmStore.releaseFrom(tx.sql, guildId, other, moved.map((u) => u.id));
      for (const u of moved) await appendEntry(tx, other, 'unit_released', `${u.callsign} zu Einsatz ${number} umalarmiert`, who.by);
      await emitSheet(tx, other, 'unit_released');
    }
    for (const u of units) {
      await alarmStore.alarmUnit(tx.sql, guildId, number, u.id);
      await changeStatus(tx, guildId, u, alarm.code, who.by);
      await appendEntry(tx, number, 'unit_alarmed', `${u.callsign} alarmiert`, who.by);
    }
    tx.audit('incident.alarm', who.actor, { number, callsigns: units.map((u) => u.callsign), ...(elsewhere.length ? { moved: elsewhere.map((e) => e.number) } : {}) });
    return emitSheet(tx, number, 'unit_alarmed');
  });
}
