import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import type { ActorName } from '../calls/store.ts';
import type { EntryOut, IncidentOut } from './schema.ts';
import * as store from './store.ts';
import { guildWrite } from '../units/write.ts';
import { keywordPriority } from '../aao/proposal.ts';

export type Change = 'created' | 'updated' | 'unit_assigned' | 'unit_released' | 'closed' | 'unit_alarmed' | 'unit_acknowledged';
const ms = (d: Date | null) => d?.getTime() ?? null;
interface Who { actor: Actor; by: ActorName }

// `einsatzEntries` is a notice topic (no hub state): its ops are `incident` (the sheet after a
// change, without its timeline, with what changed) and `entry` (a new timeline entry). Times are epoch ms.
function liveIncident(i: IncidentOut & { alarmAckTimeoutS: number }) {
  return {
    number: i.number, keyword: i.keyword, location: i.location, priority: i.priority, state: i.state, version: i.version,
    call: i.call, createdAt: i.createdAt.getTime(), updatedAt: i.updatedAt.getTime(), closedAt: i.closedAt?.getTime() ?? null,
    createdBy: i.createdBy, alarmAckTimeoutS: i.alarmAckTimeoutS,
    units: i.units.map((u) => ({ ...u, assignedAt: u.assignedAt.getTime(), alarmedAt: ms(u.alarmedAt), acknowledgedAt: ms(u.acknowledgedAt) })),
  };
}

function liveEntry(e: EntryOut) {
  return { ...e, at: e.at.getTime() };
}

async function detail(tx: Tx, number: number) {
  const incident = (await store.incidentByNumber(tx.sql, tx.guildId, number))!;
  return { ...incident, entries: await store.entriesOf(tx.sql, tx.guildId, number), alarmAckTimeoutS: await store.alarmAckTimeout(tx.sql, tx.guildId) };
}

/** The `incident` notice of a change whose entries were written (and announced) already; the sheet after it. */
export async function emitSheet(tx: Tx, number: number, change: Change) {
  const sheet = await detail(tx, number);
  tx.emit('einsatzEntries', { op: 'incident', change, number, incident: liveIncident(sheet) });
  return sheet;
}

/** Records a change of sheet `number`: a timeline entry, and both notices on `einsatzEntries`. */
async function recordChange(tx: Tx, number: number, change: Change, text: string, by: ActorName) {
  const entry = await store.insertEntry(tx.sql, tx.guildId, number, change, text, by);
  const sheet = await detail(tx, number);
  tx.emit('einsatzEntries', { op: 'incident', change, number, incident: liveIncident(sheet) });
  tx.emit('einsatzEntries', { op: 'entry', number, entry: liveEntry(entry) });
  return sheet;
}

/** Opens a new sheet inside `tx` (manual creation, or a dispatcher taking a game call). */
export async function openIncident(tx: Tx, fields: { keyword: string; location: unknown; priority: number; callId: string | null }, by: ActorName, text: string) {
  const number = await store.nextIncidentNumber(tx.sql, tx.guildId);
  await store.insertIncident(tx.sql, tx.guildId, number, { ...fields, by });
  return recordChange(tx, number, 'created', text, by);
}

/**
 * Locks sheet `number` for an entry about its game call (a re-report, the game's resolution): true
 * when it is open. A concurrent close is waited for and seen, or waits until this transaction ends:
 * a closed sheet never gets an entry.
 */
export async function lockOpenSheet(tx: Tx, number: number): Promise<boolean> {
  return (await store.lockIncident(tx.sql, tx.guildId, number))?.state === 'open';
}

/**
 * Adds an entry that does not change the sheet (a note, or what the game says about the sheet's
 * call) to sheet `number`, which the caller holds locked open; with its `entry` notice.
 */
export async function appendEntry(tx: Tx, number: number, kind: EntryOut['kind'], text: string, by: ActorName) {
  const entry = await store.insertEntry(tx.sql, tx.guildId, number, kind, text, by);
  tx.emit('einsatzEntries', { op: 'entry', number, entry: liveEntry(entry) });
  return entry;
}

/** Locks an open sheet for a write: 404 unknown, 409 closed or (when `version` is given) stale. */
export async function lockOpen(tx: Tx, number: number, version?: number) {
  const sheet = await store.lockIncident(tx.sql, tx.guildId, number);
  if (!sheet) throw new AppError('NOT_FOUND', `no incident sheet ${number} in this guild`);
  if (sheet.state === 'closed') throw new AppError('CONFLICT', `incident sheet ${number} is closed`, { reason: 'incident_closed', params: { sheet: String(number) } });
  if (version !== undefined && version !== sheet.version) {
    throw new AppError('CONFLICT', `stale version: incident sheet ${number} is at version ${sheet.version}, you sent ${version}; reload it`);
  }
  return sheet;
}

export async function createIncident(deps: Deps, guildId: string, input: { keyword: string; location?: unknown; priority?: number }, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    // No priority given: the AAO keyword's default, else 2 (normal).
    const priority = input.priority ?? (await keywordPriority(tx.sql, guildId, input.keyword)) ?? 2;
    const sheet = await openIncident(tx, { keyword: input.keyword, location: input.location ?? null, priority, callId: null }, who.by, 'Einsatzblatt angelegt');
    tx.audit('incident.create', who.actor, { number: sheet.number });
    return sheet;
  });
}

export async function updateIncident(deps: Deps, guildId: string, input: { number: number; version: number; keyword?: string; location?: unknown; priority?: number }, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await lockOpen(tx, input.number, input.version);
    const before = (await store.incidentByNumber(tx.sql, guildId, input.number))!;
    await store.updateIncident(tx.sql, guildId, input.number, { keyword: input.keyword, location: input.location, priority: input.priority });
    const changes: string[] = [];
    if (input.keyword !== undefined && input.keyword !== before.keyword) changes.push(`Stichwort: ${before.keyword} → ${input.keyword}`);
    if (input.priority !== undefined && input.priority !== before.priority) changes.push(`Priorität: ${before.priority} → ${input.priority}`);
    if (input.location !== undefined) changes.push(input.location === null ? 'Einsatzort entfernt' : 'Einsatzort geändert');
    const sheet = await recordChange(tx, input.number, 'updated', changes.join('; ') || 'Einsatzblatt gespeichert', who.by);
    tx.audit('incident.update', who.actor, { number: input.number, version: sheet.version, fields: ['keyword', 'location', 'priority'].filter((k) => (input as Record<string, unknown>)[k] !== undefined) });
    return sheet;
  });
}

/**
 * Assigning takes the sheet's lock, then (the foreign key's) a share lock on the unit: the other way
 * round from an alarm or a status change, so the rare deadlock is retried (guildWrite).
 */
export async function assignUnit(deps: Deps, guildId: string, number: number, callsign: string, who: Who) {
  return guildWrite(deps, guildId, async (tx) => {
    await lockOpen(tx, number);
    const result = await store.assignUnit(tx.sql, guildId, number, callsign);
    if (!result) throw new AppError('NOT_FOUND', `no unit with callsign ${callsign} in this guild`);
    if (!result.assigned) return detail(tx, number); // already assigned: nothing changes
    tx.audit('incident.unit_assign', who.actor, { number, callsign: result.callsign });
    return recordChange(tx, number, 'unit_assigned', `${result.callsign} zugewiesen`, who.by);
  });
}

export async function releaseUnit(deps: Deps, guildId: string, number: number, callsign: string, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await lockOpen(tx, number);
    const result = await store.releaseUnit(tx.sql, guildId, number, callsign);
    if (!result) throw new AppError('NOT_FOUND', `no unit with callsign ${callsign} in this guild`);
    if (!result.released) throw new AppError('NOT_FOUND', `unit ${result.callsign} is not assigned to incident sheet ${number}`);
    tx.audit('incident.unit_release', who.actor, { number, callsign: result.callsign });
    return recordChange(tx, number, 'unit_released', `${result.callsign} aus dem Einsatz entlassen`, who.by);
  });
}

export async function addEntry(deps: Deps, guildId: string, number: number, text: string, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await lockOpen(tx, number);
    const entry = await appendEntry(tx, number, 'note', text, who.by);
    tx.audit('incident.entry_add', who.actor, { number, entryId: entry.id });
    return entry;
  });
}

export async function closeIncident(deps: Deps, guildId: string, number: number, version: number | undefined, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await lockOpen(tx, number, version);
    await store.closeIncident(tx.sql, guildId, number);
    tx.audit('incident.close', who.actor, { number });
    return recordChange(tx, number, 'closed', 'Einsatz abgeschlossen', who.by);
  });
}

export async function getIncident(deps: Deps, guildId: string, number: number) {
  const incident = await store.incidentByNumber(deps.sql, guildId, number);
  if (!incident) throw new AppError('NOT_FOUND', `no incident sheet ${number} in this guild`);
  return { ...incident, entries: await store.entriesOf(deps.sql, guildId, number), alarmAckTimeoutS: await store.alarmAckTimeout(deps.sql, guildId) };
}
