import type { Deps } from '../deps.ts';
import type { WebSocketEndpoint } from '../transport/ws.ts';
import type { DiscordState, ScrapeSources } from './metrics.ts';

export interface ServerParts {
  deps: Deps;
  ws: WebSocketEndpoint;
  /** The Discord gateway on this node (chat/discord.ts). */
  gatewayState(): DiscordState;
  /** The chart render queue (domains/stats/charts). */
  chartQueue(): ReturnType<ScrapeSources['charts']>;
}

/** What a scrape reads, from the parts of a running server: every value is read at the scrape, none kept. */
export function scrapeSources({ deps, ws, gatewayState, chartQueue }: ServerParts): ScrapeSources {
  return {
    sockets() {
      const { sockets, pending, subscriptions } = ws.stats;
      const { slowConsumers, closes } = ws.counts;
      return { open: sockets, pending, subscriptions, slowConsumers, closes };
    },
    fanout() {
      const fanout = deps.fanout;
      return { subscriptions: fanout?.stats.subscriptions ?? 0, deliveries: fanout?.deliveries ?? 0, slowConsumers: fanout?.slowConsumers ?? 0 };
    },
    hubGuilds: () => deps.hub.size,
    bus: () => deps.bus.stats,
    positions() {
      const { received, units } = deps.positions.stats;
      const { subscriptions, frames, skipped } = deps.positionDelivery.stats;
      return { received, units, subscriptions, frames, skipped };
    },
    databaseUp: () => deps.dbHealth.up,
    pool() {
      const { statementsMax, transactions } = deps.db.connectionStats;
      return {
        statementsMax, transactionsMax: transactions.max, transactionsOpen: transactions.open,
        transactionsLent: transactions.lent, transactionsWaiting: transactions.waiting,
      };
    },
    redisUp: () => deps.bus.connected ?? false,
    discord: gatewayState,
    charts: chartQueue,
  };
}
