import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import { inGuildTx } from '../../store/tx.ts';
import { alarmAckTimeout, setAlarmAckTimeout } from './store.ts';

const AlarmSettings = z.object({ alarmAckTimeoutS: z.number().int().describe('Seconds after which an alarm not acknowledged is flagged on the desk.') });
const ackTimeoutRule = 'alarmAckTimeoutS must be a whole number of seconds from 10 to 600';
const AlarmSettingsPatch = z.strictObject({
  alarmAckTimeoutS: z.number({ error: ackTimeoutRule }).int(ackTimeoutRule).min(10, ackTimeoutRule).max(600, ackTimeoutRule),
});

/** The guild's alarm settings (a column of guilds, like the clock settings). */
export const alarmSettingsRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/alarm-settings' }, tag: 'Einrichtung',
      summary: 'Alarm settings: alarmAckTimeoutS, after which an alarm a unit has not acknowledged is flagged on the desk (default 60).',
      access: 'admin', capability: 'settings.manage', module: 'incidents',
    })
    .output(AlarmSettings)
    .query(async ({ ctx }) => ({ alarmAckTimeoutS: await alarmAckTimeout(ctx.deps.sql, ctx.guildId) })),

  set: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/alarm-settings' }, tag: 'Einrichtung',
      summary: 'Change alarmAckTimeoutS (10 to 600 seconds). Sheets read afterwards flag their units by the new value.',
      access: 'admin', capability: 'settings.manage', module: 'incidents', audit: 'settings.alarm_set', topics: ['settings'],
      errors: { 400: 'alarmAckTimeoutS missing or out of 10..600.' },
    })
    .input(AlarmSettingsPatch).output(AlarmSettings)
    .mutation(({ ctx, input }) => inGuildTx(ctx.deps.db, ctx.deps.bus, ctx.guildId, async (tx) => {
      await setAlarmAckTimeout(tx.sql, ctx.guildId, input.alarmAckTimeoutS);
      tx.emit('settings', { op: 'set', key: 'alarm', value: { alarmAckTimeoutS: input.alarmAckTimeoutS } });
      tx.audit('settings.alarm_set', ctx.actor, { alarmAckTimeoutS: input.alarmAckTimeoutS });
      return { alarmAckTimeoutS: input.alarmAckTimeoutS };
    })),
});
