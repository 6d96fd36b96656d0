import { z } from 'zod';
import { guildProcedure, router } from '../../trpc/init.ts';
import { inGuildTx } from '../../store/tx.ts';
import { effectiveModules, modules } from '../guilds/modules.ts';
import { setModules } from '../guilds/store.ts';

const ModuleSwitches = z.strictObject(Object.fromEntries(modules.map((m) => [m, z.boolean().optional()])) as Record<(typeof modules)[number], z.ZodOptional<z.ZodBoolean>>);
const SetModules = z.strictObject({ modules: ModuleSwitches });
const Modules = z.object({ modules: z.record(z.string(), z.boolean()) });

export const settingsRouter = router({
  setModules: guildProcedure
    .meta({
      rest: { method: 'PATCH', path: '/admin/modules' }, tag: 'Einrichtung',
      summary: 'Switch feature modules on or off; routes of a switched-off module answer 404.',
      access: 'admin', capability: 'settings.manage', audit: 'settings.modules_set', topics: ['settings', 'access'],
    })
    .input(SetModules).output(Modules)
    .mutation(async ({ ctx, input }) => {
      const patch = Object.fromEntries(Object.entries(input.modules).filter(([, v]) => v !== undefined)) as Record<string, boolean>;
      const result = await inGuildTx(ctx.deps.sql, ctx.deps.bus, ctx.guildId, async (tx) => {
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
