import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import { LocationOut } from '../calls/schema.ts';
import { ingameAlarms } from './alarm-store.ts';

/**
 * The game's view of alarms (the query: alarm-store.ts `ingameAlarms`) (issue 29, "waypoints for assigned units"): every unit alarmed on an
 * open sheet, with the crew in it (chat-platform user ids and badges, so a game resource finds the
 * players) and the incident: keyword, priority, location with x/y, the call's message, the units.
 * A read for scope `calls:read` (capability `dispatch.view`, as the game's call list): a scoped key
 * holds no capability, the scope opens exactly this read. The SDK's game bridge polls it and emits
 * one `alarm` event per unit and alarm.
 */
const AlarmedUnit = z.object({ callsign: z.string(), label: z.string(), alarmedAt: z.date(), acknowledgedAt: z.date().nullable() });
export const IngameAlarms = z.object({
  alarms: z.array(AlarmedUnit.extend({
    crew: z.array(z.object({ userId: z.string(), nickname: z.string(), badge: z.string().nullable() })).describe('Who occupies the unit now.'),
    incident: z.object({
      number: z.number().int(), keyword: z.string(), priority: z.number().int(),
      location: LocationOut.nullable().describe('Where to set the waypoint: x and y when the sheet has them.'),
      message: z.string().nullable().describe('The game call\'s message, when the sheet came from one.'),
      units: z.array(AlarmedUnit).describe('Every unit alarmed on the sheet, this one included, in alarm order.'),
    }),
  })).describe('Newest alarm first.'),
});

export const ingameAlarmsRouter = router({
  list: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/integrations/ingame/alarms' }, tag: 'Medic und InGame',
      summary: 'Units alarmed on open incident sheets, for game scripts (waypoints for assigned units): each with its crew (user ids and badges) and the incident (number, keyword, priority, location with x/y, message, units). The SDK\'s game bridge polls it and emits an alarm event per unit.',
      access: 'view', capability: 'dispatch.view', scopes: ['calls:read'], module: 'incidents',
    })
    .output(IngameAlarms)
    .query(({ ctx }) => ingameAlarms(ctx.deps.sql, ctx.guildId)),
});

export type IngameAlarmList = z.infer<typeof IngameAlarms>;
