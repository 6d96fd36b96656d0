import { guildProcedure, router } from '../../trpc/init.ts';
import { DiscordStatus } from './schema.ts';

export const chatRouter = router({
  status: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/discord' }, tag: 'Einrichtung',
      summary: 'Discord as the board\'s settings show it: whether the bot is configured and connected (with its name), its invite URL, and whether "Login with Discord" is set up.',
      access: 'admin', capability: 'settings.manage',
    })
    .output(DiscordStatus)
    .query(({ ctx }) => ctx.deps.chat.status()),
});
