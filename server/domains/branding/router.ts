import { guildProcedure, publicProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { adminBranding, branding, icon, setBranding } from './service.ts';

export const brandingRouter = router({
  get: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/branding/{guildId}' }, tag: 'Allgemein',
      summary: 'Public branding of a guild: name, modules, tab order, colours, icon URL.', access: 'none',
      errors: { 404: 'Unknown guild.', 503: 'Database unavailable; retry after Retry-After seconds.' },
    })
    .input(s.GuildIdParam).output(s.Branding)
    .query(({ ctx, input }) => branding(ctx.deps, input.guildId)),

  icon: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/branding/{guildId}/icon.png', produces: 'image/png' }, tag: 'Allgemein',
      summary: 'Guild icon as PNG: 256×256 made from an upload, or a generated default in the accent colour. '
        + 'The optional `v` (as in `iconUrl`) only makes a changed icon a new URL. Over REST the body is the image itself.',
      access: 'none', errors: { 400: 'Malformed guild id or v.', 404: 'Unknown guild.', 503: 'Database unavailable; retry after Retry-After seconds.' },
    })
    .input(s.IconParam).output(s.Png)
    .query(({ ctx, input }) => icon(ctx.deps, input.guildId)),

  adminGet: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/branding' }, tag: 'Einrichtung',
      summary: 'The guild\'s name, colours, tab order and icon, as the settings page edits them.',
      access: 'admin', capability: 'settings.manage',
    })
    .output(s.AdminBranding)
    .query(({ ctx }) => adminBranding(ctx.deps, ctx.guildId)),

  set: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/branding' }, tag: 'Einrichtung',
      summary: 'Change the guild\'s name (1–100 characters), colours (#rrggbb), tab order (known tabs, each at most once) '
        + 'or icon (from an upload of this guild; null: the generated default). Fields left out stay. Public branding and the icon change at once.',
      access: 'admin', capability: 'settings.manage', audit: 'settings.branding_set', topics: ['settings', 'access'],
      errors: { 400: 'Bad field, nothing to change, iconUploadId not an upload of this guild, or an upload that cannot be decoded (or over 40 megapixels).' },
    })
    .input(s.PatchBranding).output(s.AdminBranding)
    .mutation(({ ctx, input }) => setBranding(ctx.deps, ctx.guildId, input, ctx.actor)),
});
