import { AppError } from '../../core/errors.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { emojiImage, listEmojis, syncEmojis } from './service.ts';
import { requireOwnGuild } from '../../trpc/session.ts';

export const emojisRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/emojis' }, tag: 'Allgemein',
      summary: 'Selectable server emojis of the guild (the available ones, by name), as last synced from Discord; each with the URL of its image.',
      access: 'member', module: 'emojis',
    })
    .output(s.EmojiList)
    .query(({ ctx }) => listEmojis(ctx.deps, ctx.guildId)),

  image: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/emojis/{id}', produces: 'image/*', cache: 'private, max-age=86400', guildQuery: true }, tag: 'Allgemein',
      summary: 'An emoji\'s image (PNG, GIF or WebP), served from this server\'s copy, so it shows while Discord is down. '
        + 'For a signed-in browser: the guild comes from x-guild-id or the query parameter guild, so the emoji\'s url works in an <img src>. Over REST the body is the image itself.',
      access: 'member', sessionOnly: true, module: 'emojis',
      errors: { 400: 'Bad id or guild, or guild and x-guild-id name different guilds.', 404: 'No such emoji in this guild.' },
    })
    .input(s.EmojiImageParams).output(s.EmojiImage)
    .query(({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      return emojiImage(ctx.deps, ctx.guildId, input.id);
    }),

  sync: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/emojis/sync' }, tag: 'Allgemein',
      summary: 'Syncs the guild\'s emojis with Discord at once: new ones are stored with their images, renamed or (un)available ones updated, deleted ones removed. '
        + 'Discord\'s own emoji changes sync by themselves (gateway); this is for "now". Answers the counts and every stored emoji.',
      access: 'admin', capability: 'settings.manage', module: 'emojis', audit: 'emojis.sync', topics: ['emojis'],
      errors: {
        409: 'Discord is not configured on this server (no DISCORD_TOKEN).',
        503: 'Discord (or the database) cannot be reached; nothing changed. Retry after Retry-After seconds.',
      },
    })
    .input(s.SyncEmojis).output(s.SyncResult)
    .mutation(async ({ ctx }) => {
      const result = await syncEmojis(ctx.deps, ctx.guildId, ctx.actor);
      if (!result) throw new AppError('NOT_FOUND', 'module "emojis" is switched off for this guild', { reason: 'module_off', params: { module: 'emojis' } });
      return result;
    }),
});
