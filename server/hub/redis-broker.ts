import { createClient, createCluster } from '@redis/client';
import type { Log } from '../core/log.ts';

type Listener = (message: string) => void;

/**
 * The pub/sub the bus needs, on a single Redis or a Redis Cluster. Guild channels are sharded on
 * a cluster (`SPUBLISH`/`SSUBSCRIBE`, Redis ≥ 7): a guild's messages travel only through the
 * shard that owns its channel's slot, so the message load spreads over the shards. The global
 * channel (invalidations, rare) is classic pub/sub, which a cluster delivers to every node.
 */
export interface Broker {
  readonly mode: 'single' | 'cluster';
  /** Whether publishes can go out now. */
  readonly ready: boolean;
  publishGuild(channel: string, message: string): Promise<unknown>;
  subscribeGuild(channel: string, listener: Listener): Promise<void>;
  unsubscribeGuild(channel: string, listener: Listener): Promise<void>;
  publishAll(channel: string, message: string): Promise<unknown>;
  subscribeAll(channel: string, listener: Listener): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerEvents {
  /** The connection came back after a loss: messages may have been lost meanwhile. */
  onBack(): void;
}

/** `REDIS_URL`: one URL, or several comma-separated seed nodes of a cluster. */
export function redisUrls(value: string): string[] {
  return value.split(',').map((u) => u.trim()).filter(Boolean);
}

const socket = { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) };

/**
 * Connects to what `url` names: a Redis Cluster when a seed says so (`INFO cluster`), else a single
 * Redis. Seeds are asked in turn, so one that is down does not keep a node from starting; while none
 * answers, the node waits (as it waits for a single Redis), asking again every second.
 */
export async function connectBroker(url: string, log: Log, events: BrokerEvents): Promise<Broker> {
  const urls = redisUrls(url);
  if (urls.length === 0) throw new Error('REDIS_URL names no Redis');
  for (let round = 0; ; round++) {
    for (const [i, seed] of urls.entries()) {
      const cluster = await askCluster(seed, log);
      if (cluster === null) continue;
      if (cluster) log.info('REDIS_URL names a Redis Cluster: guild channels use sharded pub/sub');
      // The seed that answered first; a cluster client learns every node from it and keeps the others as fallbacks.
      const ordered = [seed, ...urls.filter((_, j) => j !== i)];
      return cluster ? connectCluster(ordered, log, events) : connectSingle(seed, log, events);
    }
    if (round === 0) log.warn('no Redis of REDIS_URL answers; waiting for one', { seeds: urls.length });
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Whether the Redis at `url` is a cluster node; null when it does not answer. */
async function askCluster(url: string, log: Log): Promise<boolean | null> {
  const probe = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  probe.on('error', (err) => log.debug('redis probe', { error: String(err) }));
  try {
    await probe.connect();
    return /^cluster_enabled:1\s*$/m.test(await probe.info('cluster'));
  } catch {
    return null;
  } finally {
    if (probe.isOpen) await probe.close().catch(() => {});
  }
}

async function connectSingle(url: string, log: Log, events: BrokerEvents): Promise<Broker> {
  const options = { url, disableOfflineQueue: true, socket };
  const pub = createClient(options);
  const sub = createClient(options);
  let lost = false;
  pub.on('error', (err) => log.debug('redis publisher', { error: String(err) }));
  sub.on('error', (err) => {
    if (!lost) log.warn('redis subscriber lost; repairing from PostgreSQL on reconnect', { error: String(err) });
    lost = true;
  });
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info('redis subscriber back; catching up from the event log');
    events.onBack();
  });
  await Promise.all([pub.connect(), sub.connect()]);
  return {
    mode: 'single',
    get ready() {
      return pub.isReady && sub.isReady;
    },
    publishGuild: (channel, message) => pub.publish(channel, message),
    subscribeGuild: (channel, listener) => sub.subscribe(channel, listener),
    unsubscribeGuild: (channel, listener) => sub.unsubscribe(channel, listener),
    publishAll: (channel, message) => pub.publish(channel, message),
    subscribeAll: (channel, listener) => sub.subscribe(channel, listener),
    async close() {
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}

/** How long after the last node came back the bus catches up (a failover re-subscribes in several steps). */
const SETTLE_MS = 250;

async function connectCluster(urls: string[], log: Log, events: BrokerEvents): Promise<Broker> {
  const cluster = createCluster({
    rootNodes: urls.map((url) => ({ url })),
    defaults: { disableOfflineQueue: true, socket },
    // A master that died: look up the new topology (its replica took over) after 1 s, not 5.
    topologyRefreshOnReconnectionAttemptStrategy: 1_000,
  });
  let lost = false;
  let settle: NodeJS.Timeout | null = null;
  const down = (what: string) => (err?: unknown) => {
    if (!lost) log.warn('a Redis Cluster node was lost; repairing from PostgreSQL when it is back', { what, error: String(err ?? '') });
    lost = true;
  };
  cluster.on('error', down('cluster'));
  cluster.on('node-error', down('node'));
  cluster.on('sharded-channel-moved-error', down('sharded channel moved'));
  cluster.on('node-ready', () => {
    if (!lost) return;
    if (settle) clearTimeout(settle);
    settle = setTimeout(() => {
      settle = null;
      lost = false;
      log.info('Redis Cluster nodes back; catching up from the event log');
      events.onBack();
    }, SETTLE_MS);
    settle.unref();
  });
  await cluster.connect();
  return {
    mode: 'cluster',
    get ready() {
      return cluster.isReady;
    },
    publishGuild: (channel, message) => cluster.sPublish(channel, message),
    subscribeGuild: (channel, listener) => cluster.sSubscribe(channel, listener),
    unsubscribeGuild: (channel, listener) => cluster.sUnsubscribe(channel, listener),
    publishAll: (channel, message) => cluster.publish(channel, message),
    subscribeAll: (channel, listener) => cluster.subscribe(channel, listener),
    async close() {
      if (settle) clearTimeout(settle);
      await cluster.close().catch(() => {});
    },
  };
}
