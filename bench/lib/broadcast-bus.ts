/**
 * The reference of `bench scale`: the Redis bus as it was before issue 30 (server/hub/bus-redis.ts
 * at 8dda10c), kept only here. Every event of every guild goes through one channel, `dt:events`;
 * every node receives, parses and hands on all of them, whether it serves the guild or not.
 * `follow` is a no-op that is ready at once (every node hears everything anyway); `stats.received`
 * counts, as the product's bus does, the events that came from other nodes (after the sender
 * check), so `/metrics` reads the same figure for both buses. Passed to `startServer({ bus })`.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Log } from '../../server/core/log.ts';
import type { Bus, Invalidation } from '../../server/hub/bus.ts';
import type { GuildEvent } from '../../contract/topics.ts';

const EVENTS = 'dt:events';
const INVALIDATE = 'dt:invalidate';

const followedAtOnce = { ready: Promise.resolve(), release() {} };

export async function createBroadcastBus(url: string, log: Log): Promise<Bus> {
  const nodeId = randomBytes(6).toString('hex');
  const eventHandlers = new Set<(events: GuildEvent[]) => void>();
  const invHandlers = new Set<(inv: Invalidation) => void>();
  const resyncHandlers = new Set<() => void>();
  let received = 0;
  const options = {
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) },
  };
  const pub = createClient(options);
  const sub = createClient(options);
  let lostSubscriber = false;
  pub.on('error', (err) => log.debug('redis publisher', { error: String(err) }));
  sub.on('error', (err) => {
    if (!lostSubscriber) log.warn('redis subscriber lost; repairing from PostgreSQL on reconnect', { error: String(err) });
    lostSubscriber = true;
  });
  sub.on('ready', () => {
    if (!lostSubscriber) return;
    lostSubscriber = false;
    for (const h of resyncHandlers) h();
  });
  await Promise.all([pub.connect(), sub.connect()]);
  // As before issue 30: the whole message is parsed before its sender is checked.
  await sub.subscribe(EVENTS, (message) => {
    const m = JSON.parse(message) as { node: string; events: GuildEvent[] };
    if (m.node === nodeId) return;
    received += m.events.length;
    for (const h of eventHandlers) h(m.events);
  });
  await sub.subscribe(INVALIDATE, (message) => {
    const m = JSON.parse(message) as { node: string; inv: Invalidation };
    if (m.node === nodeId) return;
    for (const h of invHandlers) h(m.inv);
  });

  const send = (channel: string, payload: object) => {
    if (!pub.isReady) return; // down: dropped; receivers repair from the log
    pub.publish(channel, JSON.stringify({ node: nodeId, ...payload })).catch((err) => log.debug('redis publish failed', { error: String(err) }));
  };

  const bus = {
    publish(events: GuildEvent[]) {
      for (const h of eventHandlers) h(events);
      send(EVENTS, { events });
    },
    onEvents(handler: (events: GuildEvent[]) => void) {
      eventHandlers.add(handler);
      return () => eventHandlers.delete(handler);
    },
    follow: () => followedAtOnce,
    publishPositions() {}, // the reference carries events only
    onPositions: () => () => {},
    invalidate(inv: Invalidation) {
      for (const h of invHandlers) h(inv);
      send(INVALIDATE, { inv });
    },
    onInvalidate(handler: (inv: Invalidation) => void) {
      invHandlers.add(handler);
      return () => invHandlers.delete(handler);
    },
    onResync(handler: () => void) {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
    stats: {
      get received() { return received; },
      followed: 0,
    },
    get connected() {
      return pub.isReady && sub.isReady;
    },
    async close() {
      eventHandlers.clear();
      invHandlers.clear();
      resyncHandlers.clear();
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
  return bus;
}
