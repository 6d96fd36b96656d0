import { z } from 'zod';

/** What the board's settings show about Discord (ChatStatus of server/chat/platform.ts). */
export const DiscordStatus = z.object({
  enabled: z.boolean().describe('A bot token is configured (DISCORD_TOKEN).'),
  connected: z.boolean().describe('The bot is connected to Discord\'s gateway now (on whichever node holds it).'),
  botName: z.string().nullable().describe('The bot\'s name in Discord, once it has connected.'),
  inviteUrl: z.string().nullable().describe('Discord\'s page that adds the bot to a server with the permissions it needs (also at /invite); null without a client id.'),
  loginWithDiscord: z.boolean().describe('"Login with Discord" is set up (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET): /auth/discord signs members in.'),
});
