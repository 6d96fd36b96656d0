import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { ChatUnavailableError, type ChatEmoji } from '../../chat/platform.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import { API_PREFIX } from '../../transport/routes.ts';
import type { ImageType, SyncResult } from './schema.ts';
import * as store from './store.ts';

/** Discord's own limit for an emoji image; anything larger is not stored. */
export const MAX_EMOJI_BYTES = 256 * 1024;
/** What a client is told to wait when Discord could not be reached. */
const RETRY_AFTER_S = 30;
const DOWNLOADS_AT_ONCE = 4;
/** Who a sync Discord asked for (a GUILD_EMOJIS_UPDATE gateway event) is audited as. */
const DISCORD: Actor = { kind: 'system', id: 'discord' };

const view = (guildId: string, e: store.EmojiRow) => ({
  id: e.id, name: e.name, animated: e.animated, available: e.available,
  url: `${API_PREFIX}/emojis/${e.id}?guild=${encodeURIComponent(guildId)}`,
});

export async function listEmojis(deps: Deps, guildId: string) {
  const rows = await store.availableEmojis(deps.sql, guildId);
  return { emojis: rows.map((e) => view(guildId, e)) };
}

export async function emojiImage(deps: Deps, guildId: string, id: string) {
  const found = await store.emojiImage(deps.sql, guildId, id);
  if (!found) throw new AppError('NOT_FOUND', `no emoji ${id} in this guild`);
  return { contentType: found.contentType, base64: found.image.toString('base64') };
}

/** The image's type by its first bytes; null for anything but PNG, GIF and WebP. */
export function imageTypeOf(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

// One sync per guild at a time on this node (per Deps), in call order: a later caller runs after the
// earlier one and fetches Discord's list itself, so the newest list is the one stored last. Across
// nodes the advisory lock (store.lockEmojis) keeps each sync's compare-and-write atomic.
const queuesOf = new WeakMap<Deps, Map<string, Promise<unknown>>>();

function oneAtATime<T>(deps: Deps, guildId: string, fn: () => Promise<T>): Promise<T> {
  let queues = queuesOf.get(deps);
  if (!queues) queuesOf.set(deps, (queues = new Map()));
  const run = (queues.get(guildId) ?? Promise.resolve()).catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  queues.set(guildId, tail);
  void tail.then(() => {
    if (queues.get(guildId) === tail) queues.delete(guildId);
  });
  return run;
}

/**
 * Makes the stored emojis of the guild equal to Discord's: adds new ones with their images, updates
 * changed names and availability, deletes the ones Discord no longer has, in one transaction with
 * the `emojis` topic event (when anything changed) and the audit row. Images are downloaded only
 * for ids not stored yet (an emoji's image never changes under its id), before the transaction.
 *
 * `actor` null: Discord reported a change (gateway); audited as the system actor `discord`, and only
 * when something changed. Answers null, syncing nothing, when the guild is no instance here or its
 * `emojis` module is off. Throws CONFLICT without a bot token and SERVICE_UNAVAILABLE (Retry-After)
 * when Discord cannot list the emojis; nothing stored changes then.
 */
export async function syncEmojis(deps: Deps, guildId: string, actor: Actor | null): Promise<SyncResult | null> {
  if (!deps.chat.enabled) throw new AppError('CONFLICT', 'Discord is not configured on this server: set DISCORD_TOKEN (the bot\'s token) and restart it');
  return oneAtATime(deps, guildId, async () => {
    const modules = await deps.guilds.modules(guildId);
    if (!modules?.emojis) return null;
    return sync(deps, guildId, actor);
  });
}

async function sync(deps: Deps, guildId: string, actor: Actor | null): Promise<SyncResult> {
  let remote: ChatEmoji[];
  try {
    remote = await deps.chat.fetchEmojis(guildId);
  } catch (err) {
    if (!(err instanceof ChatUnavailableError)) throw err;
    deps.log.warn('emoji sync: Discord did not list the emojis', { guildId, error: err.message });
    throw new AppError('SERVICE_UNAVAILABLE', 'Discord cannot be reached right now; the stored emojis stay as they are. Try again later.', { retryAfterS: RETRY_AFTER_S, cause: err });
  }
  const before = new Set((await store.allEmojis(deps.sql, guildId)).map((e) => e.id));
  const fresh = remote.filter((e) => !before.has(e.id));
  const images = new Map<string, { contentType: ImageType; image: Buffer }>();
  const skipped: SyncResult['skipped'] = [];
  await eachLimited(fresh, DOWNLOADS_AT_ONCE, async (e) => {
    const got = await download(deps, e);
    if ('reason' in got) {
      deps.log.warn('emoji not stored', { guildId, emojiId: e.id, name: e.name, reason: got.reason });
      skipped.push({ id: e.id, name: e.name, reason: got.reason });
    } else {
      images.set(e.id, got);
    }
  });

  return inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.lockEmojis(tx.sql, guildId);
    // Read again under the lock: another node may have synced since the read above.
    const stored = new Map((await store.allEmojis(tx.sql, guildId)).map((e) => [e.id, e]));
    const writes: Promise<void>[] = [];
    let added = 0;
    let updated = 0;
    for (const e of remote) {
      const was = stored.get(e.id);
      if (was) {
        if (was.name !== e.name || was.animated !== e.animated || was.available !== e.available) {
          updated++;
          writes.push(store.updateEmoji(tx.sql, guildId, e));
        }
        continue;
      }
      const image = images.get(e.id);
      if (image) {
        added++;
        writes.push(store.insertEmoji(tx.sql, guildId, { ...e, ...image }));
      } else if (!skipped.some((s) => s.id === e.id)) {
        skipped.push({ id: e.id, name: e.name, reason: 'removed by a sync that ran at the same time before its image was stored; the next sync adds it' });
      }
    }
    await Promise.all(writes); // pipelined on the transaction's connection
    const removed = (await store.deleteEmojisExcept(tx.sql, guildId, remote.map((e) => e.id))).length;
    await store.markSynced(tx.sql, guildId);
    const all = await store.allEmojis(tx.sql, guildId);
    const counts = { added, updated, removed, skipped: skipped.length };
    if (added + updated + removed > 0) {
      tx.emit('emojis', { op: 'synced', ...counts, emojis: all.filter((e) => e.available).map((e) => view(guildId, e)) });
    }
    if (actor) tx.audit('emojis.sync', actor, counts);
    else if (added + updated + removed > 0) tx.audit('emojis.sync', DISCORD, counts);
    return { added, updated, removed, skipped, emojis: all.map((e) => view(guildId, e)) };
  });
}

/** The emoji's image, or why it is not stored: over 256 KiB, not PNG/GIF/WebP, or the CDN did not serve it. */
async function download(deps: Deps, e: ChatEmoji): Promise<{ contentType: ImageType; image: Buffer } | { reason: string }> {
  let bytes: Buffer;
  try {
    bytes = (await deps.chat.fetchEmojiImage(e)).bytes;
  } catch (err) {
    if (!(err instanceof ChatUnavailableError)) throw err;
    return { reason: `the image could not be downloaded (${err.message}); the next sync tries again` };
  }
  if (bytes.length > MAX_EMOJI_BYTES) return { reason: `the image has ${bytes.length} bytes, more than ${MAX_EMOJI_BYTES}` };
  const contentType = imageTypeOf(bytes);
  if (!contentType) return { reason: 'the image is not PNG, GIF or WebP' };
  return { contentType, image: bytes };
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
