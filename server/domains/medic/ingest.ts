import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Tx } from '../../store/tx.ts';
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

type SimFile = store.FileWrite & { isNew: boolean };

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
export async function ingest(deps: Pick<Deps, 'db' | 'bus'>, guildId: string, raw: unknown[]) {
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
    await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
      for (const s of await apply(tx, valid, images, results)) tx.emit('medic', { op: 'upsert', key: s.fileId, value: s });
    });
  }
  let applied = 0, duplicates = 0;
  for (const r of results) r.status === 'applied' ? applied++ : r.status === 'duplicate' && duplicates++;
  return { results, applied, duplicates, rejected: results.length - applied - duplicates };
}

type Valid = Extract<Checked, { ok: true }>;

/**
 * The batch inside its transaction in two round trips (syscalls are what a batch costs most here,
 * so each round trip is one write to the socket): the lock and one statement of reads (stored
 * ids, open files with their injury count and newest sample, states, injuries); the batch walked
 * in order in memory; then one statement writing files, events, samples and injuries, deferred
 * (`tx.defer`): it travels with the outbox statement and COMMIT, and if it fails nothing commits
 * and the caller gets its error. A batch that opens files first draws their ids and writes them (a
 * third round trip, once per new patient). Returns the touched files' summaries as they will be
 * committed (built from the reads and the batch).
 */
async function apply(tx: Tx, valid: Valid[], images: Map<number, CheckedImage>, results: EventResult[]) {
  const { sql: db, guildId } = tx;
  const citizens = [...new Set(valid.map((c) => c.event.citizenId))];
  const named = valid.flatMap(({ event: e }) => (e.type === 'injury_changed' || e.type === 'injury_added' ? [{ citizenId: e.citizenId, injuryId: e.injuryId }] : []));
  // the lock travels with the reads (one write to the socket) and is taken before their snapshot; its failure fails them too
  store.lockIngest(db, guildId).catch(() => {});
  const { stored, open, states, injuries: known } = await store.ingestReads(db, guildId, valid.map((c) => c.event.id), citizens, named);
  const injuries = new Map<string, store.InjuryRow>(); // `${fileId}\n${injuryId}` → as it stands
  for (const i of known) injuries.set(`${i.fileId}\n${i.injuryId}`, i);

  const files = new Map<number, SimFile>(); // touched files; new ones under a negative placeholder id until ids are drawn
  const openBy = new Map<string, SimFile>();
  for (const f of open) openBy.set(f.citizenId, { ...f, closedAt: null, outcome: null, isNew: false });
  let placeholder = 0;
  const fileFor = (citizenId: string, at: number): SimFile => {
    let f = openBy.get(citizenId);
    if (!f) {
      f = { id: --placeholder, citizenId, name: null, openedAt: at, lastEventAt: at, closedAt: null, outcome: null, isNew: true, injuries: 0, lastVitals: null };
      openBy.set(citizenId, f);
    }
    files.set(f.id, f);
    return f;
  };
  const events: (store.EventRow & { file: SimFile | null; imageIndex?: number })[] = [];
  const v = store.emptyVitals();
  const vitalFiles: SimFile[] = [];
  const changed = new Map<store.InjuryRow, SimFile>(); // injuries to write, with their file
  const seen = new Set<string>();

  for (const { event: e, index } of valid) {
    if (stored.has(e.id) || seen.has(e.id)) {
      results[index].status = 'duplicate';
      continue;
    }
    if (e.type === 'vitals') { // the bulk: no object per sample beyond the column arrays
      seen.add(e.id);
      const f = fileFor(e.citizenId, e.at);
      if (e.at > f.lastEventAt) f.lastEventAt = e.at;
      vitalFiles.push(f); v.eventId.push(e.id); v.at.push(e.at);
      v.heartRate.push(e.heartRate ?? null); v.systolic.push(e.systolic ?? null); v.diastolic.push(e.diastolic ?? null);
      v.spo2.push(e.spo2 ?? null); v.respRate.push(e.respRate ?? null); v.temperature.push(e.temperature ?? null); v.gcs.push(e.gcs ?? null);
      if (!f.lastVitals || e.at >= f.lastVitals.at) {
        f.lastVitals = { at: e.at, heartRate: e.heartRate ?? null, systolic: e.systolic ?? null, diastolic: e.diastolic ?? null, spo2: e.spo2 ?? null, respRate: e.respRate ?? null, temperature: e.temperature ?? null, gcs: e.gcs ?? null };
      }
      continue;
    }
    if (e.type === 'injury_changed') {
      const f = openBy.get(e.citizenId);
      if (!f || !injuries.has(`${f.id}\n${e.injuryId}`)) {
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
    if (e.type === 'patient_admitted' && e.name !== undefined) f.name = e.name;
    if (e.type === 'injury_added' || e.type === 'injury_changed') {
      const k = `${f.id}\n${e.injuryId}`;
      const old = injuries.get(k);
      const row: store.InjuryRow = e.type === 'injury_added'
        ? { fileId: f.id, injuryId: e.injuryId, bodyPart: e.bodyPart, kind: e.kind, severity: e.severity, bleeding: e.bleeding ?? 0, state: 'open', addedAt: e.at, changedAt: e.at }
        : { ...old!, severity: e.severity ?? old!.severity, bleeding: e.bleeding ?? old!.bleeding, state: e.state ?? old!.state, changedAt: e.at };
      if (old) changed.delete(old);
      f.injuries += (row.state !== 'healed' ? 1 : 0) - (old && old.state !== 'healed' ? 1 : 0);
      injuries.set(k, row);
      changed.set(row, f);
    }
    events.push({ eventId: e.id, fileId: null, file: f, citizenId: e.citizenId, type: e.type, at: e.at, data: dataOf(e), imageIndex: e.type === 'imaging' ? index : undefined });
  }

  // ids for the files this batch opens; closes are written before opens (one open file per citizen)
  const created = [...files.values()].filter((f) => f.isNew);
  if (created.length) {
    const ids = await store.newFileIds(db, created.length);
    created.forEach((f, i) => { f.id = ids[i]; });
  }
  const writes: Promise<unknown>[] = [];
  let existing = [...files.values()].filter((f) => !f.isNew);
  if (created.length) { // closes before opens: the unique index allows one open file per citizen at any moment
    if (existing.length) writes.push(store.updateFiles(db, guildId, existing));
    writes.push(store.insertFiles(db, guildId, created));
    existing = [];
  }
  for (const ev of events) {
    ev.fileId = ev.file?.id ?? null;
    if (ev.imageIndex !== undefined) writes.push(store.insertImage(db, guildId, { fileId: ev.fileId!, eventId: ev.eventId, ...images.get(ev.imageIndex)! }));
  }
  v.fileId = vitalFiles.map((f) => f.id);
  if (existing.length || events.length || vitalFiles.length || changed.size) { // a batch of duplicates writes nothing
    writes.push(store.writeBatch(db, guildId, { files: existing, events, vitals: v, injuries: [...changed].map(([r, f]) => ({ ...r, fileId: f.id })) }));
  }
  for (const w of writes) tx.defer(w);
  return [...files.values()].map((f) => store.patientSummary(f, states.get(f.citizenId) ?? null));
}
