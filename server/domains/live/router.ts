import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import { AlarmState, WatchInput } from './schema.ts';
import { alarmNow, watch, watchAlarm } from './service.ts';

export const liveRouter = router({
  watch: guildProcedure
    .meta({
      tag: 'Leitstelle', access: 'member',
      summary: 'Live board over the WebSocket: a snapshot of the chosen topics, then deltas, every frame tracked "<epoch>.<seq>"; on reconnect exactly the missed deltas, or a fresh snapshot when they are gone.',
    })
    .input(WatchInput)
    .subscription(({ ctx, input, signal }) => watch(ctx, input.topics, input.lastEventId, signal)),
});

export const meAlarmRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/alarm' }, tag: 'Allgemein',
      summary: 'Your duty state and the callsigns of all units in an alarm status.',
      access: 'member', capability: 'timeclock.own.use', sessionOnly: true,
    })
    .output(AlarmState)
    .query(({ ctx }) => alarmNow(ctx.deps, ctx.guildId, requireSession(ctx).userId)),

  watch: guildProcedure
    .meta({
      tag: 'Allgemein', access: 'member', capability: 'timeclock.own.use', sessionOnly: true,
      summary: 'Your { onDuty, alarms } (the shape of GET /me/alarm) now and on every change.',
    })
    .input(z.strictObject({ lastEventId: z.string().max(64).nullish() }).optional())
    .subscription(({ ctx, signal }) => watchAlarm(ctx.deps, ctx.guildId, requireSession(ctx).userId, signal)),
});
