import { batch, signal } from '@preact/signals';
import { api, messageOf } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import { linkHistory, putSheets, sheetMark } from './store.ts';

/** What the history search asks for: words, a unit, days (YYYY-MM-DD); empty means no filter. */
export interface HistoryQuery { q: string; unit: string; from: string; to: string }
export const emptyQuery: HistoryQuery = { q: '', unit: '', from: '', to: '' };
const PAGE = 25;

/**
 * The Einsätze tab's history: open and closed sheets, newest first, from GET /incidents with the
 * query (q, unit, from, to) a page at a time ("Mehr laden" follows nextCursor). The sheets shown
 * are the board's own sheet signals, so a row follows its sheet live (closed, units, alarm).
 */
export const historyQuery = signal<HistoryQuery>(emptyQuery);
export const historyNumbers = signal<readonly number[]>([]);
export const historyState = signal<'idle' | 'loading' | 'more' | 'ready' | 'error'>('idle');
export const historyError = signal<string | null>(null);
let cursor: string | null = null;
let asks = 0;

export const hasMore = signal(false);
export const isFiltered = (q: HistoryQuery) => !!(q.q.trim() || q.unit || q.from || q.to);

/** The first page of `query` (replacing what is shown), or with `more` the next page of the current one. */
export async function searchHistory(query: HistoryQuery = historyQuery.peek(), more = false): Promise<void> {
  const mine = ++asks;
  const guildId = guild.peek()?.guildId;
  if (!more) historyQuery.value = query;
  historyState.value = more ? 'more' : 'loading';
  const asked = sheetMark();
  try {
    const page = await api.incidents.list.query({
      limit: PAGE,
      ...(query.q.trim() ? { q: query.q.trim() } : {}), ...(query.unit ? { unit: query.unit } : {}),
      ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}),
      ...(more && cursor ? { cursor } : {}),
    });
    if (mine !== asks || guild.peek()?.guildId !== guildId) return;
    batch(() => {
      putSheets(page.incidents, asked);
      const numbers = page.incidents.map((s) => s.number);
      historyNumbers.value = more ? [...historyNumbers.peek(), ...numbers.filter((n) => !historyNumbers.peek().includes(n))] : numbers;
      cursor = page.nextCursor;
      hasMore.value = page.nextCursor !== null;
      historyState.value = 'ready';
      historyError.value = null;
    });
  } catch (err) {
    if (mine !== asks) return;
    historyState.value = 'error';
    historyError.value = messageOf(err);
  }
}

/**
 * A sheet the board heard of (created, closed, changed) while the unfiltered history is shown: it
 * takes its place there (newest first) if it falls in the part loaded so far.
 */
export function noticeForHistory(n: number): void {
  if (historyState.peek() !== 'ready' || isFiltered(historyQuery.peek())) return;
  const shown = historyNumbers.peek();
  if (shown.includes(n)) return;
  if (hasMore.peek() && shown.length && n < shown[shown.length - 1]) return;
  historyNumbers.value = [...shown, n].sort((a, b) => b - a);
}

/** The guild changed or the board was reset: the history starts over. */
export function resetHistory(): void {
  asks++;
  cursor = null;
  batch(() => {
    historyNumbers.value = [];
    historyState.value = 'idle';
    historyError.value = null;
    historyQuery.value = emptyQuery;
    hasMore.value = false;
  });
}

linkHistory({ keep: () => historyNumbers.peek(), noticed: noticeForHistory, reset: resetHistory });
