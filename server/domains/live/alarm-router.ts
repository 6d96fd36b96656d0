import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import { requireSession } from '../../trpc/session.ts';
import { AlarmState } from './schema.ts';
import { alarmNow, watchAlarm } from './service.ts';

const alarmWatch = {
  tag: 'Allgemein', access: 'member', capability: 'timeclock.own.use', sessionOnly: true, alarmSession: true,
  summary: 'Your { onDuty, alarms } (the shape of GET /me/alarm) now and on every change; a { kind: "status", degraded } frame when the database stops or starts answering. Ends with 403 when your rank loses timeclock.own.use.',
} as const satisfies Meta;

export const meAlarmRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/alarm' }, tag: 'Allgemein',
      summary: 'Your duty state and the callsigns of all units in an alarm status.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true, alarmSession: true,
    })
    .output(AlarmState)
    .query(({ ctx }) => alarmNow(ctx.deps, ctx.guildId, requireSession(ctx).userId)),

  watch: guildProcedure
    .meta(alarmWatch)
    .input(z.strictObject({ lastEventId: z.string().max(64).nullish() }).optional())
    .subscription(({ ctx, signal }) => watchAlarm({ ...ctx, principal: requireSession(ctx) }, alarmWatch, signal)),
});
