import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where a request came in: the REST facade, tRPC over HTTP, the WebSocket, or another plain route (pages, assets, login, /metrics). */
export type Door = 'rest' | 'trpc_http' | 'ws' | 'http';

/**
 * What a scrape reads from the running server: counts the server keeps anyway (plain integers, so
 * a delivery costs no metrics work) and states it can say at any moment.
 */
export interface ScrapeSources {
  sockets(): { open: number; pending: number; subscriptions: number; slowConsumers: number; closes: ReadonlyMap<string, number> };
  fanout(): { subscriptions: number; deliveries: number; slowConsumers: number };
  hubGuilds(): number;
  /** Events from other nodes through the broker, and the guilds followed there (hub/bus.ts BusStats). */
  bus(): { received: number; followed: number };
  /** Unit positions: received (from the game here and from other nodes), held in memory, and their coalesced delivery. */
  positions(): { received: number; units: number; subscriptions: number; frames: number; skipped: number };
  databaseUp(): boolean;
  pool(): { statementsMax: number; transactionsMax: number; transactionsOpen: number; transactionsLent: number; transactionsWaiting: number };
  /** Read only when the bus goes through Redis. */
  redisUp(): boolean;
  discord(): DiscordState;
  charts(): { workers: number; rendering: number; waiting: number; refused: number };
}

export type DiscordState = 'off' | 'standby' | 'connecting' | 'connected';
const discordStates: DiscordState[] = ['off', 'standby', 'connecting', 'connected'];

const P = 'dispatch_terminal_';
/** Commit to applied in a node's live state: milliseconds on one node, more over Redis, seconds when repaired from the log. */
const lagBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The node's own registry (never prom-client's global one: two servers in one process keep their
 * counts apart) with Node's process metrics and the server's. Labels are bounded: a door, a route
 * template or procedure path, a method, a status; never a raw URL, an id or a guild.
 */
/** Request durations: a cached GET answers in well under a millisecond, a chart in up to 20 s. */
const durationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export function createMetrics(parts: { redis: boolean }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: ScrapeSources | null = null;
  const read = <T>(pick: (s: ScrapeSources) => T): T | null => (sources ? pick(sources) : null);
  const reg = { registers: [registry] };

  const requestsTotal = new Counter({
    name: `${P}requests_total`, help: 'Requests answered, by door, method, route template (or procedure path) and HTTP status (499: the client went away first).',
    labelNames: ['door', 'method', 'route', 'status'], ...reg,
  });
  const requestDuration = new Histogram({
    name: `${P}request_duration_seconds`, help: 'Time from a request\'s arrival to its answer (a WebSocket subscription: to its start).',
    labelNames: ['door', 'method', 'route', 'status_class'], buckets: durationBuckets, ...reg,
  });
  const hubGaps = new Counter({ name: `${P}hub_gaps_total`, help: 'Gaps in a guild\'s event sequence on this node (a bus message lost or late), each repaired from the event log.', ...reg });
  const hubReplayed = new Counter({ name: `${P}hub_replayed_events_total`, help: 'Events read from the event log to repair gaps (after a Redis reconnect, a lost message, a client ahead of this node).', ...reg });
  const hubReloads = new Counter({ name: `${P}hub_reloads_total`, help: 'Guild live states reloaded from a snapshot because the event history changed (new epoch).', ...reg });
  const eventLag = new Histogram({ name: `${P}event_lag_seconds`, help: 'Outbox lag: from an event\'s transaction timestamp (database clock) until this node\'s live state applied it.', buckets: lagBuckets, ...reg });

  const gauge = (name: string, help: string, value: () => number | null | undefined) => new Gauge({
    name: P + name, help, ...reg,
    collect() {
      const v = value();
      if (v !== null && v !== undefined) this.set(v);
    },
  });
  /** A count the server keeps itself, exposed as a counter on scrape. */
  const counted = (name: string, help: string, value: () => number | null | undefined) => new Counter({
    name: P + name, help, ...reg,
    collect() {
      const v = value();
      if (v === null || v === undefined) return;
      this.reset();
      this.inc(v);
    },
  });

  gauge('websockets_open', 'Open WebSocket connections on /trpc.', () => read((s) => s.sockets().open));
  gauge('websockets_pending', 'WebSockets that have not proved a credential yet.', () => read((s) => s.sockets().pending));
  gauge('subscriptions', 'Open subscriptions over WebSockets (every procedure).', () => read((s) => s.sockets().subscriptions));
  gauge('live_subscriptions', 'Live subscriptions attached to the serialize-once fan-out.', () => read((s) => s.fanout().subscriptions));
  counted('live_deliveries_total', 'Live frames handed to uWS (one per publish to a subscription bucket, or per resume frame).', () => read((s) => s.fanout().deliveries));
  counted('slow_consumers_total', 'Sends refused at the backpressure limit: the socket is closed and its client resumes later.', () => read((s) => s.sockets().slowConsumers + s.fanout().slowConsumers));
  new Counter({
    name: `${P}websocket_closes_total`,
    help: 'WebSockets closed, by close code (1006: without a close frame: the client vanished, or uWS dropped a consumer over the backpressure limit on a live publish).',
    labelNames: ['code'] as const, ...reg,
    collect() {
      const closes = read((s) => s.sockets().closes);
      if (!closes) return;
      this.reset();
      for (const [code, n] of closes) this.labels(code).inc(n);
    },
  });
  gauge('hub_guilds', 'Guilds whose live state this node holds.', () => read((s) => s.hubGuilds()));
  counted('bus_events_received_total', 'Events that came from other nodes through Redis (only of the guilds this node follows; its own echo is not counted).', () => read((s) => s.bus().received));
  gauge('bus_guilds_followed', 'Guilds whose Redis channel this node subscribes to (the guilds it serves, and for a while after their last board left).', () => read((s) => s.bus().followed));
  counted('positions_received_total', 'Unit positions taken in: from the game through this node, and from other nodes through Redis.', () => read((s) => s.positions().received));
  gauge('positions_units', 'Unit positions this node holds in memory (the guilds watched or moving).', () => read((s) => s.positions().units));
  gauge('position_subscriptions', 'live.positions subscriptions on this node.', () => read((s) => s.positions().subscriptions));
  counted('position_frames_total', 'Coalesced position frames sent (at most one per subscription and interval).', () => read((s) => s.positions().frames));
  counted('position_frames_skipped_total', 'Intervals a position subscription got no frame because its socket still had too much unsent; its next frame catches up.', () => read((s) => s.positions().skipped));
  gauge('database_up', 'Whether PostgreSQL answers (1) or not (0), as the health probe last saw it.', () => read((s) => (s.databaseUp() ? 1 : 0)));
  new Gauge({
    name: `${P}database_connections`, help: 'Database connections: the pool\'s and the transactions\' limits, and the transactions\' open, lent and waiting counts.', labelNames: ['pool', 'state'] as const, ...reg,
    collect() {
      const p = read((s) => s.pool());
      if (!p) return;
      this.labels('statements', 'max').set(p.statementsMax);
      this.labels('transactions', 'max').set(p.transactionsMax);
      this.labels('transactions', 'open').set(p.transactionsOpen);
      this.labels('transactions', 'lent').set(p.transactionsLent);
      this.labels('transactions', 'waiting').set(p.transactionsWaiting);
    },
  });
  if (parts.redis) gauge('redis_up', 'Whether both Redis connections (publisher and subscriber) are ready (1) or not (0).', () => read((s) => (s.redisUp() ? 1 : 0)));
  new Gauge({
    name: `${P}discord_gateway`, help: 'The Discord gateway on this node: 1 for its state (off: no token; standby: another node holds the gateway; connecting; connected).', labelNames: ['state'] as const, ...reg,
    collect() {
      const state = read((s) => s.discord());
      if (!state) return;
      for (const st of discordStates) this.labels(st).set(st === state ? 1 : 0);
    },
  });
  gauge('chart_workers', 'Chart render worker threads running.', () => read((s) => s.charts().workers));
  gauge('chart_renders_running', 'Charts being rendered now.', () => read((s) => s.charts().rendering));
  gauge('chart_renders_waiting', 'Charts waiting for a free worker.', () => read((s) => s.charts().waiting));
  counted('chart_renders_refused_total', 'Charts refused with 503 because the queue was full.', () => read((s) => s.charts().refused));

  return {
    registry,
    /** Where scrapes read the server's state from; set once the server's parts exist. */
    readFrom(next: ScrapeSources): void {
      sources = next;
    },
    /** One answered request. */
    request(door: Door, method: string, route: string, status: number, seconds: number): void {
      requestsTotal.inc({ door, method, route, status });
      requestDuration.observe({ door, method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
    /** What the hub reports (hub/hub.ts HubObserver). */
    hub: {
      applied: (lagMs: number) => eventLag.observe(Math.max(0, lagMs) / 1000),
      gap: () => hubGaps.inc(),
      replayed: (count: number) => hubReplayed.inc(count),
      reloaded: () => hubReloads.inc(),
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
