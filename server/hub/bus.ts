import type { GuildEvent } from '../../contract/topics.ts';
import type { UnitPosition } from '../../contract/positions.ts';

/** Node-local cache invalidations that every node must apply (a revoked key, a logout). */
export interface Invalidation { kind: 'apiKey' | 'session' | 'guild'; id: string }

/** A node's interest in one guild's events; `release()` once when done (further calls do nothing). */
export interface GuildFollow {
  /** Settles once the broker delivers the guild's events to this node: read the log after it, never before. */
  readonly ready: Promise<void>;
  release(): void;
}

/** What the bus counts, for the metrics. */
export interface BusStats {
  /** Events that came from other nodes through the broker (a node's own echo is not counted). */
  readonly received: number;
  /** Guilds this node follows at the broker now. */
  readonly followed: number;
}

/**
 * Fan-out port between nodes. Delivery is at most once and in publish order per publisher;
 * PostgreSQL's event log stays the truth, so a receiver that sees a seq gap replays from it.
 * `onEvents` hears every local publish and, from other nodes, only the guilds this node follows:
 * a node's work follows the guilds it serves, not the whole network's traffic.
 */
export interface Bus {
  publish(events: GuildEvent[]): void;
  onEvents(handler: (events: GuildEvent[]) => void): () => void;
  /** Ref-counted: the node hears other nodes' events of the guild from `ready` on until the last release (and a while after). */
  follow(guildId: string): GuildFollow;
  /**
   * Unit positions a node received from the game, for the other nodes that follow the guild (not
   * for this node's own handlers: the receiver has applied them already). Ephemeral: at most once,
   * no log behind them; a lost message is made good by the unit's next position a second later.
   */
  publishPositions(guildId: string, positions: UnitPosition[]): void;
  onPositions(handler: (guildId: string, positions: UnitPosition[]) => void): () => void;
  invalidate(inv: Invalidation): void;
  onInvalidate(handler: (inv: Invalidation) => void): () => void;
  /** Whether the broker between nodes (Redis) is reachable now; absent for the in-process bus. */
  readonly connected?: boolean;
  readonly stats: BusStats;
  /** Called when messages may have been lost (a reconnect): receivers repair from the log. */
  onResync(handler: () => void): () => void;
  close(): Promise<void>;
}

/** A follow that stands at once and holds nothing: every event is local (the in-process bus, a hub made by hand). */
export const followedAtOnce: GuildFollow = { ready: Promise.resolve(), release() {} };

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
    follow: () => followedAtOnce, // every event is local
    publishPositions() {}, // no other node
    onPositions: () => () => {},
    invalidate(inv) {
      for (const h of invHandlers) h(inv);
    },
    onInvalidate(handler) {
      invHandlers.add(handler);
      return () => invHandlers.delete(handler);
    },
    stats: { received: 0, followed: 0 },
    onResync() {
      return () => {}; // nothing is ever lost in-process
    },
    async close() {
      eventHandlers.clear();
      invHandlers.clear();
    },
  };
}
