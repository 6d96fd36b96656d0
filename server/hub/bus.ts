import type { GuildEvent } from '../../contract/topics.ts';

/** Node-local cache invalidations that every node must apply (a revoked key, a logout). */
export interface Invalidation { kind: 'apiKey' | 'session' | 'guild'; id: string }

/**
 * Fan-out port between nodes. Delivery is at most once and in publish order per publisher;
 * PostgreSQL's event log stays the truth, so a receiver that sees a seq gap replays from it.
 */
export interface Bus {
  publish(events: GuildEvent[]): void;
  onEvents(handler: (events: GuildEvent[]) => void): () => void;
  invalidate(inv: Invalidation): void;
  onInvalidate(handler: (inv: Invalidation) => void): () => void;
  /** Whether the broker between nodes (Redis) is reachable now; absent for the in-process bus. */
  readonly connected?: boolean;
  /** Called when messages may have been lost (a reconnect): receivers repair from the log. */
  onResync(handler: () => void): () => void;
  close(): Promise<void>;
}

/** The in-process bus: one node, synchronous delivery to local handlers. */
export function createMemoryBus(): Bus {
  const eventHandlers = new Set<(events: GuildEvent[]) => void>();
  const invHandlers = new Set<(inv: Invalidation) => void>();
  return {
    publish(events) {
      for (const h of eventHandlers) h(events);
    },
    onEvents(handler) {
      eventHandlers.add(handler);
      return () => eventHandlers.delete(handler);
    },
    invalidate(inv) {
      for (const h of invHandlers) h(inv);
    },
    onInvalidate(handler) {
      invHandlers.add(handler);
      return () => invHandlers.delete(handler);
    },
    onResync() {
      return () => {}; // nothing is ever lost in-process
    },
    async close() {
      eventHandlers.clear();
      invHandlers.clear();
    },
  };
}
