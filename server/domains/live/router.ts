import { scopes } from '../../../contract/scopes.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import { z } from 'zod';
import { topics } from '../../../contract/topics.ts';
import { effectiveModules } from '../../../contract/modules.ts';
import { WatchInput } from './schema.ts';
import { watch } from './service.ts';
import { watchable } from './topic-access.ts';
import { watchPositionsProcedure } from '../positions/router.ts';

export { meAlarmRouter } from './alarm-router.ts';

export const liveRouter = router({
  watch: guildProcedure
    .meta({
      tag: 'Leitstelle', access: 'member', scopes: [...scopes],
      summary: 'Live board over the WebSocket: a snapshot of the chosen topics, then deltas, every frame tracked "<epoch>.<seq>"; on reconnect exactly the missed deltas, or a fresh snapshot when they are gone. Each topic needs what its REST read needs (GET /units for units, …); topics you may not watch are refused with 403, and dropped (a "dropped" frame) when your rights shrink.',
    })
    .input(WatchInput)
    .subscription(({ ctx, input, signal }) => watch(ctx, input.topics, input.lastEventId, signal)),

  positions: watchPositionsProcedure,

  topics: guildProcedure
    .meta({
      tag: 'Leitstelle', access: 'member', scopes: [...scopes],
      summary: 'The topics you may watch with live.watch in this guild now (your rights and its modules): what a board subscribes to.',
    })
    .output(z.object({ topics: z.array(z.enum(topics)) }))
    .query(async ({ ctx }) => ({
      topics: watchable(ctx.principal, (await ctx.deps.guilds.modules(ctx.guildId)) ?? effectiveModules({})),
    })),
});
