import { batch, computed, signal, type Signal } from '@preact/signals';
import { api, httpStatusOf, messageOf } from '../../app/api.ts';
import { guild, signedOut } from '../../app/session.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';
import { stableList } from '../../ui/stable-list.ts';
import { ms, summaryOf, type CitizenState, type Detail, type Filter, type Summary } from './types.ts';

/**
 * The Medic tab's state: the list as filtered and searched, the file open beside it. Loaded when
 * the tab opens; while it is open, each `medic` notice updates its row in place (the notice carries
 * the whole summary) and reloads the open file if it names it (debounced, within a second). Each
 * row is its own signal: a notice re-renders its row, the list only when rows come, go or move.
 */
export const filter = signal<Filter>('open');
export const query = signal('');
const rows = new Map<string, Signal<Summary | undefined>>();
/** File ids listed (any order). */
const listed = signal<readonly string[]>([]);
export const nextBefore = signal<string | null>(null);
export const listState = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
export const listError = signal<string | null>(null);
export const openFile = signal<string | null>(null);
export const detail = signal<Detail | null>(null);
export const detailError = signal<{ status: number | null; message: string } | null>(null);

const pageSize = 50;
let listLoads = 0;
let detailLoads = 0;

/** The row of a file; undefined until listed. */
export function patientRow(fileId: string): Signal<Summary | undefined> {
  let r = rows.get(fileId);
  if (!r) rows.set(fileId, (r = signal<Summary | undefined>(undefined)));
  return r;
}

/** Newest activity first; of equal activity the newer file (ids are strings of digits, at most 15: exact as numbers). */
const byActivity = (a: Summary, b: Summary) => ms(b.lastEventAt) - ms(a.lastEventAt) || Number(b.fileId) - Number(a.fileId);

/** The files listed, latest activity first. */
export const listOrder = stableList(() => listed.value.map((id) => patientRow(id).value).filter((s): s is Summary => !!s).sort(byActivity).map((s) => s.fileId));

/** Equal as data (key order aside): a row read again unchanged is not rendered again. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function setRow(s: Summary): void {
  const r = patientRow(s.fileId);
  if (!same(r.peek(), s)) r.value = s;
}

/** The server's `q` rule, for rows that arrive by notice: citizen id prefix, or name substring (case-insensitive). */
function matches(s: Summary): boolean {
  const f = filter.peek();
  if (f !== 'all' && s.status !== f) return false;
  const q = query.peek().trim().toLowerCase();
  return !q || s.citizenId.toLowerCase().startsWith(q) || (s.name ?? '').toLowerCase().includes(q);
}

function params(before?: string) {
  const q = query.peek().trim();
  return { status: filter.peek(), limit: pageSize, ...(q ? { q } : {}), ...(before ? { before } : {}) };
}

/** A failed read: its message in the board's language; a 401 signs the board out. */
function failure(err: unknown): string {
  if (httpStatusOf(err) === 401) signedOut('expired');
  return messageOf(err);
}

/**
 * Each notice about a file gets the next mark. An answer asked for before a file's last notice may
 * have been read before that change was committed: for that file the noticed summary stands.
 */
let marks = 0;
const noticed = new Map<string, { mark: number; s: Summary }>();
const noticedSince = (fileId: string, asked: number) => (noticed.get(fileId)?.mark ?? -1) >= asked;

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
      for (const s of byId.values()) setRow(s);
      listed.value = [...byId.keys()];
      nextBefore.value = r.nextBefore;
      listState.value = 'ready';
      listError.value = null;
    });
  } catch (err) {
    if (mine !== listLoads) return;
    listState.value = 'error';
    listError.value = failure(err);
  }
}

/** The next page (older activity), added. */
export async function loadMore(): Promise<void> {
  const before = nextBefore.peek();
  if (!before) return;
  const mine = listLoads;
  let r: Awaited<ReturnType<typeof api.medic.patients.query>>;
  try {
    r = await api.medic.patients.query(params(before));
  } catch (err) {
    if (mine === listLoads) listError.value = failure(err);
    return;
  }
  if (mine !== listLoads) return;
  const seen = new Set(listed.peek());
  const fresh = r.patients.filter((s) => !seen.has(s.fileId));
  batch(() => {
    for (const s of fresh) setRow(s);
    listed.value = [...listed.peek(), ...fresh.map((s) => s.fileId)];
    nextBefore.value = r.nextBefore;
  });
}

/**
 * A file as the server answered it, asked for at mark `asked`: shown if still open here, its row
 * put unless a notice came since. A file never opens again, so an open read after a closed one is older.
 */
function putDetail(d: Detail, asked: number): void {
  const shown = detail.peek();
  if (openFile.peek() !== d.fileId || (shown?.fileId === d.fileId && shown.status === 'closed' && d.status === 'open')) return;
  batch(() => {
    detail.value = d;
    detailError.value = null;
    if (!noticedSince(d.fileId, asked)) putRow(summaryOf(d), false); // else that notice's row stands
  });
}

/** Loads the open file whole; an answer for a file no longer open is dropped. */
export async function loadDetail(fileId: string): Promise<void> {
  const mine = ++detailLoads;
  const asked = marks;
  try {
    const d: Detail = await api.medic.patient.query({ fileId });
    if (mine === detailLoads) putDetail(d, asked);
  } catch (err) {
    if (mine !== detailLoads || openFile.peek() !== fileId) return;
    detailError.value = { status: httpStatusOf(err) ?? null, message: failure(err) };
  }
}

/** Closes a file and shows the server's answer; a 409 (closed meanwhile) loads the file as the server has it. */
export async function closeFile(fileId: string, note: string): Promise<Detail> {
  const asked = marks;
  try {
    const d = await api.medic.close.mutate({ fileId, ...(note ? { note } : {}) });
    putDetail(d, asked);
    return d;
  } catch (err) {
    if (httpStatusOf(err) === 409) void loadDetail(fileId);
    throw err;
  }
}

/** Opens a file (null: back to the list). */
export function showFile(fileId: string | null): void {
  if (openFile.peek() === fileId) return;
  batch(() => {
    openFile.value = fileId;
    detail.value = null;
    detailError.value = null;
  });
  if (fileId !== null) void loadDetail(fileId);
}

/** A row as a notice or a file read says it: replaced in place, added, or dropped when it no longer matches. */
function putRow(s: Summary, insert = true): void {
  const on = listed.peek().includes(s.fileId);
  if (!matches(s)) {
    if (on && insert) listed.value = listed.peek().filter((id) => id !== s.fileId);
    return;
  }
  if (!on && !insert) return;
  setRow(s);
  if (!on) listed.value = [...listed.peek(), s.fileId];
}

/**
 * The open file already shows what a notice about it says: it is closed (no event reaches a
 * closed file; a later one opens a new file) and its summary is the notice's.
 */
function shows(s: Summary | undefined): boolean {
  const d = detail.peek();
  return !!s && !!d && d.fileId === s.fileId && d.status === 'closed' && same(summaryOf(d), s);
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
    if (n !== null && !shows(noticed.get(n)?.s)) void loadDetail(n);
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
        if (s.fileId === openFile.peek() && !shows(s)) reloadOpenSoon();
      } else if (op.op === 'state' && op.value && typeof op.key === 'string') {
        const state = op.value as CitizenState;
        for (const id of listed.peek()) {
          const r = patientRow(id);
          const s = r.peek();
          if (s?.citizenId === op.key) r.value = { ...s, state };
        }
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
    for (const r of rows.values()) r.value = undefined;
    listed.value = [];
    nextBefore.value = null;
    listState.value = 'idle';
    openFile.value = null;
    detail.value = null;
  });
}
