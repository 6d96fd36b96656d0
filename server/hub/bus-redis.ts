import { randomBytes } from 'node:crypto';
import type { Log } from '../core/log.ts';
import type { Bus, GuildFollow, Invalidation } from './bus.ts';
import { connectBroker, type Broker } from './redis-broker.ts';
import type { GuildEvent } from '../../contract/topics.ts';
import type { UnitPosition } from '../../contract/positions.ts';

/** Invalidations go to every node: any of them may hold a socket of the key or session. */
const INVALIDATE = 'dt:invalidate';
/** One channel per guild: only the nodes that serve the guild subscribe to it. */
export const guildChannel = (guildId: string) => `dt:g:${guildId}`;

export interface RedisBusOptions {
  /** How long a node stays subscribed to a guild after its last follower left (a board that reloads comes back). */
  unfollowDelayMs: number;
}

export const defaultRedisBusOptions: RedisBusOptions = { unfollowDelayMs: 30_000 };

interface Followed { refs: number; ready: Promise<void>; leaveTimer: NodeJS.Timeout | null }

/**
 * Redis pub/sub between nodes, a channel per guild. Local handlers get every message at once, in
 * process; other nodes get a guild's events through Redis, at most once, and only while they follow
 * that guild. Nothing waits for Redis: while it is down, publishes are dropped (the offline queue
 * is off, so memory stays flat) and receivers repair from PostgreSQL — on the `onResync` signal
 * after every reconnect, and by their periodic position check. A message starts with its sender's
 * node id, so a node skips its own echo without parsing it.
 */
export async function createRedisBus(url: string, log: Log, opts: RedisBusOptions = defaultRedisBusOptions): Promise<Bus> {
  const nodeId = randomBytes(6).toString('hex'); // 12 characters, the prefix of every message
  const eventHandlers = new Set<(events: GuildEvent[]) => void>();
  const invHandlers = new Set<(inv: Invalidation) => void>();
  const resyncHandlers = new Set<() => void>();
  const positionHandlers = new Set<(guildId: string, positions: UnitPosition[]) => void>();
  const followed = new Map<string, Followed>();
  let received = 0;

  const fromOtherNode = (message: string): string | null => (message.startsWith(nodeId) ? null : message.slice(nodeId.length));
  // One listener for every guild channel: subscribing again after a reconnect adds nothing twice.
  const onGuildMessage = (message: string) => {
    const body = fromOtherNode(message);
    if (body === null) return;
    // A guild channel carries two kinds: events (a JSON array) and unit positions (an object).
    if (body.startsWith('{')) {
      const { g, p } = JSON.parse(body) as { g: string; p: UnitPosition[] };
      for (const h of positionHandlers) h(g, p);
      return;
    }
    const events = JSON.parse(body) as GuildEvent[];
    received += events.length;
    for (const h of eventHandlers) h(events);
  };
  const onInvalidateMessage = (message: string) => {
    const body = fromOtherNode(message);
    if (body === null) return;
    const inv = JSON.parse(body) as Invalidation;
    for (const h of invHandlers) h(inv);
  };

  // Subscriptions that failed while Redis was away are made now (the ones Redis kept are not
  // doubled); then receivers read the log, so whatever was published meanwhile reaches them.
  const resubscribe = () => Promise.allSettled([...followed.keys()].map((guildId) => broker.subscribeGuild(guildChannel(guildId), onGuildMessage)));
  const broker: Broker = await connectBroker(url, log, {
    onBack() {
      void resubscribe().then(() => {
        for (const h of resyncHandlers) h();
      });
    },
  });
  await broker.subscribeAll(INVALIDATE, onInvalidateMessage);

  const send = (channel: string, body: string, sharded: boolean) => {
    if (!broker.ready) return; // down: dropped; receivers repair from the log
    (sharded ? broker.publishGuild(channel, nodeId + body) : broker.publishAll(channel, nodeId + body))
      .catch((err) => log.debug('redis publish failed', { error: String(err) }));
  };

  function follow(guildId: string): GuildFollow {
    let f = followed.get(guildId);
    if (!f) {
      // Ready even when Redis is away: the follower reads the log, and the resubscribe after the reconnect catches up.
      const ready = broker.subscribeGuild(guildChannel(guildId), onGuildMessage)
        .catch((err) => log.debug('redis subscribe failed; following after the reconnect', { guildId, error: String(err) }));
      f = { refs: 0, ready, leaveTimer: null };
      followed.set(guildId, f);
    }
    const entry = f;
    entry.refs++;
    if (entry.leaveTimer) clearTimeout(entry.leaveTimer);
    entry.leaveTimer = null;
    let released = false;
    return {
      ready: entry.ready,
      release() {
        if (released) return;
        released = true;
        if (--entry.refs > 0) return;
        entry.leaveTimer = setTimeout(() => {
          if (followed.get(guildId) !== entry || entry.refs > 0) return;
          followed.delete(guildId);
          void broker.unsubscribeGuild(guildChannel(guildId), onGuildMessage).catch(() => {});
        }, opts.unfollowDelayMs);
        entry.leaveTimer.unref();
      },
    };
  }

  return {
    publish(events) {
      for (const h of eventHandlers) h(events);
      for (const [guildId, ofGuild] of byGuild(events)) send(guildChannel(guildId), JSON.stringify(ofGuild), true);
    },
    onEvents(handler) {
      eventHandlers.add(handler);
      return () => eventHandlers.delete(handler);
    },
    follow,
    publishPositions(guildId, positions) {
      send(guildChannel(guildId), JSON.stringify({ g: guildId, p: positions }), true);
    },
    onPositions(handler) {
      positionHandlers.add(handler);
      return () => positionHandlers.delete(handler);
    },
    invalidate(inv) {
      for (const h of invHandlers) h(inv);
      send(INVALIDATE, JSON.stringify(inv), false);
    },
    onInvalidate(handler) {
      invHandlers.add(handler);
      return () => invHandlers.delete(handler);
    },
    onResync(handler) {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
    stats: {
      get received() { return received; },
      get followed() { return followed.size; },
    },
    get connected() {
      return broker.ready;
    },
    async close() {
      eventHandlers.clear();
      invHandlers.clear();
      resyncHandlers.clear();
      positionHandlers.clear();
      for (const f of followed.values()) if (f.leaveTimer) clearTimeout(f.leaveTimer);
      followed.clear();
      await broker.close();
    },
  };
}

/** The events grouped by guild, in order (a write's events are one guild's; a sweep's may be several). */
function byGuild(events: GuildEvent[]): Map<string, GuildEvent[]> {
  const groups = new Map<string, GuildEvent[]>();
  for (const ev of events) {
    const group = groups.get(ev.guildId);
    if (group) group.push(ev);
    else groups.set(ev.guildId, [ev]);
  }
  return groups;
}
