import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { createApiKey, deleteApiKey, listApiKeys } from './service.ts';

export const apiKeysRouter = router({
  create: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/apikeys' }, tag: 'Administration',
      summary: 'Create a scoped API key (prefix stmp_sc_). The key is shown once, in this response.',
      access: 'admin', capability: 'settings.manage', errors: { 400: 'Unknown or repeated scope, or bad name.' },
    })
    .input(s.CreateScopedKey).output(s.CreatedKey)
    .mutation(({ ctx, input }) => createApiKey(ctx.deps.sql, ctx.guildId, input.name, input.scopes)),

  createUnscoped: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/admin/apikeys/unscoped' }, tag: 'Administration',
      summary: 'Create an unscoped API key (prefix stmp_): full access to this guild, like a key made by chat command. '
        + 'For the board\'s settings: a signed-in session with settings.manage, never an API key. The key is shown once, in this response.',
      access: 'admin', capability: 'settings.manage', sessionOnly: true, errors: { 400: 'Bad name.' },
    })
    .input(s.CreateUnscopedKey).output(s.CreatedKey)
    .mutation(({ ctx, input }) => createApiKey(ctx.deps.sql, ctx.guildId, input.name, null)),

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
