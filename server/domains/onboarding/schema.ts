import { z } from 'zod';
import { areas, templateIds, type Area } from './areas.ts';

const PathGuild = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'guildId is not a valid guild id').describe('Your own guild\'s id; any other is 404.');
const known = `known areas: ${areas.join(', ')}`;

const AreaName = z.string({ error: `each area must be a string; ${known}` }).transform((a, ctx): Area => {
  if ((areas as readonly string[]).includes(a)) return a as Area;
  ctx.addIssue({
    code: 'custom',
    message: a === 'dispatcherSlots'
      ? 'dispatcherSlots cannot be seeded: every guild has a fixed 20 dispatcher slots, which people on duty take'
      : `unknown area ${JSON.stringify(a)}; ${known}`,
  });
  return z.NEVER;
});

export const SeedableInput = z.strictObject({ guildId: PathGuild });

export const SeedInput = z.strictObject({
  guildId: PathGuild,
  template: z.enum(templateIds as [string, ...string[]], { error: `template must be one of ${templateIds.join(', ')}` }).optional()
    .describe(`The template to fill empty areas from (default ${templateIds[0]}).`),
  areas: z.array(AreaName, { error: `areas must be a list of area names; ${known}` })
    .min(1, `areas must name at least one area (omit it for all); ${known}`).max(areas.length * 2, `areas lists at most ${areas.length * 2} names`).optional()
    .describe('The areas to fill (default all); areas that are not empty are skipped.'),
});

const Title = z.object({ de: z.string(), en: z.string() });
const Plan = z.object({ count: z.number().int(), items: z.array(z.string()) });

export const Seedable = z.object({
  guildId: z.string(),
  templates: z.array(z.object({ id: z.string(), title: Title })),
  areas: z.array(z.object({
    area: z.enum(areas),
    title: Title,
    empty: z.boolean().describe('Decided by the database now; only empty areas are seeded.'),
    emptyMeans: z.string(),
    templates: z.record(z.string(), Plan).describe('What each template would create in this area.'),
  })),
});

const AreaResult = z.union([
  z.object({ created: z.number().int(), items: z.array(z.string()) }),
  z.object({ skipped: z.enum(['not empty', 'the status catalogue is empty']) }),
]);

export const SeedResult = z.object({
  guildId: z.string(),
  template: z.string(),
  areas: z.record(z.string(), AreaResult).describe('One entry per requested area: created (with what), or skipped and why.'),
});
