import { scopes } from '../../../contract/scopes.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import * as s from './schema.ts';
import { accessStatus, selfCheck } from './service.ts';

export const accessRouter = router({
  status: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/access' }, tag: 'Allgemein',
      summary: 'Your access status: who you are, admin flag, effective capabilities, key scopes, module switches and the partner areas released to this guild (none exist yet: always an empty list).',
      access: 'member', scopes: [...scopes],
    })
    .output(s.AccessStatus)
    .query(({ ctx }) => accessStatus(ctx.deps, ctx.principal)),

  selfCheck: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/integrations/ingame/self-check' }, tag: 'Medic und InGame',
      summary: 'Start-up check of a game resource\'s API key: its guild, name and scopes, which scopes of `need` it lacks, and the module switches. API keys only (a session gets 403).',
      access: 'admin', scopes: ['capabilities:read'],
      errors: { 400: 'Unknown scope in need.' },
    })
    .input(s.SelfCheckQuery).output(s.SelfCheck)
    .query(({ ctx, input }) => selfCheck(ctx.deps, ctx.principal, input?.need)),
});
