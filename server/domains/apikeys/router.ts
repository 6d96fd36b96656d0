import { scopeRequirementsText } from '../../../contract/scope-grants.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { checkKeyGrant, createApiKey, deleteApiKey, granterOf, listApiKeys } from './service.ts';

export const apiKeysRouter = router({
  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/apikeys' }, tag: 'Administration',
      summary: 'Create a scoped API key (prefix stmp_sc_). The key is shown once, in this response. '
        + `A key never does more than its maker: without admin rights, a scope needs the capabilities of the routes it opens (${scopeRequirementsText}). 403 names what is missing.`,
      access: 'admin', capability: 'settings.manage', errors: { 400: 'Unknown or repeated scope, or bad name.' },
    })
    .input(s.CreateScopedKey).output(s.CreatedKey)
    .mutation(({ ctx, input }) => {
      checkKeyGrant(granterOf(ctx.principal), input.scopes);
      return createApiKey(ctx.deps.sql, ctx.guildId, input.name, input.scopes);
    }),

  createUnscoped: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/apikeys/unscoped' }, tag: 'Administration',
      summary: 'Create an unscoped API key (prefix stmp_): full access to this guild, like a key made by chat command. '
        + 'For the board\'s settings: a signed-in guild admin only (the key acts as the guild\'s admin; settings.manage is not enough), never an API key. '
        + 'The key is shown once, in this response.',
      access: 'admin', sessionOnly: true, errors: { 400: 'Bad name.' },
    })
    .input(s.CreateUnscopedKey).output(s.CreatedKey)
    .mutation(({ ctx, input }) => {
      checkKeyGrant(granterOf(ctx.principal), null);
      return createApiKey(ctx.deps.sql, ctx.guildId, input.name, null);
    }),

  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/apikeys' }, tag: 'Administration',
      summary: 'List API keys: name, last 4 characters, scopes, created and last used.',
      access: 'admin', capability: 'settings.manage',
    })
    .output(s.KeyList)
    .query(({ ctx }) => listApiKeys(ctx.deps, ctx.guildId)),

  delete: guildProcedure
    .meta({
      rest: { method: 'DELETE', path: '/admin/apikeys/{id}' }, tag: 'Administration',
      summary: 'Delete (revoke) an API key at once.', access: 'admin', capability: 'settings.manage',
      errors: { 404: 'No such key in this guild.' },
    })
    .input(s.KeyIdParam).output(s.Deleted)
    .mutation(({ ctx, input }) => deleteApiKey(ctx.deps, ctx.guildId, input.id)),
});
