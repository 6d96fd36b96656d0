import { DiscordAPIError, REST } from '@discordjs/rest';
import type { Config } from '../config.ts';
import { ChatUnavailableError, type ChatEmoji } from './platform.ts';

/** Discord's error codes for a message or channel that no longer exists. */
const GONE_CODES = new Set([10003, 10008]);

/** Bytes of one emoji image at most (Discord's own upload limit is 256 KiB). */
export const MAX_EMOJI_BYTES = 256 * 1024;

/**
 * A REST client for calls any node may make (they need no gateway): short timeouts and one retry,
 * because every caller runs off the request path and retries on its own schedule.
 */
export function createDiscordRest(discord: Config['discord']): REST {
  return new REST({ api: discord.apiUrl, cdn: discord.cdnUrl, version: '10', timeout: 5_000, retries: 1 }).setToken(discord.token ?? '');
}

export function isGone(err: unknown): boolean {
  return err instanceof DiscordAPIError && (GONE_CODES.has(Number(err.code)) || err.status === 404);
}

/** Any failure to reach Discord, as the domains see it. */
export function unavailable(err: unknown): ChatUnavailableError {
  return new ChatUnavailableError(`Discord did not answer: ${err instanceof Error ? err.message : String(err)}`);
}

export async function fetchGuildEmojis(rest: REST, guildId: string): Promise<ChatEmoji[]> {
  try {
    const list = await rest.get(`/guilds/${guildId}/emojis`) as Array<{ id: string; name: string | null; animated?: boolean; available?: boolean }>;
    return list.filter((e) => e.id && e.name).map((e) => ({ id: e.id, name: e.name!, animated: !!e.animated, available: e.available !== false }));
  } catch (err) {
    throw unavailable(err);
  }
}

export async function fetchEmojiImage(cdnUrl: string, emoji: ChatEmoji): Promise<{ bytes: Buffer; contentType: string }> {
  const url = `${cdnUrl}/emojis/${emoji.id}.${emoji.animated ? 'gif' : 'png'}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const contentType = res.headers.get('content-type') ?? (emoji.animated ? 'image/gif' : 'image/png');
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`CDN answered ${res.status} for emoji ${emoji.id}`);
    }
    return { bytes: await readAtMost(res, MAX_EMOJI_BYTES, `emoji ${emoji.id}`), contentType };
  } catch (err) {
    throw unavailable(err);
  }
}

/**
 * The body, or an error once it passes `max` bytes. The body is always consumed or cancelled:
 * an unread body would keep its pooled connection (and the process) busy.
 */
async function readAtMost(res: Response, max: number, what: string): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new Error(`${what} is larger than ${max} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
}
