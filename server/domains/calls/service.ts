import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor, type Tx } from '../../store/tx.ts';
import { appendEntry, lockOpenSheet, openIncident } from '../incidents/service.ts';
import { checkReportRate } from './rate-limit.ts';
import type { CallOut, ReportCallInput } from './schema.ts';
import { callLimits } from '../../../contract/limits.ts';
import * as store from './store.ts';
import * as reportStore from './report-store.ts';
import { dismissedError, heldUntil, notOpen } from './triage.ts';
import { postalPoint } from '../map/store.ts';

interface Who { actor: Actor; by: store.ActorName }

/**
 * The sheet of `call` when the call is taken and its sheet is still open, that sheet's row locked
 * until the transaction ends (so it cannot close under the entry this transaction adds); else null.
 */
async function openSheetOf(tx: Tx, call: CallOut | null): Promise<number | null> {
  if (call?.status !== 'taken' || call.incidentNumber === null) return null;
  return (await lockOpenSheet(tx, call.incidentNumber)) ? call.incidentNumber : null;
}

// `calls` state: externalId -> open call (liveCall: the API object, times as epoch ms);
// `overview.openCalls` counts them. Reports, takes and resolves of a guild run one at a time
// (store.lockCallReports): each acts on the newest call of its externalId as it found it.
export async function reportCall(deps: Deps, guildId: string, input: ReportCallInput, who: Who) {
  await checkReportRate(deps, guildId, who.actor);
  const kind = input.kind ?? null;
  const report: store.CallReport = {
    externalId: input.externalId,
    kind,
    // Left out: 2 for a new call, unchanged for an update; a panic is urgent unless it says otherwise.
    priority: input.priority ?? (kind === 'panik' ? 1 : null),
    title: input.title,
    message: input.message ?? null,
    location: await placed(deps, guildId, input.location ?? null),
    caller: input.caller ?? null,
    source: input.source ?? null,
  };
  // One statement under the guild's call lock (report-store.ts); a taken call takes the transaction's way.
  const now = new Date();
  const done = await reportStore.underCallLock(deps.db, guildId, (sql) => reportStore.reportCallNow(sql, guildId, report, callLimits.openCalls, now));
  if (done.reported) {
    if (done.event) deps.bus.publish([done.event]);
    return done.reported;
  }
  if (done.held) throw held(done.last!);
  if (!done.taken) throw openCallLimit();
  return reportTakenCall(deps, guildId, input, report, who);
}

/** A location with a postal and no x/y gets the postal's position from the map's postal layer (any case), when it has the code. */
async function placed(deps: Deps, guildId: string, location: ReportCallInput['location'] | null) {
  if (!location || typeof location === 'string' || location.postal === undefined || location.x !== undefined) return location;
  const point = await postalPoint(deps.sql, guildId, location.postal);
  return point ? { ...location, ...point } : location;
}

const held = (last: CallOut) => dismissedError(last, `reports of this externalId are refused until ${heldUntil(last).toISOString()}; report a new emergency with a new externalId`);
const openCallLimit = () => new AppError('TOO_MANY_REQUESTS', `open-call limit: ${callLimits.openCalls} calls are open in this guild; resolve or take calls before reporting new ones`);

/** A report whose newest call is taken: the transaction's way, statement by statement under the call lock. */
async function reportTakenCall(deps: Deps, guildId: string, input: ReportCallInput, report: store.CallReport, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCallReports(tx.sql, guildId);
    const last = await store.latestCall(tx.sql, guildId, input.externalId);
    if (last?.status === 'dismissed' && heldUntil(last).getTime() > Date.now()) {
      throw held(last);
    }
    const sheet = await openSheetOf(tx, last);
    if (sheet !== null) {
      // Taken, its sheet still open: the same incident, reported again. Not an open call (no cap, no `calls` op).
      const call = (await store.reReportTakenCall(tx.sql, guildId, last!.id, report))!;
      const text = `Erneute Meldung (${call.reportCount}.): ${input.title}${input.message?.trim() ? ` – ${input.message}` : ''}`;
      await appendEntry(tx, sheet, 'report', text, who.by);
      return call;
    }
    const result = await store.upsertOpenCall(tx.sql, guildId, report, callLimits.openCalls);
    if (!result) {
      throw openCallLimit();
    }
    tx.emit('calls', { op: 'upsert', key: result.call.externalId, value: store.liveCall(result.call) });
    if (result.inserted) tx.emit('overview', { op: 'add', field: 'openCalls', by: 1 });
    return result.call;
  });
}

/**
 * The game says the call is over. An open call leaves the board; a taken one keeps who took it and
 * its sheet, whose timeline (while open) records the resolution. A resolved call is answered as
 * stored, writing nothing (the game's retry queue re-sends).
 */
export async function resolveCall(deps: Deps, guildId: string, externalId: string, resolution: string, who: Who) {
  // One statement under the guild's call lock (report-store.ts) for an open call; a taken one takes the transaction's way.
  const done = await reportStore.underCallLock(deps.db, guildId, (sql) => reportStore.resolveOpenCallNow(sql, guildId, externalId, resolution, who.actor));
  if (done.resolved) {
    if (done.event) deps.bus.publish([done.event]);
    return done.resolved;
  }
  if (!done.last) throw new AppError('NOT_FOUND', `no call with externalId ${externalId}`);
  if (done.last.status === 'resolved' || done.last.status === 'dismissed') return done.last; // the board is done with it: nothing to write
  return resolveTakenCall(deps, guildId, externalId, resolution, who);
}

/** Resolving a call that is not open (taken): the transaction's way, statement by statement under the call lock. */
async function resolveTakenCall(deps: Deps, guildId: string, externalId: string, resolution: string, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockCallReports(tx.sql, guildId);
    const last = await store.latestCall(tx.sql, guildId, externalId);
    if (!last) throw new AppError('NOT_FOUND', `no call with externalId ${externalId}`);
    if (last.status === 'resolved' || last.status === 'dismissed') return last; // the board is done with it: nothing to write
    const sheet = await openSheetOf(tx, last);
    const call = (await store.resolveCall(tx.sql, guildId, last.id, resolution))!;
    if (last.status === 'open') {
      tx.emit('calls', { op: 'remove', key: externalId });
      tx.emit('overview', { op: 'add', field: 'openCalls', by: -1 });
    }
    if (sheet !== null) await appendEntry(tx, sheet, 'resolved', `Meldung ${externalId} vom Spiel abgeschlossen: ${resolution}`, who.by);
    tx.audit('calls.resolve', who.actor, { externalId, callId: call.id, resolution, ...(call.incidentNumber !== null ? { incidentNumber: call.incidentNumber } : {}) });
    return call;
  });
}

/**
 * A dispatcher on duty takes an open call: it becomes `taken`, and an incident sheet is made of it
 * (its title as keyword unless one is given, its location and priority). Takes run under the
 * guild's call lock: of concurrent takes exactly one wins, the others see the call taken (409).
 */
export async function takeCall(deps: Deps, guildId: string, externalId: string, keyword: string | undefined, who: Who) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    if (who.actor.kind === 'session' && !(await store.lockOpenShift(tx.sql, guildId, who.actor.id))) {
      throw new AppError('CONFLICT', 'you are off duty: clock in before taking a call', { reason: 'off_duty' });
    }
    await store.lockCallReports(tx.sql, guildId);
    const call = await store.takeOpenCall(tx.sql, guildId, externalId, who.by);
    if (!call) throw await notOpen(tx, externalId);
    const incident = await openIncident(tx, {
      keyword: keyword ?? call.title, location: call.location, priority: call.priority, callId: call.id,
    }, who.by, `Meldung ${externalId} übernommen: ${call.title}`);
    await store.linkCallIncident(tx.sql, guildId, call.id, incident.number);
    tx.emit('calls', { op: 'remove', key: externalId });
    tx.emit('overview', { op: 'add', field: 'openCalls', by: -1 });
    tx.audit('calls.take', who.actor, { externalId, callId: call.id, incidentNumber: incident.number });
    return { call: { ...call, incidentNumber: incident.number }, incident };
  });
}

export async function listOpenCalls(deps: Deps, guildId: string) {
  const calls = await store.openCalls(deps.sql, guildId);
  return { count: calls.length, calls };
}
