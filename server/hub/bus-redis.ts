import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Log } from '../core/log.ts';
import type { Bus, Invalidation } from './bus.ts';
import type { GuildEvent } from '../../contract/topics.ts';

const EVENTS = 'dt:events';
const INVALIDATE = 'dt:invalidate';

/**
 * Redis pub/sub between nodes. Local handlers get every message at once, in process; other nodes
 * get it through Redis, at most once. Nothing waits for Redis: while it is down, publishes are
 * dropped (the offline queue is off, so memory stays flat) and receivers repair from PostgreSQL —
 * on the `onResync` signal after every reconnect, and by their periodic position check.
 */
export async function createRedisBus(url: string, log: Log): Promise<Bus> {
  const nodeId = randomBytes(6).toString('hex');
  const eventHandlers = new Set<(events: GuildEvent[]) => void>();
  const invHandlers = new Set<(inv: Invalidation) => void>();
  const resyncHandlers = new Set<() => void>();
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
    log.info('redis subscriber back; catching up from the event log');
    for (const h of resyncHandlers) h();
  });
  await Promise.all([pub.connect(), sub.connect()]);
  await sub.subscribe(EVENTS, (message) => {
    const m = JSON.parse(message) as { node: string; events: GuildEvent[] };
    if (m.node === nodeId) return;
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

  return {
    publish(events) {
      for (const h of eventHandlers) h(events);
      send(EVENTS, { events });
    },
    onEvents(handler) {
      eventHandlers.add(handler);
      return () => eventHandlers.delete(handler);
    },
    invalidate(inv) {
      for (const h of invHandlers) h(inv);
      send(INVALIDATE, { inv });
    },
    onInvalidate(handler) {
      invHandlers.add(handler);
      return () => invHandlers.delete(handler);
    },
    onResync(handler) {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
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
}
