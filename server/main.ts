import { loadConfig, localUrl, type Config } from './config.ts';
import { createLog, type Log } from './core/log.ts';
import type { Deps, PanelRefresher } from './deps.ts';
import { createAuthenticator } from './auth/principal.ts';
import { sessionCookieName } from './auth/login-links.ts';
import { createMemoryBus, type Bus } from './hub/bus.ts';
import { createGuildDirectory } from './domains/guilds/directory.ts';
import { createChat, defaultChatOptions, type ChatOptions } from './chat/discord.ts';
import { openDatabase } from './store/open.ts';
import { createApp, listen } from './transport/app.ts';
import type { WebSocketEndpoint } from './transport/ws.ts';
import { createHub, defaultHubOptions, type HubOptions } from './hub/hub.ts';
import { createPositions, defaultPositionsOptions, type PositionsOptions } from './domains/positions/memory.ts';
import { createPositionDelivery } from './domains/positions/delivery.ts';
import type { Database } from './store/db.ts';
import { createDatabaseHealth, monitorDatabase } from './store/health.ts';
import { syncEmojis } from './domains/emojis/service.ts';
import { defaultAutoCloseOptions, startAutoClose, type AutoCloseOptions } from './domains/timeclock/auto-close.ts';
import { chartQueue, closeCharts } from './domains/stats/charts/index.ts';
import { createMetrics } from './metrics/metrics.ts';
import { scrapeSources } from './metrics/sources.ts';
import { startMedicSweep } from './domains/medic/sweep.ts';

export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  ws: WebSocketEndpoint;
  close(): Promise<void>;
}

export interface ServerOptions {
  config?: Config;
  log?: Log;
  /** An already open database (tests); otherwise DATABASE_URL or the embedded cluster. */
  db?: Database;
  bus?: Bus;
  panel?: PanelRefresher;
  hub?: Partial<HubOptions>;
  /** Gateway lease and panel timing (tests shorten them). */
  chat?: Partial<ChatOptions>;
  /** Position persistence and eviction timing (tests shorten them). */
  positions?: Partial<PositionsOptions>;
  /** How often forgotten shifts are looked for (tests shorten it). */
  autoClose?: Partial<AutoCloseOptions>;
}

/** Composition root: database, bus, auth, transport. Listens on config.host:config.port (0 = any free port). */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const config = { ...(opts.config ?? loadConfig()) };
  const log = opts.log ?? createLog(config.logLevel);
  const database = opts.db ? { db: opts.db, close: async () => {} } : await openDatabase(config, log, 10, { exclusive: true });
  const { db } = database;
  // Loaded only when used, as the Discord bot is (chat/discord.ts): an idle single node stays light.
  const bus = opts.bus ?? (config.redisUrl ? await (await import('./hub/bus-redis.ts')).createRedisBus(config.redisUrl, log) : createMemoryBus());
  const dbHealth = createDatabaseHealth();
  const chat = await createChat(config, db, bus, log, { ...defaultChatOptions, ...opts.chat });
  const metrics = createMetrics({ redis: bus.connected !== undefined });
  const deps: Deps = {
    config, log, db, get sql() { return db.sql; }, dbHealth, bus,
    auth: createAuthenticator(db, bus, sessionCookieName(config.secureCookies)),
    guilds: createGuildDirectory(db, bus),
    panel: opts.panel ?? chat.panel,
    chat,
    hub: createHub(db, bus, log, { ...defaultHubOptions, ...opts.hub }, metrics.hub),
    positions: createPositions(db, bus, log, { ...defaultPositionsOptions, ...opts.positions }),
    positionDelivery: createPositionDelivery(bus),
    metrics,
  };
  const monitor = monitorDatabase(db, dbHealth, log);
  // Back from an outage: every loaded guild catches up from the event log at once (commits whose
  // answer or bus message was lost), not at the next periodic position check.
  dbHealth.onChange((up) => {
    if (up) deps.hub.checkPositions().catch((err) => log.warn('catch-up after the database came back failed', { error: String(err) }));
  });
  const { app, ws } = createApp(deps);
  metrics.readFrom(scrapeSources({ deps, ws, gatewayState: chat.gatewayState, chartQueue }));
  /** What the server opened before it listens, closed in reverse: on shutdown, or when it cannot listen. */
  let autoClose: ReturnType<typeof startAutoClose> | null = null;
  let medicSweep: ReturnType<typeof startMedicSweep> | null = null;
  const closeBehind = async () => {
    const steps: [string, () => unknown][] = [
      ['automatic shift closing', () => autoClose?.stop()], ['medic sweep', () => medicSweep?.stop()], ['Discord bot', () => chat.close()],
      ['database monitor', () => monitor.stop()], ['hub', () => deps.hub.close()],
      ['position delivery', () => deps.positionDelivery.close()], ['positions', () => deps.positions.close()], ['bus', () => bus.close()],
      ['database', () => database.close()], ['charts', () => closeCharts()],
    ];
    // Each step runs whatever the ones before it did: the database, and the embedded PostgreSQL with it, is always stopped.
    for (const [name, step] of steps) {
      await Promise.resolve().then(step).catch((err) => log.warn(`closing the ${name} failed`, { error: String(err) }));
    }
  };
  const listening = await listen(app, config.host, config.port).catch(async (err) => {
    await closeBehind();
    throw err;
  });
  if (!config.publicUrlFixed) config.publicUrl = localUrl(config.host, listening.port);
  log.info('listening', { url: config.publicUrl });
  chat.start(deps, (guildId) => syncEmojis(deps, guildId, null));
  autoClose = startAutoClose(deps, { ...defaultAutoCloseOptions, ...opts.autoClose });
  medicSweep = startMedicSweep(deps);
  return {
    url: `http://${config.host}:${listening.port}`,
    port: listening.port,
    deps,
    ws,
    async close() {
      listening.close();
      ws.shutdown();
      await closeBehind();
    },
  };
}
