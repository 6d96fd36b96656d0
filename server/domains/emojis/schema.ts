import { z } from 'zod';

/** The image types a stored emoji may have (checked by magic bytes, not by what the CDN says). */
export const imageTypes = ['image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof imageTypes)[number];

const EmojiId = z.string().regex(/^\d{1,20}$/, 'id must be a Discord emoji id (digits)');

export const EmojiImageParams = z.strictObject({
  id: EmojiId,
  guild: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guild is not a valid guild id').optional()
    .describe('The guild, for a session without the x-guild-id header (an <img src> cannot send one). The `url` of each emoji carries it.'),
});

export const Emoji = z.object({
  id: z.string().describe('Discord\'s emoji id.'),
  name: z.string(),
  animated: z.boolean(),
  available: z.boolean().describe('False while Discord marks the emoji unusable (the guild lost the boost level its slot needs).'),
  url: z.string().describe('Path of the image from the server root (`/api/v1/emojis/{id}?guild={guildId}`), usable as it is in an <img src> by a signed-in browser.'),
});

export const EmojiList = z.object({ emojis: z.array(Emoji).describe('Available emojis only, sorted by name.') });

export const EmojiImage = z.object({ contentType: z.enum(imageTypes), base64: z.string() });

/** Nothing to choose: the body may be absent or `{}`. */
export const SyncEmojis = z.strictObject({}).optional();

export const SyncResult = z.object({
  added: z.number().int().describe('Emojis stored for the first time.'),
  updated: z.number().int().describe('Stored emojis whose name, animation or availability changed.'),
  removed: z.number().int().describe('Stored emojis Discord no longer has.'),
  skipped: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() }))
    .describe('New emojis not stored: image over 256 KiB, not PNG/GIF/WebP, or not downloadable now (tried again at the next sync).'),
  emojis: z.array(Emoji).describe('Every stored emoji after the sync, unavailable ones too, sorted by name.'),
});
export type SyncResult = z.infer<typeof SyncResult>;
