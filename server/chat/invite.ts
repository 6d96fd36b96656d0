import type { Config } from '../config.ts';

/**
 * What the bot needs in a guild: see channels, post and edit the panel (send messages, embed links,
 * read message history) and show the guild's emojis elsewhere (use external emojis).
 */
export const botPermissions = (1n << 10n) | (1n << 11n) | (1n << 14n) | (1n << 16n) | (1n << 18n);

/** The bot's invite: Discord's authorize page for a guild install with the slash commands; null without a client id. */
export function inviteUrl(discord: Config['discord']): string | null {
  if (!discord.clientId) return null;
  const params = new URLSearchParams({
    client_id: discord.clientId, scope: 'bot applications.commands', permissions: botPermissions.toString(), integration_type: '0',
  });
  return `${discord.authorizeUrl}?${params}`;
}
