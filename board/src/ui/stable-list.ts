import { computed } from '@preact/signals';

/**
 * A computed list of numbers (row keys in display order) that keeps its identity while equal, so a
 * list re-renders only when rows come, go or move, not for a change inside a row (each row reads
 * its own signal).
 */
export function stableList(fn: () => number[]) {
  let last: readonly number[] = [];
  return computed(() => {
    const next = fn();
    if (next.length === last.length && next.every((n, i) => n === last[i])) return last;
    return (last = next);
  });
}
