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
  /** Discord says the guild's emojis changed (gateway event GUILD_EMOJIS_UPDATE). */
  onEmojisChanged(guildId: string): void;
}

export interface Bot { stop(): Promise<void> }

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
  let retry: NodeJS.Timeout | null = null;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions],
    rest: { api: discord.apiUrl, cdn: discord.cdnUrl, timeout: 10_000 },
  });
  const report = (connected: boolean) => {
    const user = client.user;
    reportConnection(deps.sql, 'discord', node, { connected, userId: user?.id ?? null, name: user ? user.globalName ?? user.username : null })
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
    for (const guild of ready.guilds.cache.values()) await ensureInstance(guild.id, guild.name);
  });
  client.on(Events.ShardResume, () => report(true));
  client.on(Events.ShardReady, () => report(true));
  client.on(Events.ShardDisconnect, () => report(false));
  client.on(Events.ShardReconnecting, () => report(false));
  client.on(Events.Error, (err) => log.warn('discord client error', { error: String(err) }));
  client.on(Events.GuildCreate, (guild) => void ensureInstance(guild.id, guild.name));
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
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      report(false);
      await client.destroy();
    },
  };
}
