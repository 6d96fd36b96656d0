import type { Tx } from '../../store/tx.ts';
import type { ActorName } from '../calls/store.ts';
import * as alarmStore from './alarm-store.ts';
import * as store from './store.ts';
import { appendEntry, emitSheet } from './service.ts';

/**
 * A unit (locked by the caller) entered a status with `acknowledges: true`: each open sheet with an
 * alarm of it not yet acknowledged records acknowledgedAt now, gets a `unit_acknowledged` entry
 * and its notices on `einsatzEntries`. Units are locked before sheets, as the alarm does.
 */
export async function acknowledgeAlarms(tx: Tx, unit: { id: string; callsign: string }, status: { code: string; label: string }, by: ActorName): Promise<number[]> {
  const done: number[] = [];
  for (const number of await alarmStore.pendingAlarms(tx.sql, tx.guildId, unit.id)) {
    if ((await store.lockIncident(tx.sql, tx.guildId, number))?.state !== 'open') continue;
    if (!(await alarmStore.acknowledge(tx.sql, tx.guildId, number, unit.id))) continue;
    await appendEntry(tx, number, 'unit_acknowledged', `${unit.callsign} hat die Alarmierung quittiert (Status ${status.code} ${status.label})`, by);
    await emitSheet(tx, number, 'unit_acknowledged');
    done.push(number);
  }
  return done;
}
