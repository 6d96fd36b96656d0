import { Client, Events, GatewayIntentBits, Routes } from 'discord.js';
import type { Deps } from '../deps.ts';
import { insertGuild } from '../domains/guilds/store.ts';
import { commandDefinitions } from './commands.ts';
import { handleInteraction } from './interactions.ts';
import type { PanelService } from './panel-service.ts';
import { reportConnection } from './store.ts';

export interface BotOptions {
  deps: Deps;
  panels: PanelService;
  /** The node's id in the gateway lease: connection reports are ignored once another node holds it. */
  node: string;
  /** The guild's emojis may have changed: Discord's GUILD_EMOJIS_UPDATE, or the bot (re)joined the guild. */
  onEmojisChanged(guildId: string): void;
}

export interface Bot {
  /** The gateway connection is up (ready or resumed, not disconnected since). */
  readonly connected: boolean;
  stop(): Promise<void>;
}

/** A shard of discord.js's gateway manager (@discordjs/ws, in-thread strategy) underneath the client. */
interface Shard { status: number; internalConnect(): Promise<void>; destroy(options?: { code?: number }): Promise<void> }
type InnerGateway = { strategy?: { shards?: Map<number, Shard> } };

/**
 * Stops the shards for good. @discordjs/ws reconnects by destroying a shard, pausing 500 ms and
 * connecting again, and a destroy that lands in that pause is overtaken by the connect (the
 * manager has forgotten the shard by then). A node that gives up the gateway must never connect
 * again beside the new holder, so its shards lose the ability to connect before they are destroyed.
 */
async function stopShards(shards: Shard[]): Promise<void> {
  for (const shard of shards) shard.internalConnect = async () => {};
  await Promise.all(shards.map((s) => s.destroy({ code: 1000 }).catch(() => {})));
}

/** After a failed login (bad token, Discord down), the next attempt. */
const LOGIN_RETRY_MS = 30_000;

/**
 * The gateway side of the bot, run only by the node holding the lease: slash commands, buttons,
 * guild joins and emoji changes. It reports its connection to the lease row, so every node's
 * board settings can say whether the bot is connected.
 */
export function startBot(opts: BotOptions): Bot {
  const { deps, node } = opts;
  const { discord } = deps.config;
  const log = deps.log;
  let stopped = false;
  let connected = false;
  let retry: NodeJS.Timeout | null = null;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions],
    rest: { api: discord.apiUrl, cdn: discord.cdnUrl, timeout: 10_000 },
  });
  const report = (up: boolean) => {
    connected = up;
    const user = client.user;
    reportConnection(deps.sql, 'discord', node, { connected: up, userId: user?.id ?? null, name: user ? user.globalName ?? user.username : null })
      .catch((err) => log.debug('could not report the bot connection', { error: String(err) }));
  };

  client.once(Events.ClientReady, async (ready) => {
    log.info('discord bot connected', { bot: ready.user.username, guilds: ready.guilds.cache.size });
    report(true);
    try {
      await ready.rest.put(Routes.applicationCommands(ready.application.id), { body: commandDefinitions });
    } catch (err) {
      log.warn('could not register the slash commands', { error: String(err) });
    }
    // Emojis may have changed while no node held the gateway: each guild syncs once after connecting.
    for (const guild of ready.guilds.cache.values()) await ensureInstance(guild.id, guild.name).then(() => opts.onEmojisChanged(guild.id));
  });
  client.on(Events.ShardResume, () => report(true));
  client.on(Events.ShardReady, () => report(true));
  client.on(Events.ShardDisconnect, () => report(false));
  client.on(Events.ShardReconnecting, () => report(false));
  client.on(Events.Error, (err) => log.warn('discord client error', { error: String(err) }));
  client.on(Events.GuildCreate, (guild) => void ensureInstance(guild.id, guild.name).then(() => opts.onEmojisChanged(guild.id)));
  client.on(Events.InteractionCreate, (interaction) => void handleInteraction({ deps, panels: opts.panels }, interaction));
  client.on(Events.Raw, (packet: { t?: string; d?: { guild_id?: string } }) => {
    if (packet.t === 'GUILD_EMOJIS_UPDATE' && packet.d?.guild_id) opts.onEmojisChanged(packet.d.guild_id);
  });

  /** A guild that adds the bot gets its instance (named like the Discord server), if it has none yet. */
  async function ensureInstance(guildId: string, name: string) {
    try {
      if (await insertGuild(deps.sql, guildId, name.slice(0, 100))) log.info('new guild instance for a Discord server that added the bot', { guildId, name });
    } catch (err) {
      log.warn('could not create the guild instance', { guildId, error: String(err) });
    }
  }

  const login = () => {
    client.login(discord.token).catch((err) => {
      if (stopped) return;
      log.error('discord bot could not log in; retrying', { error: String(err), retryInS: LOGIN_RETRY_MS / 1000 });
      retry = setTimeout(login, LOGIN_RETRY_MS);
      retry.unref();
    });
  };
  login();

  return {
    get connected() {
      return connected;
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      report(false);
      const gateway = (client.ws as unknown as { _ws?: InnerGateway })._ws;
      await stopShards([...(gateway?.strategy?.shards?.values() ?? [])]);
      await client.destroy();
    },
  };
}
