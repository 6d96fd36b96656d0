import { computed, signal } from '@preact/signals';
import { live } from '../../live/board-live.ts';
import type { CallEntry } from '../../live/entries.ts';
import { callKinds, type CallKind } from './words.ts';

/** The kind the list shows, or all. */
export const kindFilter = signal<CallKind | 'all'>('all');

/** Panic first, then priority (1 high), then the longest waiting. */
export function urgency(a: CallEntry, b: CallEntry): number {
  return Number(b.kind === 'panik') - Number(a.kind === 'panik') || a.priority - b.priority || a.createdAt - b.createdAt || (a.externalId < b.externalId ? -1 : 1);
}

/** A computed that keeps its last value when the new one is equal, so its readers do not re-render. */
function stable<T>(fn: () => T, same: (a: T, b: T) => boolean) {
  let last: T | undefined;
  let has = false;
  return computed(() => {
    const next = fn();
    if (has && same(last as T, next)) return last as T;
    has = true;
    return (last = next);
  });
}
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The ids of the calls to show, most urgent first. It reads every call's entry (kind, priority and
 * age decide the place), but a delta that leaves the order as it was (a re-reported message, a new
 * caller) keeps the same array: the list stays, only that call's row renders again.
 */
export const callOrder = stable(() => {
  const f = kindFilter.value;
  const shown: CallEntry[] = [];
  for (const id of live.calls.keys.value) {
    const c = live.calls.entry(id).value;
    if (c && (f === 'all' || c.kind === f)) shown.push(c);
  }
  return shown.sort(urgency).map((c) => c.externalId);
}, sameList);

/** Open calls per kind (for the filter's labels). */
export const kindCounts = stable(() => {
  const counts = Object.fromEntries(callKinds.map((k) => [k, 0])) as Record<CallKind, number>;
  for (const id of live.calls.keys.value) {
    const c = live.calls.entry(id).value;
    if (c) counts[c.kind]++;
  }
  return counts;
}, (a, b) => callKinds.every((k) => a[k] === b[k]));
