import { guildProcedure, router } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import * as s from './schema.ts';
import { createLetterhead, deleteLetterhead, letterheadPreview, listLetterheads, reorderLetterheads, updateLetterhead } from './service.ts';
import { requireOwnGuild } from '../../trpc/session.ts';

const common = { tag: 'Allgemein', module: 'documents' } satisfies Partial<Meta>;
const moduleOff = 'Module documents is switched off for this guild.';
const badInput = 'A field is missing, unknown or out of its limits (see the schema), or logoUploadId is not an upload of this guild.';

export const letterheadsRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/letterheads' }, ...common,
      summary: 'The guild\'s letterheads in their order, each with the URL of its preview image.',
      access: 'view', capability: 'documents.letterhead.view', errors: { 404: moduleOff },
    })
    .output(s.LetterheadList)
    .query(({ ctx }) => listLetterheads(ctx.deps, ctx.guildId)),

  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/letterheads' }, ...common,
      summary: 'Creates a letterhead at the end of the order. Answers the letterhead.',
      access: 'admin', capability: 'documents.letterhead.create', audit: 'letterhead.create', topics: ['letterheads'],
      errors: { 400: badInput, 404: moduleOff, 409: 'A letterhead of this name exists already, or the guild has 200.' },
    })
    .input(s.CreateLetterhead).output(s.Letterhead)
    .mutation(({ ctx, input }) => createLetterhead(ctx.deps, ctx.guildId, input, ctx.actor)),

  update: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/letterheads/{id}' }, ...common,
      summary: 'Changes the fields sent (logoUploadId null removes the logo) if version is the stored one; the version goes up by one. Answers the letterhead.',
      access: 'admin', capability: 'documents.letterhead.edit', audit: 'letterhead.update', topics: ['letterheads'],
      errors: { 400: badInput, 404: 'No such letterhead in this guild, or module documents is off.', 409: 'Stale version (the message names the current one), or the new name is taken.' },
    })
    .input(s.UpdateLetterhead).output(s.Letterhead)
    .mutation(({ ctx, input: { id, version, ...changes } }) => updateLetterhead(ctx.deps, ctx.guildId, id, version, changes, ctx.actor)),

  delete: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/letterheads/{id}' }, ...common,
      summary: 'Deletes a letterhead; the others keep their order (positions stay 0..n-1). Answers what was deleted and the rest.',
      access: 'admin', capability: 'documents.letterhead.delete', audit: 'letterhead.delete', topics: ['letterheads'],
      errors: { 400: 'Bad id.', 404: 'No such letterhead in this guild, or module documents is off.' },
    })
    .input(s.IdParam).output(s.Deleted)
    .mutation(({ ctx, input }) => deleteLetterhead(ctx.deps, ctx.guildId, input.id, ctx.actor)),

  reorder: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/letterheads/order' }, ...common,
      summary: 'Sets the order: ids lists every letterhead of the guild exactly once, first to last. Answers the letterheads in the new order.',
      access: 'admin', capability: 'documents.letterhead.edit', audit: 'letterhead.reorder', topics: ['letterheads'],
      errors: { 400: 'ids is not exactly the guild\'s letterheads: the message names the missing, unknown and repeated ids.', 404: moduleOff },
    })
    .input(s.Reorder).output(s.LetterheadList)
    .mutation(({ ctx, input }) => reorderLetterheads(ctx.deps, ctx.guildId, input.ids, ctx.actor)),

  preview: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/letterheads/{id}/preview.png', produces: 'image/png', cache: 'private, max-age=300', guildQuery: true }, ...common,
      summary: 'The head of an A4 page under this letterhead, rendered on the server: logo, organisation and name in the primary colour, address, a rule in the secondary colour, the footer. '
        + 'For a signed-in browser the guild may come from the query parameter guild, so previewUrl works in an <img src>. Over REST the body is the image itself.',
      access: 'view', capability: 'documents.letterhead.view',
      errors: { 400: 'Bad id, width or guild, or guild and x-guild-id name different guilds.', 404: 'No such letterhead in this guild, or module documents is off.' },
    })
    .input(s.PreviewParams).output(s.Png)
    .query(({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      return letterheadPreview(ctx.deps, ctx.guildId, input.id, input.width);
    }),
});
