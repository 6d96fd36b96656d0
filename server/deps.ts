import type { Config } from './config.ts';
import type { Log } from './core/log.ts';
import type { Database, Sql } from './store/db.ts';
import type { DatabaseHealth } from './store/health.ts';
import type { Bus } from './hub/bus.ts';
import type { Authenticator } from './auth/principal.ts';
import type { GuildDirectory } from './domains/guilds/directory.ts';
import type { Hub } from './hub/hub.ts';
import type { Fanout } from './hub/fanout.ts';
import type { ChatPlatform } from './chat/platform.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Positions } from './domains/positions/memory.ts';
import type { PositionDelivery } from './domains/positions/delivery.ts';

/** Refreshes a guild's chat-platform time-clock panel. Called after commit; must never throw. */
export interface PanelRefresher { refresh(guildId: string): void }

/** Everything a procedure may use; built once in main.ts. */
export interface Deps {
  config: Config;
  log: Log;
  /** The database: `inGuildTx(deps.db, …)` and `db.begin` for transactions. */
  db: Database;
  /** `db.sql`, the pool for single statements: read per query (a getter), never kept (`Database.renew` replaces it). */
  readonly sql: Sql;
  /** Whether PostgreSQL answers (readiness, the boards' degraded signal). */
  dbHealth: DatabaseHealth;
  bus: Bus;
  auth: Authenticator;
  guilds: GuildDirectory;
  panel: PanelRefresher;
  /** Discord (or nothing, without a token): emojis by REST, the bot's status and invite. */
  chat: ChatPlatform;
  hub: Hub;
  /** The node's Prometheus registry and its recording functions (metrics/metrics.ts). */
  metrics: Metrics;
  /** Unit positions from the game: in memory, between nodes on the bus, persisted every 30 s. */
  positions: Positions;
  /** Coalesced delivery of positions to live subscriptions (at most one frame per interval each). */
  positionDelivery: PositionDelivery;
  /** Serialize-once fan-out; present when the uWS WebSocket endpoint is mounted. */
  fanout?: Fanout;
}
