import { computed } from '@preact/signals';

/**
 * A computed list of row keys (numbers or string ids, in display order) that keeps its identity
 * while equal, so a list re-renders only when rows come, go or move, not for a change inside a
 * row (each row reads its own signal).
 */
export function stableList<K extends number | string>(fn: () => K[]) {
  let last: readonly K[] = [];
  return computed(() => {
    const next = fn();
    if (next.length === last.length && next.every((n, i) => n === last[i])) return last;
    return (last = next);
  });
}
