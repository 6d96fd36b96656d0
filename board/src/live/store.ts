import { batch, signal, type Signal } from '@preact/signals';
import type { Op, TopicState } from '../../../client-sdk/live.ts';

/**
 * One hot topic on the board, each entry its own signal: a delta sets the signals of the keys its
 * ops name, so only the tiles that show those entries re-render; `keys` changes only when entries
 * come or go. Entries are the SDK's state objects: an op that changes an entry replaces it, an
 * untouched entry keeps its identity.
 */
export class TopicStore<V> {
  /** The keys in the order the server's state holds them (lists sort for themselves). */
  readonly keys = signal<readonly string[]>([]);
  private readonly entries = new Map<string, Signal<V | undefined>>();

  /** The signal of one entry (undefined while it does not exist). */
  entry(key: string): Signal<V | undefined> {
    let s = this.entries.get(key);
    if (!s) this.entries.set(key, (s = signal<V | undefined>(undefined)));
    return s;
  }

  /** Every entry's value; a component that reads this re-renders on any change of the topic. */
  values(): V[] {
    return this.keys.value.map((k) => this.entry(k).value!).filter((v) => v !== undefined);
  }

  /** Reads without subscribing (event handlers, keyboard shortcuts). */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.peek();
  }

  /** A snapshot: every entry from the state; entries it lacks are gone. */
  replace(state: TopicState | undefined): void {
    const next = state ?? {};
    batch(() => {
      for (const [key, s] of this.entries) if (!(key in next)) s.value = undefined;
      for (const [key, value] of Object.entries(next)) this.entry(key).value = value as V;
      this.syncKeys(next);
    });
  }

  /** A delta: only the entries its ops name are read again from the state the SDK applied them to. */
  apply(state: TopicState | undefined, ops: readonly Op[]): void {
    const current = state ?? {};
    batch(() => {
      let keysChanged = false;
      for (const op of ops) {
        const key = (op.key ?? op.field) as string | undefined;
        if (typeof key !== 'string') continue;
        const had = this.entries.get(key)?.peek() !== undefined;
        this.entry(key).value = current[key] as V | undefined;
        if (had !== key in current) keysChanged = true;
      }
      if (keysChanged) this.syncKeys(current);
    });
  }

  private syncKeys(state: TopicState): void {
    this.keys.value = Object.keys(state);
  }
}
