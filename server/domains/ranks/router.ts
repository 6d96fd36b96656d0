import { guildProcedure, router } from '../../trpc/init.ts';
import { callerOf } from '../personnel/caller.ts';
import * as s from './schema.ts';
import { createRank, deleteRank, listRanks, updateRank } from './service.ts';

const tag = 'Administration';
const grantRule = 'A session without admin rights may only create, change or delete ranks whose capabilities it holds itself, '
  + 'and only guild admins may let the game assign a rank with management capabilities (gameAssignable true).';

export const ranksRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/ranks' }, tag, summary: 'The guild\'s ranks with their capabilities, whether the game may assign them, and number of holders.',
      access: 'admin', capability: 'ranks.manage',
    })
    .output(s.RankList)
    .query(({ ctx }) => listRanks(ctx.deps, ctx.guildId)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/ranks' }, tag,
      summary: `Create a rank. Unknown capability names are a 400 listing the known ones. ${grantRule}`,
      access: 'admin', capability: 'ranks.manage', audit: 'ranks.create', topics: ['access'],
      errors: { 400: 'Invalid body, or an unknown capability (the message lists the known ones).', 409: 'The id or the name (any case) is taken.' },
    })
    .input(s.CreateRank).output(s.Rank)
    .mutation(({ ctx, input }) => createRank(ctx.deps, ctx.guildId, input, callerOf(ctx.principal, ctx.actor))),

  update: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/ranks/{id}' }, tag,
      summary: `Rename, reorder, change the capabilities of a rank or whether the game may assign it; holders get the new capabilities on their next request. ${grantRule}`,
      access: 'admin', capability: 'ranks.manage', audit: 'ranks.update', topics: ['access', 'onDuty'],
      errors: { 400: 'Invalid body, or an unknown capability (the message lists the known ones).', 404: 'No such rank in the guild.', 409: 'The name (any case) is taken.' },
    })
    .input(s.UpdateRank).output(s.Rank)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateRank(ctx.deps, ctx.guildId, id, changes, callerOf(ctx.principal, ctx.actor));
    }),

  delete: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/ranks/{id}' }, tag,
      summary: `Delete a rank nobody holds (409 while someone does: give them another rank first). ${grantRule}`,
      access: 'admin', capability: 'ranks.manage', audit: 'ranks.delete', topics: ['access'],
      errors: { 404: 'No such rank in the guild.', 409: 'Someone holds the rank.' },
    })
    .input(s.RankIdParam).output(s.RankDeleted)
    .mutation(({ ctx, input }) => deleteRank(ctx.deps, ctx.guildId, input.id, callerOf(ctx.principal, ctx.actor))),
});
