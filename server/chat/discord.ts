import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Log } from '../core/log.ts';
import type { Deps, PanelRefresher } from '../deps.ts';
import type { Bus, GuildFollow } from '../hub/bus.ts';
import type { Database } from '../store/db.ts';
import type { Bot } from './bot.ts';
import { inviteUrl } from './invite.ts';
import { discordLoginEnabled } from '../domains/chat/login.ts';
import { createLoggingPanel, createPanelScheduler, defaultPanelTiming, type PanelScheduler, type PanelTiming } from './panel.ts';
import { ChatUnavailableError, type ChatPlatform, type ChatStatus } from './platform.ts';
import * as store from './store.ts';

export interface ChatOptions {
  /** How long a gateway lease lasts without renewal, and how often the holder renews it (others retry as often). */
  lease: { ttlMs: number; renewMs: number };
  panel: PanelTiming;
}

const PANEL_FOLLOW_CHECK_MS = 15_000;

export const defaultChatOptions: ChatOptions = { lease: { ttlMs: 6_000, renewMs: 2_000 }, panel: defaultPanelTiming };

export interface Chat extends ChatPlatform {
  /** The time clock's panel port: refreshes only on the node that holds the gateway. */
  panel: PanelRefresher;
  /** Starts competing for the gateway lease; `syncEmojis` runs when Discord reports changed emojis. */
  start(deps: Deps, syncEmojis: (guildId: string) => Promise<unknown>): void;
  /** Whether this node holds the gateway lease now. */
  holdsGateway(): boolean;
  /** The gateway on this node: no token, another node holds it, connecting, connected (the metrics). */
  gatewayState(): 'off' | 'standby' | 'connecting' | 'connected';
}

const PLATFORM = 'discord';
/** Emoji changes arrive as a burst of gateway events (one per edit): one sync after they settle. */
const EMOJI_SETTLE_MS = 1_000;

/**
 * Discord for this node. Without a token the bot is off (said once at start) and everything else
 * works. With one, every node competes for the gateway lease in PostgreSQL; the holder runs the
 * bot and edits the panels. Clock writes on any node reach the holder as bus events (topic
 * onDuty), so each change is one edit however many nodes there are; when the holder dies, another
 * node takes the lease over once it expires (at most ttl + renew later) and refreshes every panel.
 */
export async function createChat(config: Config, db: Database, bus: Bus, log: Log, options: ChatOptions = defaultChatOptions): Promise<Chat> {
  const discord = config.discord;
  const loginWithDiscord = discordLoginEnabled(config);
  const invite = inviteUrl(discord);
  if (!discord.token) {
    log.info('Discord is off: set DISCORD_TOKEN (and DISCORD_CLIENT_ID) to run the bot and its time-clock panel');
    const off = () => { throw new ChatUnavailableError('Discord is not configured on this server (DISCORD_TOKEN is not set)'); };
    return {
      enabled: false,
      panel: createLoggingPanel(log),
      fetchEmojis: async () => off(),
      fetchEmojiImage: async () => off(),
      status: async () => ({ enabled: false, connected: false, botName: null, inviteUrl: invite, loginWithDiscord }),
      inviteUrl: () => invite,
      start() {},
      holdsGateway: () => false,
      gatewayState: () => 'off',
      async close() {},
    };
  }

  // discord.js and @discordjs/rest are loaded only with a token: a server without Discord stays light.
  const [{ startBot }, { createDiscordRest, fetchEmojiImage, fetchGuildEmojis }, { createPanelService }] = await Promise.all([
    import('./bot.ts'), import('./discord-rest.ts'), import('./panel-service.ts'),
  ]);
  const rest = createDiscordRest(discord);
  const panels = createPanelService(db, rest, log);
  const node = randomBytes(8).toString('hex');
  let bot: Bot | null = null;
  let scheduler: PanelScheduler | null = null;
  let lastClaimAt = 0;
  let loop: NodeJS.Timeout | null = null;
  let closed = false;
  const unsubscribe: Array<() => void> = [];
  const emojiTimers = new Map<string, NodeJS.Timeout>();
  /** Emoji syncs under way: close() waits for them, so none writes after the pool is gone. */
  const syncing = new Set<Promise<unknown>>();

  /** While this node holds the gateway it follows every guild with a panel: their clock events from other nodes reach it. */
  const panelFollows = new Map<string, GuildFollow>();
  let followsCheckedAt = 0;
  const followPanels = (guildIds: string[]) => {
    followsCheckedAt = Date.now();
    const wanted = new Set(guildIds);
    for (const id of wanted) if (!panelFollows.has(id)) panelFollows.set(id, bus.follow(id));
    for (const [id, f] of panelFollows) {
      if (wanted.has(id)) continue;
      f.release();
      panelFollows.delete(id);
    }
  };

  /** The panel service the bot uses: a panel posted here is followed at once, not at the next check. */
  const followingPosts: typeof panels = {
    ...panels,
    async post(guildId, ...rest) {
      await panels.post(guildId, ...rest);
      if (scheduler && !panelFollows.has(guildId)) panelFollows.set(guildId, bus.follow(guildId));
    },
  };

  const refreshAll = async () => {
    const guildIds = await store.guildsWithPanels(db.sql);
    if (!scheduler) return;
    followPanels(guildIds);
    for (const guildId of guildIds) scheduler.refresh(guildId);
  };

  const stepDown = async (why: string) => {
    if (!bot) return;
    log.info('giving up the Discord gateway', { reason: why });
    followPanels([]);
    scheduler?.stop();
    scheduler = null;
    const stopping = bot;
    bot = null;
    await stopping.stop().catch((err) => log.warn('discord client did not stop cleanly', { error: String(err) }));
  };

  const tick = async (deps: Deps, syncEmojis: (guildId: string) => Promise<unknown>) => {
    try {
      const held = await store.claimLease(db.sql, PLATFORM, node, options.lease.ttlMs);
      if (closed) return;
      if (!held) return void await stepDown('another node holds the gateway lease');
      lastClaimAt = Date.now();
      // Panels posted since (on this node, by the bot) are followed within this time; their own writes reach it at once.
      if (bot && scheduler && Date.now() - followsCheckedAt > PANEL_FOLLOW_CHECK_MS) followPanels(await store.guildsWithPanels(db.sql));
      if (bot) return;
      log.info('this node holds the Discord gateway', { node });
      scheduler = createPanelScheduler(log, panels.render, options.panel);
      bot = startBot({ deps, panels: followingPosts, node, onEmojisChanged: (guildId) => settleEmojis(guildId, syncEmojis) });
      await refreshAll(); // catch up on whatever changed while no node held the gateway
    } catch (err) {
      // PostgreSQL unreachable: keep the bot until the lease would have expired, then let go,
      // because another node may take it over from then on.
      if (bot && Date.now() - lastClaimAt > options.lease.ttlMs) await stepDown('the lease could not be renewed');
      else log.debug('gateway lease check failed', { error: String(err) });
    }
  };

  const settleEmojis = (guildId: string, syncEmojis: (guildId: string) => Promise<unknown>) => {
    if (closed) return;
    clearTimeout(emojiTimers.get(guildId));
    const timer = setTimeout(() => {
      emojiTimers.delete(guildId);
      const sync = syncEmojis(guildId)
        .catch((err) => log.warn('emoji sync after a Discord change failed', { guildId, error: String(err) }))
        .finally(() => syncing.delete(sync));
      syncing.add(sync);
    }, EMOJI_SETTLE_MS);
    timer.unref();
    emojiTimers.set(guildId, timer);
  };

  return {
    enabled: true,
    panel: { refresh: (guildId) => scheduler?.refresh(guildId) },
    fetchEmojis: (guildId) => fetchGuildEmojis(rest, guildId),
    fetchEmojiImage: (emoji) => fetchEmojiImage(discord.cdnUrl, emoji),
    async status(): Promise<ChatStatus> {
      const state = await store.gatewayState(db.sql, PLATFORM);
      return { enabled: true, connected: state?.connected ?? false, botName: state?.botName ?? null, inviteUrl: invite, loginWithDiscord };
    },
    inviteUrl: () => invite,
    start(deps, syncEmojis) {
      unsubscribe.push(bus.onEvents((events) => {
        for (const e of events) if (e.deltas.onDuty) scheduler?.refresh(e.guildId);
      }));
      unsubscribe.push(bus.onResync(() => void refreshAll().catch(() => {})));
      const run = () => void tick(deps, syncEmojis);
      loop = setInterval(run, options.lease.renewMs);
      loop.unref();
      run();
    },
    holdsGateway: () => bot !== null,
    gatewayState: () => (!bot ? 'standby' : bot.connected ? 'connected' : 'connecting'),
    async close() {
      closed = true;
      if (loop) clearInterval(loop);
      for (const off of unsubscribe) off();
      for (const timer of emojiTimers.values()) clearTimeout(timer);
      await Promise.allSettled(syncing);
      const held = bot !== null;
      await stepDown('shutdown');
      if (held) await store.releaseLease(db.sql, PLATFORM, node).catch(() => {});
    },
  };
}
