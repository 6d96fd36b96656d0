import { guildProcedure, router } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import { positionLimits } from '../../../contract/positions.ts';
import * as s from './schema.ts';
import { acceptPositions, watchPositions } from './service.ts';

const positionsWatch = {
  tag: 'Leitstelle', access: 'view', capability: 'dispatch.view', module: 'dispatch',
  summary: `Unit positions over the WebSocket, coalesced: a full frame { kind: "positions", full: true, positions, removed: [], staleAfterMs }, then at most one frame per interval (default ${positionLimits.intervalMs} ms) with only the units that moved since your previous frame (latest wins) and the callsigns of deleted units; none while nothing moves. A slow connection gets fewer frames, never a backlog. Ends with 403 when your rank loses dispatch.view.`,
} as const satisfies Meta;

export const positionsRouter = router({
  put: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/integrations/ingame/positions' }, tag: 'Medic und InGame',
      summary: `The game's unit positions, every 1–2 s: up to ${positionLimits.perRequest} of { callsign, x, y, z?, heading?, speed? }, each unit once. Held in memory and streamed to the boards' maps (live.positions), not stored per update: the last known position is written at most every ${positionLimits.persistEveryMs / 1000} s. GET /units shows each unit's position with its age; stale after ${positionLimits.staleAfterMs / 1000} s unless the guild's map settings say otherwise. Callsigns of no unit are named in unknown.`,
      access: 'admin', capability: 'dispatch.manage', scopes: ['units:unit.ingame_position'], module: 'dispatch',
      errors: {
        400: `Invalid body: more than ${positionLimits.perRequest} positions, a callsign twice, a number out of range.`,
        429: `More than ${positionLimits.putsPerMinute} PUTs a minute (bursts of ${positionLimits.putBurst}) by this API key or account, with a Retry-After header: batch the positions instead.`,
      },
    })
    .input(s.PutPositions).output(s.PositionsAccepted)
    .mutation(({ ctx, input }) => acceptPositions(ctx.deps, ctx.guildId, input, ctx.actor)),
});

/** `live.positions`, mounted in the live router. */
export const watchPositionsProcedure = guildProcedure
  .meta(positionsWatch)
  .input(s.WatchPositionsInput)
  .subscription(({ ctx, input, signal }) => watchPositions(ctx, positionsWatch, input?.intervalMs ?? positionLimits.intervalMs, signal));
