import { batch, computed, effect, signal, type Signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { onNotice, onSnapshot } from '../../live/board-live.ts';
import { stableList } from '../../ui/stable-list.ts';

type ApiSheet = Out['incidents']['list']['incidents'][number];
type ApiEntry = Out['incidents']['get']['entries'][number];
type Ms<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? number | null : number };

/** An incident sheet without its timeline, times as epoch ms (the `incident` notice's shape). */
export type Sheet = Omit<Ms<ApiSheet, 'createdAt' | 'updatedAt' | 'closedAt'>, 'units'> & {
  units: Ms<ApiSheet['units'][number], 'assignedAt' | 'alarmedAt' | 'acknowledgedAt'>[];
  /** The guild's alarmAckTimeoutS, where the answer carried it (a sheet read whole, a notice; not the list). */
  alarmAckTimeoutS?: number;
};
export type Entry = Ms<ApiEntry, 'at'>;
export type Detail = Sheet & { entries: Entry[] };

const ms = (d: Date | number | string) => (typeof d === 'number' ? d : new Date(d).getTime());
const msOrNull = (d: Date | number | string | null) => (d === null ? null : ms(d));

/** From the API (Dates) or a notice (epoch ms) to the board's shape. */
export function toSheet(s: ApiSheet | Sheet | (ApiSheet & { alarmAckTimeoutS?: number })): Sheet {
  return {
    ...('alarmAckTimeoutS' in s && typeof s.alarmAckTimeoutS === 'number' ? { alarmAckTimeoutS: s.alarmAckTimeoutS } : {}),
    number: s.number, keyword: s.keyword, location: s.location, priority: s.priority, state: s.state, version: s.version,
    call: s.call, createdAt: ms(s.createdAt), updatedAt: ms(s.updatedAt), closedAt: msOrNull(s.closedAt), createdBy: s.createdBy,
    units: s.units.map((u) => ({
      callsign: u.callsign, label: u.label, assignedAt: ms(u.assignedAt),
      alarmedAt: msOrNull(u.alarmedAt), acknowledgedAt: msOrNull(u.acknowledgedAt), unacknowledged: u.unacknowledged,
    })),
  };
}
const toEntry = (e: ApiEntry | Entry): Entry => ({ ...e, at: ms(e.at) });

/**
 * The guild's incident sheets on the board: loaded once (`ensureSheets`), then kept current by the
 * `einsatzEntries` notices of the one live subscription, and loaded afresh after every snapshot
 * (the board may have missed notices). Each sheet is its own signal, as are the timelines of the
 * sheets opened; the list re-renders only when sheets come, go or change their place.
 */
const sheets = new Map<number, Signal<Sheet | undefined>>();
const timelines = new Map<number, Signal<Entry[] | undefined>>();
/** Sheet numbers known to the board (any order). */
const numbers = signal<readonly number[]>([]);
export const listState = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
export const listError = signal<string | null>(null);
/** The sheet open on the Einsätze tab (set by a take on the calls tab too). */
export const openSheet = signal<number | null>(null);

/**
 * Each notice about a sheet gets the next mark. A load or an answer that was asked for before a
 * sheet's last notice is older than what the board shows: it does not overwrite that sheet.
 */
let marks = 0;
const noticed = new Map<number, number>();
let loads = 0;

/** The mark to pass to `putDetail` for an answer asked for now. */
export function sheetMark(): number {
  return marks;
}

export function sheet(n: number): Signal<Sheet | undefined> {
  let s = sheets.get(n);
  if (!s) sheets.set(n, (s = signal<Sheet | undefined>(undefined)));
  return s;
}

/** The timeline of sheet `n`, oldest first; undefined until loaded (`loadTimeline`). */
export function timeline(n: number): Signal<Entry[] | undefined> {
  let s = timelines.get(n);
  if (!s) timelines.set(n, (s = signal<Entry[] | undefined>(undefined)));
  return s;
}

const newerThan = (n: number, mark: number) => (noticed.get(n) ?? -1) >= mark;

/** A sheet from a notice (`asked` undefined), or from a load or answer asked for at mark `asked`. */
function putSheet(next: Sheet, asked?: number): void {
  if (asked !== undefined && newerThan(next.number, asked)) return;
  if (asked === undefined) noticed.set(next.number, marks++);
  const s = sheet(next.number);
  const current = s.peek();
  if (current && next.version < current.version) return; // never back to an older version
  if (next.alarmAckTimeoutS === undefined && current?.alarmAckTimeoutS !== undefined) next = { ...next, alarmAckTimeoutS: current.alarmAckTimeoutS };
  s.value = next;
  if (!current) numbers.value = [...numbers.peek(), next.number];
}

const byId = (a: Entry, b: Entry) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);

function addEntries(n: number, entries: Entry[]): void {
  const s = timeline(n);
  const current = s.peek();
  if (!current) return; // not loaded: opening the sheet loads it whole
  const seen = new Set(current.map((e) => e.id));
  const fresh = entries.filter((e) => !seen.has(e.id));
  if (fresh.length) s.value = [...current, ...fresh].sort(byId);
}

/** A timeline entry as the API answers it (the same entry's notice may come before or after). */
export function putEntry(n: number, e: ApiEntry): void {
  addEntries(n, [toEntry(e)]);
}

/**
 * A sheet with its timeline as the API answered it (get, take, create, update …), asked for at
 * `asked` (`sheetMark()` before the request): the sheet unless a notice came since, the entries
 * merged with those the board has.
 */
export function putDetail(d: Out['incidents']['get'], asked: number): void {
  batch(() => {
    putSheet(toSheet(d), asked);
    if (!numbers.peek().includes(d.number)) numbers.value = [...numbers.peek(), d.number];
    const entries = d.entries.map(toEntry);
    if (!timeline(d.number).peek()) timeline(d.number).value = entries.sort(byId);
    else addEntries(d.number, entries);
  });
}

/** Runs a sheet write and shows its answer (the notices of the write may come before or after it). */
export async function writeSheet<T extends Out['incidents']['get']>(fn: () => Promise<T>): Promise<T> {
  const asked = sheetMark();
  const d = await fn();
  putDetail(d, asked);
  return d;
}

/**
 * Sheets of a history search page (history.ts), asked for at `asked`: shown like any other, and
 * kept on the board while the search shows them (`kept`).
 */
export function putSheets(list: ApiSheet[], asked: number): void {
  batch(() => {
    for (const s of list) putSheet(toSheet(s), asked);
  });
}

/** Sheet numbers that stay on the board although the open list no longer has them (the history's). */
let kept: () => readonly number[] = () => [];
const noticedHooks: ((n: number) => void)[] = [];
const resetHooks: (() => void)[] = [];
/** The history (history.ts) keeps its sheets on the board, hears of sheets noticed, and of resets. */
export function linkHistory(o: { keep: () => readonly number[]; noticed: (n: number) => void; reset: () => void }): void {
  kept = o.keep;
  noticedHooks.push(o.noticed);
  resetHooks.push(o.reset);
}

/** Loads the open sheets (closed ones come through the history search, history.ts). */
export async function loadSheets(): Promise<void> {
  const guildId = guild.peek()?.guildId;
  const mine = ++loads;
  const asked = sheetMark();
  if (listState.peek() !== 'ready') listState.value = 'loading';
  try {
    const open = await api.incidents.list.query({ state: 'open', limit: 500 });
    if (mine !== loads || guild.peek()?.guildId !== guildId) return;
    const all = open.incidents.map(toSheet);
    batch(() => {
      const keep = new Set([...all.map((s) => s.number), ...kept()]);
      // Gone from the answer (deleted, or closed long ago): off the list, unless open here or noticed since.
      const stays = (n: number) => keep.has(n) || newerThan(n, asked) || n === openSheet.peek();
      for (const n of numbers.peek()) if (!stays(n)) sheet(n).value = undefined;
      numbers.value = numbers.peek().filter(stays);
      for (const s of all) putSheet(s, asked);
      listState.value = 'ready';
      listError.value = null;
    });
  } catch (err) {
    if (mine !== loads) return;
    listState.value = 'error';
    listError.value = err instanceof Error ? err.message : String(err);
  }
}

/** Loads sheet `n` with its timeline (a sheet opened, a conflict, a snapshot). */
export async function loadTimeline(n: number): Promise<void> {
  const guildId = guild.peek()?.guildId;
  const asked = sheetMark();
  const detail = await api.incidents.get.query({ number: n });
  if (guild.peek()?.guildId === guildId) putDetail(detail, asked);
}

/** The list of sheets is wanted (the tab opened): loads it once; notices keep it current. */
export function ensureSheets(): void {
  if (listState.peek() === 'idle') void loadSheets();
}

const inState = (state: 'open' | 'closed') => numbers.value.map((n) => sheet(n).value).filter((s): s is Sheet => s?.state === state);

/** Open sheets, most urgent first (priority, then newest). */
export const openOrder = stableList(() => inState('open').sort((a, b) => a.priority - b.priority || b.number - a.number).map((s) => s.number));

type Op = { op: string; number?: number; incident?: Sheet; entry?: Entry };

function reset(): void {
  batch(() => {
    for (const s of sheets.values()) s.value = undefined;
    for (const s of timelines.values()) s.value = undefined;
    numbers.value = [];
    openSheet.value = null;
    listState.value = 'idle';
    listError.value = null;
  });
  loads++;
  for (const hook of resetHooks) hook();
}

let linked = false;
/** Feeds the store from the live subscription (once per page). */
export function linkIncidents(): void {
  if (linked) return;
  linked = true;
  onNotice('einsatzEntries', (ops) => {
    batch(() => {
      for (const op of ops as Op[]) {
        if (op.op === 'incident' && op.incident) {
          putSheet(toSheet(op.incident));
          for (const hook of noticedHooks) hook(op.incident.number);
        }
        else if (op.op === 'entry' && op.entry && typeof op.number === 'number') addEntries(op.number, [toEntry(op.entry)]);
      }
    });
  });
  onSnapshot(() => {
    if (listState.peek() === 'idle') return;
    void loadSheets();
    const n = openSheet.peek();
    if (n !== null) void loadTimeline(n).catch(() => {});
  });
  let shown: string | null = null;
  effect(() => {
    const id = guild.value?.guildId ?? null;
    if (id !== shown) {
      shown = id;
      reset();
    }
  });
}
