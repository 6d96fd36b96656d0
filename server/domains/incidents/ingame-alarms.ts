import { z } from 'zod';
import type { Db } from '../../store/db.ts';
import { guildProcedure, router } from '../../trpc/init.ts';
import { LocationOut } from '../calls/schema.ts';

/**
 * The game's view of alarms (issue 29, "waypoints for assigned units"): every unit alarmed on an
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

/** Units alarmed on open sheets, newest alarm first, each with its crew and its sheet. */
export async function ingameAlarms(db: Db, guildId: string): Promise<z.infer<typeof IngameAlarms>> {
  const rows = await db`
    select u.callsign, u.label, iu.alarmed_at, iu.acknowledged_at, i.number, i.keyword, i.priority, i.location, c.message,
      coalesce((select json_agg(json_build_object('userId', m.user_id, 'nickname', p.nickname, 'badge', p.badge) order by m.since)
        from unit_members m join people p on p.guild_id = m.guild_id and p.user_id = m.user_id
        where m.guild_id = u.guild_id and m.unit_id = u.id), '[]'::json) as crew,
      (select json_agg(json_build_object('callsign', ou.callsign, 'label', ou.label, 'alarmedAt', o.alarmed_at, 'acknowledgedAt', o.acknowledged_at)
          order by o.alarmed_at, ou.callsign)
        from incident_units o join units ou on ou.guild_id = o.guild_id and ou.id = o.unit_id
        where o.guild_id = i.guild_id and o.number = i.number and o.alarmed_at is not null) as units
    from incident_units iu
    join incidents i on i.guild_id = iu.guild_id and i.number = iu.number and i.state = 'open'
    join units u on u.guild_id = iu.guild_id and u.id = iu.unit_id
    left join calls c on c.guild_id = i.guild_id and c.id = i.call_id
    where iu.guild_id = ${guildId} and iu.alarmed_at is not null
    order by iu.alarmed_at desc, u.callsign limit 500`;
  const date = (v: string | null) => (v ? new Date(v) : null);
  return {
    alarms: rows.map((r) => ({
      callsign: r.callsign as string, label: r.label as string, alarmedAt: r.alarmed_at as Date, acknowledgedAt: (r.acknowledged_at as Date | null) ?? null,
      crew: r.crew as { userId: string; nickname: string; badge: string | null }[],
      incident: {
        number: r.number as number, keyword: r.keyword as string, priority: r.priority as number,
        location: (r.location ?? null) as z.infer<typeof LocationOut> | null, message: (r.message as string | null) ?? null,
        units: (r.units as { callsign: string; label: string; alarmedAt: string; acknowledgedAt: string | null }[])
          .map((u) => ({ callsign: u.callsign, label: u.label, alarmedAt: new Date(u.alarmedAt), acknowledgedAt: date(u.acknowledgedAt) })),
      },
    })),
  };
}

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
