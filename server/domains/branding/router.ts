import { publicProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { branding, icon } from './service.ts';

export const brandingRouter = router({
  get: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/branding/{guildId}' }, tag: 'Allgemein',
      summary: 'Public branding of a guild: name, modules, tab order, colour.', access: 'none',
      errors: { 404: 'Unknown guild.', 503: 'Database unavailable; retry after Retry-After seconds.' },
    })
    .input(s.GuildIdParam).output(s.Branding)
    .query(({ ctx, input }) => branding(ctx.deps, input.guildId)),

  icon: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/branding/{guildId}/icon.png', produces: 'image/png' }, tag: 'Allgemein',
      summary: 'Guild icon as PNG (a generated default when none was uploaded). Over REST the body is the image itself.',
      access: 'none', errors: { 404: 'Unknown guild.', 503: 'Database unavailable; retry after Retry-After seconds.' },
    })
    .input(s.GuildIdParam).output(s.Png)
    .query(({ ctx, input }) => icon(ctx.deps, input.guildId)),
});
