import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx } from '../../store/tx.ts';
import { checkImage } from '../uploads/image.ts';
import { closingTypes, medicLimits, type EventResult, type MedicEvent } from './schema.ts';
import * as store from './store.ts';
import { checkEvent, type Checked } from './validate.ts';

type Imaging = Extract<MedicEvent, { type: 'imaging' }>;
interface CheckedImage { contentType: string; width: number; height: number; data: Buffer }
type Rejected = Extract<Checked, { ok: false }>;

const DATA_URI = /^data:(image\/[a-z0-9.+-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The image of an imaging event from its bytes: 413 over 5 MiB, 415 not PNG/JPEG/WebP, 400 not base64 or damaged. */
async function imageOf(e: Imaging, index: number): Promise<CheckedImage | Rejected> {
  const fail = (code: 400 | 413 | 415, error: string): Rejected => ({ ok: false, index, id: e.id, code, error: `events[${index}].image ${error}` });
  const b64 = e.image.replace(DATA_URI, '').replace(/\s+/g, '');
  if (Math.floor(b64.length * 3 / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0) > medicLimits.imageBytes) {
    return fail(413, `is larger than ${medicLimits.imageBytes} bytes (5 MiB) decoded`);
  }
  if (!BASE64.test(b64) || b64.length % 4 === 1) return fail(400, 'is not base64 (or a data:image/...;base64, URI)');
  const data = Buffer.from(b64, 'base64');
  if (data.length === 0) return fail(400, 'is empty');
  try {
    const img = await checkImage(data);
    if (img.contentType === 'image/gif') return fail(415, 'is a GIF; send PNG, JPEG or WebP');
    return { ...img, data };
  } catch (err) {
    const code = err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE' ? 415 : 400;
    return fail(code, code === 415 ? 'is not a PNG, JPEG or WebP image (decided from its bytes)' : `cannot be used: ${(err as Error).message}`);
  }
}

interface SimFile extends store.FileWrite { isNew: boolean }

/** The stored fields of an event besides the envelope (images: without their bytes). */
function dataOf(e: MedicEvent): Record<string, unknown> {
  const { id: _id, type: _type, citizenId: _c, at: _at, ...data } = e as MedicEvent & Record<string, unknown>;
  if (e.type === 'imaging') delete data.image; // the bytes are in medic_images, by event id
  if (e.type === 'lab_toxicology' && data.unit === undefined) data.unit = 'ng/mL';
  return data;
}

/**
 * Applies a batch of game events (POST /medic/events). Each event is checked alone: a bad one is
 * rejected with its index and the others applied, in array order. Idempotent by event id: an id
 * stored before in this guild (any type, both tables) or earlier in the batch is a duplicate and
 * changes nothing. Everything applied commits in one transaction under the guild's ingest lock,
 * with one multi-row insert per table and one `medic` upsert per touched file.
 */
export async function ingest(deps: Deps, guildId: string, raw: unknown[]) {
  const checked = raw.map(checkEvent);
  const images = new Map<number, CheckedImage>(); // checked before the transaction: decoding is slow
  for (const c of checked) {
    if (c.ok && c.event.type === 'imaging') {
      const img = await imageOf(c.event, c.index);
      if ('ok' in img) checked[c.index] = img;
      else images.set(c.index, img);
    }
  }
  const results: EventResult[] = checked.map((c) => c.ok
    ? { id: c.event.id, index: c.index, status: 'applied' }
    : { id: c.id, index: c.index, status: 'rejected', code: c.code, error: c.error });
  const valid = checked.filter((c): c is Extract<Checked, { ok: true }> => c.ok);
  if (valid.length) {
    await inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
      for (const s of await apply(tx.sql, guildId, valid, images, results)) tx.emit('medic', { op: 'upsert', key: String(s.fileId), value: s });
    });
  }
  let applied = 0, duplicates = 0;
  for (const r of results) r.status === 'applied' ? applied++ : r.status === 'duplicate' && duplicates++;
  return { results, applied, duplicates, rejected: results.length - applied - duplicates };
}

type Valid = Extract<Checked, { ok: true }>;
type Conn = Parameters<typeof store.storedIds>[0];

/**
 * The batch inside its transaction: reads (lock, stored ids, open files, their injuries) are
 * pipelined, the batch is walked in order in memory, then each table gets one write.
 * Returns the summaries of the touched files as committed.
 */
async function apply(db: Conn, guildId: string, valid: Valid[], images: Map<number, CheckedImage>, results: EventResult[]) {
  const citizens = [...new Set(valid.map((c) => c.event.citizenId))];
  const needInjuries = valid.some((c) => c.event.type === 'injury_changed' || c.event.type === 'injury_added');
  const lock = store.lockIngest(db, guildId);
  const [, stored, open] = await Promise.all([lock, store.storedIds(db, guildId, valid.map((c) => c.event.id)), store.openFilesOf(db, guildId, citizens)]);
  const injuries = new Map<string, store.InjuryRow>(); // `${fileKey}\n${injuryId}`
  if (needInjuries && open.length) for (const i of await store.injuriesOfFiles(db, guildId, open.map((f) => f.id))) injuries.set(`${i.fileId}\n${i.injuryId}`, i);

  const files = new Map<number, SimFile>(); // touched files by id; new ones by a negative placeholder until ids are drawn
  const openBy = new Map<string, SimFile>();
  for (const f of open) openBy.set(f.citizenId, { ...f, closedAt: null, outcome: null, isNew: false });
  let placeholder = 0;
  const fileFor = (citizenId: string, at: number): SimFile => {
    let f = openBy.get(citizenId);
    if (!f) {
      f = { id: --placeholder, citizenId, name: null, openedAt: at, lastEventAt: at, closedAt: null, outcome: null, isNew: true };
      openBy.set(citizenId, f);
    }
    files.set(f.id, f);
    return f;
  };
  const events: (store.EventRow & { file: SimFile | null; imageIndex?: number })[] = [];
  const vitals: { file: SimFile; e: Extract<MedicEvent, { type: 'vitals' }> }[] = [];
  const dirtyInjuries = new Set<store.InjuryRow>();
  const injuryFile = new Map<store.InjuryRow, SimFile>();
  const seen = new Set<string>();

  for (const { event: e, index } of valid) {
    if (stored.has(e.id) || seen.has(e.id)) {
      results[index].status = 'duplicate';
      continue;
    }
    if (e.type === 'injury_changed') {
      const f = openBy.get(e.citizenId);
      const injury = f && injuries.get(`${f.id}\n${e.injuryId}`);
      if (!f || !injury) {
        results[index] = { id: e.id, index, status: 'rejected', code: 400, error: `events[${index}].injuryId "${e.injuryId}" is not an injury of the citizen's open patient file` };
        continue;
      }
    }
    seen.add(e.id);
    if (e.type in closingTypes) {
      const f = openBy.get(e.citizenId) ?? null;
      if (f) {
        files.set(f.id, f);
        f.closedAt = e.at;
        f.outcome = closingTypes[e.type as keyof typeof closingTypes];
        f.lastEventAt = Math.max(f.lastEventAt, e.at);
        openBy.delete(e.citizenId);
      }
      events.push({ eventId: e.id, fileId: null, file: f, citizenId: e.citizenId, type: e.type, at: e.at, data: dataOf(e) });
      continue;
    }
    const f = fileFor(e.citizenId, e.at);
    f.lastEventAt = Math.max(f.lastEventAt, e.at);
    switch (e.type) {
      case 'vitals':
        vitals.push({ file: f, e });
        continue;
      case 'patient_admitted':
        if (e.name !== undefined) f.name = e.name;
        break;
      case 'injury_added': {
        const row: store.InjuryRow = { fileId: f.id, injuryId: e.injuryId, bodyPart: e.bodyPart, kind: e.kind, severity: e.severity, bleeding: e.bleeding ?? 0, state: 'open', addedAt: e.at, changedAt: e.at };
        const old = injuries.get(`${f.id}\n${e.injuryId}`);
        if (old) dirtyInjuries.delete(old);
        injuries.set(`${f.id}\n${e.injuryId}`, row);
        dirtyInjuries.add(row);
        injuryFile.set(row, f);
        break;
      }
      case 'injury_changed': {
        const row = injuries.get(`${f.id}\n${e.injuryId}`)!;
        if (e.severity !== undefined) row.severity = e.severity;
        if (e.bleeding !== undefined) row.bleeding = e.bleeding;
        if (e.state !== undefined) row.state = e.state;
        row.changedAt = e.at;
        dirtyInjuries.add(row);
        injuryFile.set(row, f);
        break;
      }
    }
    events.push({ eventId: e.id, fileId: null, file: f, citizenId: e.citizenId, type: e.type, at: e.at, data: dataOf(e), imageIndex: e.type === 'imaging' ? index : undefined });
  }

  // ids for files opened by this batch, then closes before opens (one open file per citizen)
  const created = [...files.values()].filter((f) => f.isNew);
  if (created.length) {
    const ids = await store.newFileIds(db, created.length);
    created.forEach((f, i) => { f.id = ids[i]; });
  }
  const writes: Promise<unknown>[] = [];
  const existing = [...files.values()].filter((f) => !f.isNew);
  if (existing.length) writes.push(store.updateFiles(db, guildId, existing));
  if (created.length) writes.push(store.insertFiles(db, guildId, created));
  for (const ev of events) {
    ev.fileId = ev.file?.id ?? null;
    if (ev.imageIndex !== undefined) writes.push(store.insertImage(db, guildId, { fileId: ev.fileId!, eventId: ev.eventId, ...images.get(ev.imageIndex)! }));
  }
  if (events.length) writes.push(store.insertEvents(db, guildId, events));
  if (vitals.length) {
    const v = store.emptyVitals();
    for (const { file, e } of vitals) {
      v.fileId.push(file.id); v.eventId.push(e.id); v.at.push(e.at);
      v.heartRate.push(e.heartRate ?? null); v.systolic.push(e.systolic ?? null); v.diastolic.push(e.diastolic ?? null);
      v.spo2.push(e.spo2 ?? null); v.respRate.push(e.respRate ?? null); v.temperature.push(e.temperature ?? null); v.gcs.push(e.gcs ?? null);
    }
    writes.push(store.insertVitals(db, guildId, v));
  }
  if (dirtyInjuries.size) {
    const rows = [...dirtyInjuries].map((r) => ({ ...r, fileId: injuryFile.get(r)!.id }));
    writes.push(store.upsertInjuries(db, guildId, rows));
  }
  const touched = [...files.values()].map((f) => f.id);
  // issued after the writes on the same connection, so it reads them; one await, so no rejection is left unhandled
  const [summaries] = await Promise.all([touched.length ? store.summariesOf(db, guildId, touched) : [], ...writes]);
  return summaries;
}
