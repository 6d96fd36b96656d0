import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import type { CitizenState, PatientDetail, StateInput, VitalSeries } from './schema.ts';
import * as store from './store.ts';
import * as reads from './board-store.ts';
import { summaryText } from './summary.ts';

export { ingest } from './ingest.ts';

/** Latest state of a citizen: last write by game time wins; an older or equal `at` is kept out and said so. */
export async function putCitizenState(deps: Deps, guildId: string, input: StateInput) {
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const { applied, row } = await store.putState(tx.sql, guildId, input);
    const state = store.stateOf(row) as CitizenState;
    if (!applied) return { applied, reason: `older than the stored state (at ${state.at})`, state };
    tx.emit('medic', { op: 'state', key: state.citizenId, value: state });
    return { applied, state };
  });
}

export async function listPatients(deps: Deps, guildId: string, q: { q?: string; status?: 'open' | 'closed' | 'all'; limit?: number; before?: string }) {
  const limit = q.limit ?? 50;
  const rows = await store.listFiles(deps.sql, guildId, { q: q.q?.trim() || null, status: q.status ?? 'open', limit, before: q.before ?? null });
  const more = rows.length > limit;
  const patients = rows.slice(0, limit);
  return { patients, nextBefore: more ? patients[patients.length - 1].fileId : null };
}

export async function vitalSeries(deps: Deps, guildId: string, fileId: string, o: { from?: number; to?: number; maxPoints?: number }): Promise<VitalSeries> {
  if (!(await reads.fileExists(deps.sql, guildId, fileId))) throw new AppError('NOT_FOUND', `no patient file ${fileId} in this guild`);
  if (o.from !== undefined && o.to !== undefined && o.from > o.to) throw new AppError('BAD_REQUEST', 'from must not be after to');
  return reads.vitalSeries(deps.sql, guildId, fileId, o.from ?? 0, o.to ?? Number.MAX_SAFE_INTEGER, o.maxPoints ?? 500);
}

const imageUrl = (guildId: string, id: string) => `${API_PREFIX}/medic/images/${id}?guild=${encodeURIComponent(guildId)}`;

/** A whole patient file: its summary, injuries, timeline (every event but vital samples) and what the board draws. */
export async function patientFile(deps: Deps, guildId: string, fileId: string): Promise<PatientDetail> {
  const [summary] = await store.summariesOf(deps.sql, guildId, [fileId]);
  if (!summary) throw new AppError('NOT_FOUND', `no patient file ${fileId} in this guild`);
  const [injuries, events, ecg, images, vitals] = await Promise.all([
    reads.injuriesOf(deps.sql, guildId, fileId), reads.timelineOf(deps.sql, guildId, fileId), reads.ecgOf(deps.sql, guildId, fileId),
    reads.imagesOf(deps.sql, guildId, fileId), reads.vitalSeries(deps.sql, guildId, fileId, 0, Number.MAX_SAFE_INTEGER, 500),
  ]);
  const injuryById = new Map(injuries.map((i) => [i.injuryId, i]));
  const timeline = events.map((e) => ({ ...e, summary: summaryText(e.type, e.data, injuryById) }));
  const treatments = events.filter((e) => e.type === 'treatment_applied').map((e) => {
    const d = e.data as Record<string, any>;
    return { eventId: e.eventId, at: e.at, treatment: d.treatment, item: d.item ?? null, injuryId: d.injuryId ?? null, by: d.by, tier: d.tier, result: d.result, note: d.note ?? null };
  });
  const labs = events.filter((e) => e.type === 'lab_toxicology').map((e) => {
    const d = e.data as Record<string, any>;
    return { eventId: e.eventId, at: e.at, unit: d.unit ?? 'ng/mL', substances: d.substances };
  });
  return {
    ...summary, injuries, timeline, treatments, vitals, ecg, labs,
    images: images.map((i) => ({ ...i, url: imageUrl(guildId, i.id) })),
  };
}

export async function medicImage(deps: Deps, guildId: string, id: string) {
  const found = await reads.imageBytes(deps.sql, guildId, id);
  if (!found) throw new AppError('NOT_FOUND', `no medic image ${id} in this guild`);
  const ext = found.contentType.slice(6).replace('jpeg', 'jpg');
  return { contentType: found.contentType, base64: found.data.toString('base64'), filename: `medic-${id}.${ext}` };
}

/** Closes an open file from the board (outcome `closed`), with a timeline entry naming who closed it. */
export async function closeFile(deps: Deps, guildId: string, fileId: string, note: string | undefined, actor: Actor, by: string) {
  await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockIngest(tx.sql, guildId); // not while a batch of the guild walks its open files
    const closedAt = await reads.closeFile(tx.sql, guildId, fileId);
    if (closedAt === null) {
      if (!(await reads.fileExists(tx.sql, guildId, fileId))) throw new AppError('NOT_FOUND', `no patient file ${fileId} in this guild`);
      throw new AppError('CONFLICT', `patient file ${fileId} is already closed`);
    }
    await reads.insertCloseEvent(tx.sql, guildId, fileId, closedAt, { note: note ?? null, by: { kind: actor.kind, id: actor.id, name: by } });
    const [summary] = await store.summariesOf(tx.sql, guildId, [fileId]);
    tx.emit('medic', { op: 'upsert', key: fileId, value: summary });
    tx.audit('medic.file_close', actor, { fileId, citizenId: summary.citizenId, note: note ?? null });
  });
  return patientFile(deps, guildId, fileId);
}

export async function tierMapping(deps: Deps, guildId: string) {
  return { mapping: await reads.tierMapping(deps.sql, guildId) };
}

export async function qualifications(deps: Deps, guildId: string) {
  const [tiers, mapping] = await Promise.all([reads.qualifiedPeople(deps.sql, guildId), reads.tierMapping(deps.sql, guildId)]);
  return { tiers, mapping };
}

/** Replaces the rank → care tier mapping; every rank must exist in the guild, each at most once. */
export async function setTiers(deps: Deps, guildId: string, mapping: { rankId: string; tier: number }[], actor: Actor) {
  const seen = new Set<string>();
  for (const [i, m] of mapping.entries()) {
    if (seen.has(m.rankId)) throw new AppError('BAD_REQUEST', `mapping[${i}].rankId ${m.rankId} is given twice`);
    seen.add(m.rankId);
  }
  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    const known = await reads.rankIds(tx.sql, guildId, [...seen]);
    const unknown = mapping.findIndex((m) => !known.has(m.rankId));
    if (unknown >= 0) throw new AppError('BAD_REQUEST', `mapping[${unknown}].rankId ${mapping[unknown].rankId} is not a rank of this guild`);
    await reads.replaceTiers(tx.sql, guildId, mapping);
    const now = await reads.tierMapping(tx.sql, guildId);
    tx.emit('settings', { op: 'set', key: 'medicTiers', value: now });
    tx.audit('medic.tiers_set', actor, { mapping });
    return { mapping: now };
  });
}
