import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import { inGuildTx } from '../../store/tx.ts';
import { effectiveModules, modules } from '../../../contract/modules.ts';
import { guildById, setModules } from '../guilds/store.ts';
import { AppError } from '../../core/errors.ts';

const ModuleSwitches = z.strictObject(Object.fromEntries(modules.map((m) => [m, z.boolean().optional()])) as Record<(typeof modules)[number], z.ZodOptional<z.ZodBoolean>>);
const SetModules = z.strictObject({ modules: ModuleSwitches });
const Modules = z.object({ modules: z.record(z.string(), z.boolean()) });

export const settingsRouter = router({
  modules: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/modules' }, tag: 'Einrichtung',
      summary: 'Every feature module with its switch (true: on). Members read the same in the public branding.',
      access: 'admin', capability: 'settings.manage',
    })
    .output(Modules)
    .query(async ({ ctx }) => {
      const guild = await guildById(ctx.deps.sql, ctx.guildId);
      if (!guild) throw new AppError('NOT_FOUND', `unknown guild ${ctx.guildId}`);
      return { modules: effectiveModules(guild.modules) };
    }),

  setModules: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/modules' }, tag: 'Einrichtung',
      summary: 'Switch feature modules on or off; routes of a switched-off module answer 404.',
      access: 'admin', capability: 'settings.manage', audit: 'settings.modules_set', topics: ['settings', 'access'],
    })
    .input(SetModules).output(Modules)
    .mutation(async ({ ctx, input }) => {
      const patch = Object.fromEntries(Object.entries(input.modules).filter(([, v]) => v !== undefined)) as Record<string, boolean>;
      const result = await inGuildTx(ctx.deps.db, ctx.deps.bus, ctx.guildId, async (tx) => {
        const stored = await setModules(tx.sql, ctx.guildId, patch);
        const effective = effectiveModules(stored);
        tx.emit('settings', { op: 'set', key: 'modules', value: effective });
        // Every board (not only those allowed to watch settings) re-reads its access and drops the tabs of an off module.
        tx.emit('access', { op: 'modules', modules: effective });
        tx.audit('settings.modules_set', ctx.actor, { modules: patch });
        return { modules: effective };
      });
      ctx.deps.guilds.changed(ctx.guildId);
      return result;
    }),
});
