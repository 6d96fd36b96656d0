import { batch, signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';
import { summaryOf, type CitizenState, type Detail, type Filter, type Summary } from './types.ts';

/**
 * The Medic tab's state: the list as filtered and searched, the file open beside it. Loaded when
 * the tab opens; while it is open, each `medic` notice updates its row in place (the notice carries
 * the whole summary) and reloads the open file if it names it (debounced, within a second).
 */
export const filter = signal<Filter>('open');
export const query = signal('');
export const rows = signal<Summary[]>([]);
export const nextBefore = signal<number | null>(null);
export const listState = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
export const listError = signal<string | null>(null);
export const openFile = signal<number | null>(null);
export const detail = signal<Detail | null>(null);
export const detailError = signal<{ status: number | null; message: string } | null>(null);

const pageSize = 50;
let listLoads = 0;
let detailLoads = 0;

const byActivity = (a: Summary, b: Summary) => b.lastEventAt - a.lastEventAt || b.fileId - a.fileId;

/** The server's `q` rule, for rows that arrive by notice: citizen id prefix, or name substring (case-insensitive). */
function matches(s: Summary): boolean {
  const f = filter.peek();
  if (f !== 'all' && s.status !== f) return false;
  const q = query.peek().trim().toLowerCase();
  return !q || s.citizenId.toLowerCase().startsWith(q) || (s.name ?? '').toLowerCase().includes(q);
}

function params(before?: number) {
  const q = query.peek().trim();
  return { status: filter.peek(), limit: pageSize, ...(q ? { q } : {}), ...(before ? { before } : {}) };
}

/**
 * Each notice about a file gets the next mark. An answer asked for before a file's last notice may
 * have been read before that change was committed: for that file the noticed summary stands.
 */
let marks = 0;
const noticed = new Map<number, { mark: number; s: Summary }>();
const noticedSince = (fileId: number, asked: number) => (noticed.get(fileId)?.mark ?? -1) >= asked;

/** Loads the first page for the current filter and search; of overlapping loads only the last counts. */
export async function loadList(): Promise<void> {
  const mine = ++listLoads;
  const asked = marks;
  const guildId = guild.peek()?.guildId;
  if (listState.peek() !== 'ready') listState.value = 'loading';
  try {
    const r = await api.medic.patients.query(params());
    if (mine !== listLoads || guild.peek()?.guildId !== guildId) return;
    const byId = new Map(r.patients.map((s) => [s.fileId, s]));
    for (const [fileId, n] of noticed) {
      if (n.mark < asked) noticed.delete(fileId); // this answer already holds it; later loads too
      else if (matches(n.s)) byId.set(fileId, n.s);
      else byId.delete(fileId);
    }
    batch(() => {
      rows.value = [...byId.values()].sort(byActivity);
      nextBefore.value = r.nextBefore;
      listState.value = 'ready';
      listError.value = null;
    });
  } catch (err) {
    if (mine !== listLoads) return;
    listState.value = 'error';
    listError.value = err instanceof Error ? err.message : String(err);
  }
}

/** The next page (older activity), appended. */
export async function loadMore(): Promise<void> {
  const before = nextBefore.peek();
  if (!before) return;
  const mine = listLoads;
  let r: Awaited<ReturnType<typeof api.medic.patients.query>>;
  try {
    r = await api.medic.patients.query(params(before));
  } catch (err) {
    if (mine === listLoads) listError.value = err instanceof Error ? err.message : String(err);
    return;
  }
  if (mine !== listLoads) return;
  const seen = new Set(rows.peek().map((s) => s.fileId));
  batch(() => {
    rows.value = [...rows.peek(), ...r.patients.filter((s) => !seen.has(s.fileId))];
    nextBefore.value = r.nextBefore;
  });
}

/** Loads the open file whole; an answer for a file no longer open is dropped. */
export async function loadDetail(fileId: number): Promise<void> {
  const mine = ++detailLoads;
  const asked = marks;
  try {
    const d: Detail = await api.medic.patient.query({ fileId });
    if (mine !== detailLoads || openFile.peek() !== fileId) return;
    batch(() => {
      detail.value = d;
      detailError.value = null;
      if (!noticedSince(fileId, asked)) putRow(summaryOf(d), false); // else the reload after that notice follows
    });
  } catch (err) {
    if (mine !== detailLoads || openFile.peek() !== fileId) return;
    const status = (err as { data?: { httpStatus?: number } }).data?.httpStatus ?? null;
    detailError.value = { status, message: err instanceof Error ? err.message : String(err) };
  }
}

/** Opens a file (null: back to the list). */
export function showFile(fileId: number | null): void {
  if (openFile.peek() === fileId) return;
  batch(() => {
    openFile.value = fileId;
    detail.value = null;
    detailError.value = null;
  });
  if (fileId !== null) void loadDetail(fileId);
}

/** A row as a notice or a file read says it: replaced in place, inserted at its place, or dropped when it no longer matches. */
function putRow(s: Summary, insert = true): void {
  const list = rows.peek();
  const i = list.findIndex((r) => r.fileId === s.fileId);
  if (!matches(s)) {
    if (i !== -1 && insert) rows.value = list.filter((r) => r.fileId !== s.fileId);
    return;
  }
  if (i === -1 && !insert) return;
  const next = i === -1 ? [...list, s] : list.map((r) => (r.fileId === s.fileId ? s : r));
  rows.value = next.sort(byActivity);
}

/** Reloads the open file after notices: 250 ms after the last one, and never later than 1 s after the first. */
let reloadTimer: ReturnType<typeof setTimeout> | undefined;
let firstPending = 0;
function reloadOpenSoon(): void {
  const now = Date.now();
  if (reloadTimer === undefined) firstPending = now;
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => {
    reloadTimer = undefined;
    const n = openFile.peek();
    if (n !== null) void loadDetail(n);
  }, Math.max(0, Math.min(250, firstPending + 1000 - now)));
}

/** The ops of topic `medic`: `upsert` a file's summary (key fileId), `state` a citizen's state (key citizenId). */
type MedicOp = { op: 'upsert'; key: string; value: Summary } | { op: 'state'; key: string; value: CitizenState } | { op: string; key?: string; value?: undefined };

function onMedic(ops: readonly MedicOp[]): void {
  batch(() => {
    for (const op of ops) {
      if (op.op === 'upsert' && op.value) {
        const s = op.value as Summary;
        noticed.set(s.fileId, { mark: marks++, s });
        putRow(s);
        if (s.fileId === openFile.peek()) reloadOpenSoon();
      } else if (op.op === 'state' && op.value && typeof op.key === 'string') {
        const state = op.value as CitizenState;
        rows.value = rows.peek().map((r) => (r.citizenId === op.key ? { ...r, state } : r));
        const d = detail.peek();
        if (d && d.citizenId === op.key) detail.value = { ...d, state };
      }
    }
  });
}

/**
 * While the tab is open: the list (and the open file) now, and kept current by `medic` notices;
 * loaded afresh after a snapshot (notices may have been missed). Returns the unlink.
 */
let linkedGuild: string | null = null;
export function linkMedicLive(): () => void {
  const g = guild.peek()?.guildId ?? null;
  if (g !== linkedGuild) resetMedic();
  linkedGuild = g;
  void loadList();
  const n = openFile.peek();
  if (n !== null) void loadDetail(n);
  const offs = [
    onNotice('medic', (ops) => onMedic(ops as MedicOp[])),
    onSnapshot(() => {
      void loadList();
      const open = openFile.peek();
      if (open !== null) void loadDetail(open);
    }),
  ];
  return () => {
    for (const off of offs) off();
    clearTimeout(reloadTimer);
    reloadTimer = undefined;
  };
}

/** Another guild opened: nothing of the last one stays. */
function resetMedic(): void {
  listLoads++;
  detailLoads++;
  noticed.clear();
  batch(() => {
    rows.value = [];
    nextBefore.value = null;
    listState.value = 'idle';
    openFile.value = null;
    detail.value = null;
  });
}
