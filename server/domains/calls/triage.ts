import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import { appendEntry, lockOpen, openIncident } from '../incidents/service.ts';
import * as sheets from '../incidents/store.ts';
import { callTriageLimits, dismissPresetOf } from '../../../contract/call-triage.ts';
import type { CallOut } from './schema.ts';
import * as store from './store.ts';
import * as triage from './triage-store.ts';

interface Who { actor: Actor; by: store.ActorName }

/**
 * Call triage at the desk: dismiss a call with a reason, attach it to an open sheet, take several
 * into one sheet. Like a take, each runs on duty (sessions), under the guild's call lock (so it sees
 * the call as the last report, take or resolve left it), then locks the sheet: the order reports use.
 */

/** A session works calls only while its person is on duty (the shift share-locked); keys are not asked. */
async function requireOnDuty(tx: Tx, who: Who): Promise<void> {
  if (who.actor.kind === 'session' && !(await store.lockOpenShift(tx.sql, tx.guildId, who.actor.id))) {
    throw new AppError('CONFLICT', 'you are off duty: clock in before working calls', { reason: 'off_duty' });
  }
}

/** Until when reports of a dismissed call's externalId are refused. */
export const heldUntil = (call: CallOut) => new Date(call.dismissedAt!.getTime() + callTriageLimits.dismissHoldMs);

/** 409 call_dismissed: what a game script and the desk are told about a dismissed call. */
export function dismissedError(call: CallOut, action: string): AppError {
  const until = heldUntil(call);
  return new AppError('CONFLICT', `call ${call.externalId} was dismissed by the dispatch (${call.dismissReason}); ${action}`,
    { reason: 'call_dismissed', params: { call: call.externalId, dismissReason: call.dismissReason ?? '', until: until.toISOString() } });
}

/** Why the newest call of `externalId` is not open (or unknown): the error a triage or take answers. */
export async function notOpen(tx: Tx, externalId: string): Promise<AppError> {
  const last = await store.latestCall(tx.sql, tx.guildId, externalId);
  if (!last) return new AppError('NOT_FOUND', `no call with externalId ${externalId}`);
  if (last.status === 'dismissed') return dismissedError(last, 'it is no longer open');
  if (last.status === 'resolved') return new AppError('CONFLICT', `call ${externalId} is resolved, not open`, { reason: 'call_resolved', params: { call: externalId } });
  return new AppError('CONFLICT', `call ${externalId} was already taken${last.incidentNumber ? ` (incident sheet ${last.incidentNumber})` : ''}`,
    { reason: 'call_taken', params: { call: externalId, sheet: last.incidentNumber ? String(last.incidentNumber) : undefined } });
}

/** An open call leaves every board. */
function leaveBoard(tx: Tx, externalIds: string[]): void {
  for (const key of externalIds) tx.emit('calls', { op: 'remove', key });
  tx.emit('overview', { op: 'add', field: 'openCalls', by: -externalIds.length });
}

/** The sheet with its timeline, as the incidents routes answer it. */
async function sheetDetail(tx: Tx, number: number) {
  const incident = (await sheets.incidentByNumber(tx.sql, tx.guildId, number))!;
  return { ...incident, entries: await sheets.entriesOf(tx.sql, tx.guildId, number), alarmAckTimeoutS: await sheets.alarmAckTimeout(tx.sql, tx.guildId) };
}

/** The timeline text of a call attached to a sheet: what the caller said, and who called. */
function attachedText(call: CallOut): string {
  const caller = [call.caller?.name, call.caller?.phone].filter(Boolean).join(', ');
  return `Meldung angehängt: ${call.title}${call.message?.trim() ? ` – ${call.message}` : ''}${caller ? ` (Anrufer: ${caller})` : ''}`;
}

export async function dismissCall(deps: Deps, guildId: string, externalId: string, reason: string, who: Who) {
  const stored = dismissPresetOf(reason) ?? reason;
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await requireOnDuty(tx, who);
    await store.lockCallReports(tx.sql, guildId);
    const call = await triage.dismissOpenCall(tx.sql, guildId, externalId, stored, who.by);
    if (!call) throw await notOpen(tx, externalId);
    leaveBoard(tx, [externalId]);
    tx.audit('calls.dismiss', who.actor, { externalId, callId: call.id, reason: stored });
    return call;
  });
}

/** Attaches open call `externalId` to open sheet `number` (its row locked): the call is taken onto it, with a timeline entry. */
async function attachInTx(tx: Tx, externalId: string, number: number, who: Who) {
  const call = await triage.attachOpenCall(tx.sql, tx.guildId, externalId, number, who.by);
  if (!call) throw await notOpen(tx, externalId);
  await appendEntry(tx, number, 'report', attachedText(call), who.by);
  return call;
}

export async function attachCall(deps: Deps, guildId: string, externalId: string, number: number, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await requireOnDuty(tx, who);
    await store.lockCallReports(tx.sql, guildId);
    const last = await store.latestCall(tx.sql, guildId, externalId);
    if (last?.status !== 'open') throw await notOpen(tx, externalId);
    await lockOpen(tx, number);
    const call = await attachInTx(tx, externalId, number, who);
    leaveBoard(tx, [externalId]);
    tx.audit('calls.attach', who.actor, { externalId, callId: call.id, incidentNumber: number });
    return { call, incident: await sheetDetail(tx, number) };
  });
}

/**
 * Several open calls into one new sheet: made of the first (as a take), the others attached in the
 * order given. All or nothing: one call not open and nothing changes.
 */
export async function mergeCalls(deps: Deps, guildId: string, externalIds: string[], keyword: string | undefined, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await requireOnDuty(tx, who);
    await store.lockCallReports(tx.sql, guildId);
    for (const id of externalIds) {
      if ((await store.latestCall(tx.sql, guildId, id))?.status !== 'open') throw await notOpen(tx, id);
    }
    const [firstId, ...rest] = externalIds;
    const first = (await store.takeOpenCall(tx.sql, guildId, firstId!, who.by))!;
    const opened = await openIncident(tx, {
      keyword: keyword ?? first.title, location: first.location, priority: first.priority, callId: first.id,
    }, who.by, `Meldung ${firstId} übernommen: ${first.title}`);
    await store.linkCallIncident(tx.sql, guildId, first.id, opened.number);
    const calls: CallOut[] = [{ ...first, incidentNumber: opened.number }];
    await lockOpen(tx, opened.number);
    for (const id of rest) calls.push(await attachInTx(tx, id, opened.number, who));
    leaveBoard(tx, externalIds);
    tx.audit('calls.merge', who.actor, { externalIds, callIds: calls.map((c) => c.id), incidentNumber: opened.number });
    return { calls, incident: await sheetDetail(tx, opened.number) };
  });
}

/** The calls of sheet `number`: the one it was made of and those attached, in the order they came to it. */
export async function sheetCalls(deps: Deps, guildId: string, number: number) {
  const calls = await triage.callsOfSheet(deps.sql, guildId, number);
  if (!calls.length && !(await triage.sheetExists(deps.sql, guildId, number))) throw new AppError('NOT_FOUND', `no incident sheet ${number} in this guild`);
  return { count: calls.length, calls };
}
