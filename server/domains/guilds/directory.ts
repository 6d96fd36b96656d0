import { TtlCache } from '../../core/ttl-cache.ts';
import type { Database } from '../../store/db.ts';
import type { Bus } from '../../hub/bus.ts';
import { effectiveModules, type ModuleName } from '../../../contract/modules.ts';
import { guildById } from './store.ts';

/** Cached per-guild module switches; a change anywhere drops the entry on every node via the bus. */
export function createGuildDirectory(db: Database, bus: Bus) {
  const cache = new TtlCache<Record<ModuleName, boolean> | null>(10_000);
  bus.onInvalidate((inv) => {
    if (inv.kind === 'guild') cache.delete(inv.id);
  });
  bus.onResync(() => cache.clear());
  return {
    /** The cached switches without a round trip; undefined when not cached (then `modules`). */
    cachedModules(guildId: string): Record<ModuleName, boolean> | null | undefined {
      return cache.get(guildId);
    },
    async modules(guildId: string): Promise<Record<ModuleName, boolean> | null> {
      let hit = cache.get(guildId);
      if (hit === undefined) {
        const guild = await guildById(db.sql, guildId);
        hit = guild ? effectiveModules(guild.modules) : null;
        cache.set(guildId, hit);
      }
      return hit;
    },
    changed(guildId: string) {
      bus.invalidate({ kind: 'guild', id: guildId });
    },
  };
}
export type GuildDirectory = ReturnType<typeof createGuildDirectory>;
