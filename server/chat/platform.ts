/** A server emoji as Discord lists it. */
export interface ChatEmoji { id: string; name: string; animated: boolean; available: boolean }

/** What the board's settings show about the bot. */
export interface ChatStatus {
  /** A bot token is configured. */
  enabled: boolean;
  /** Some node holds the gateway connection and reported it connected within the last lease period. */
  connected: boolean;
  botName: string | null;
  /** `/invite` works: a client id is configured. */
  inviteUrl: string | null;
  /** "Login with Discord" works: client id and secret are configured. */
  loginWithDiscord: boolean;
}

/** Discord could not be reached or refused (outage, rate limit after retries, missing access). */
export class ChatUnavailableError extends Error {}

/**
 * The chat platform as the domains see it. REST calls work on every node (they need no gateway);
 * only the node holding the gateway lease runs the bot (panel edits, commands, gateway events).
 */
export interface ChatPlatform {
  readonly enabled: boolean;
  /** The guild's emojis now, by REST. Throws ChatUnavailableError when Discord cannot answer. */
  fetchEmojis(guildId: string): Promise<ChatEmoji[]>;
  /** An emoji's image from Discord's CDN (PNG, or GIF when animated). Throws ChatUnavailableError. */
  fetchEmojiImage(emoji: ChatEmoji): Promise<{ bytes: Buffer; contentType: string }>;
  status(): Promise<ChatStatus>;
  /** The bot's OAuth2 invite URL with the permissions it needs; null without a client id. */
  inviteUrl(): string | null;
  /** Stops the bot (if this node runs it) and releases the lease. */
  close(): Promise<void>;
}
