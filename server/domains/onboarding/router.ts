import { guildProcedure, router } from '../../trpc/init.ts';
import { callerOf } from '../personnel/caller.ts';
import { areas, defaultTemplate, type TemplateId } from './areas.ts';
import * as s from './schema.ts';
import { seed, seedable } from './service.ts';

const tag = 'Einrichtung';
const foreign = 'The guildId of the path is not your guild (existing or not).';

export const onboardingRouter = router({
  seedable: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/onboarding/{guildId}/seedable' }, tag,
      summary: 'Lists the setup areas (ranks, statuses, aao: unit types and keywords, units, letterheads, modules, clock) with whether each is empty and what each template would create there. Dispatcher slots are fixed (20 per guild) and not an area.',
      access: 'admin', capability: 'settings.manage',
      errors: { 404: foreign },
    })
    .input(s.SeedableInput).output(s.Seedable)
    .query(({ ctx, input }) => seedable(ctx.deps, ctx.guildId, input.guildId)),

  seed: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/onboarding/{guildId}/seed' }, tag,
      summary: 'Fills the empty setup areas from a template (feuerwehr-rettungsdienst or polizei), all in one transaction; areas that are not empty are skipped, so a second seed changes nothing. Concurrent seeds fill each area once.',
      access: 'admin', capability: 'settings.manage', audit: 'onboarding.seed',
      topics: ['settings', 'access', 'units', 'overview', 'alarm', 'letterheads'],
      errors: { 400: 'Unknown template or area, or an invalid body.', 404: foreign },
    })
    .input(s.SeedInput).output(s.SeedResult)
    .mutation(({ ctx, input }) => seed(
      ctx.deps, ctx.guildId, input.guildId, (input.template ?? defaultTemplate) as TemplateId,
      input.areas ?? areas, callerOf(ctx.principal, ctx.actor),
    )),
});
