import { guildProcedure, router } from '../../trpc/init.ts';
import { requireSession } from '../../trpc/session.ts';
import { inGuildTx } from '../../store/tx.ts';
import { defaultPrefs, Prefs, PutPrefs } from './schema.ts';
import { mergePrefs, storedPrefs } from './store.ts';

const effective = (stored: Record<string, unknown>) => ({ prefs: { ...defaultPrefs, ...pickKnown(stored) } });
const pickKnown = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => k in defaultPrefs));

export const preferencesRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/me/preferences' }, tag: 'Allgemein',
      summary: 'Your preferences (defaults filled in). Session only: an API key gets 403.', access: 'member', sessionOnly: true,
    })
    .output(Prefs)
    .query(async ({ ctx }) => effective(await storedPrefs(ctx.deps.sql, ctx.guildId, requireSession(ctx).userId))),

  set: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/me/preferences' }, tag: 'Allgemein',
      summary: 'Merge preferences; a null value resets that preference to its default. Session only.',
      access: 'member', sessionOnly: true, audit: 'user.preferences_set',
    })
    .input(PutPrefs).output(Prefs)
    .mutation(async ({ ctx, input }) => {
      const userId = requireSession(ctx).userId;
      const entries = Object.entries(input.prefs).filter(([, v]) => v !== undefined);
      const set = Object.fromEntries(entries.filter(([, v]) => v !== null));
      const reset = entries.filter(([, v]) => v === null).map(([k]) => k);
      return inGuildTx(ctx.deps.db, ctx.deps.bus, ctx.guildId, async (tx) => {
        const stored = await mergePrefs(tx.sql, ctx.guildId, userId, set, reset);
        tx.audit('user.preferences_set', ctx.actor, { set: Object.keys(set), reset });
        return effective(stored);
      });
    }),
});
