import type { Deps } from '../../deps.ts';
import type { SessionPrincipal } from '../../auth/principal.ts';
import { memberships } from '../../auth/store.ts';

interface Watcher { principal: SessionPrincipal; update(p: SessionPrincipal | null): void }
interface GuildWatchers { watchers: Set<Watcher>; running: boolean; again: boolean }

const RETRY_MS = 1_000;
const registries = new WeakMap<Deps, RightsRegistry>();

/**
 * Open subscriptions of signed-in members, re-checked when their rights may have changed: rank,
 * capability, admin and membership changes send a `guild` invalidation over the bus (to every
 * node), and so may lost messages (`onResync`). Each re-check reads the watchers' memberships from
 * PostgreSQL in one query and hands every watcher its principal as it is now (null: no longer a
 * member). Nothing runs per frame, and nothing at all for API keys, whose rights never change (a
 * deleted key closes its sockets).
 */
export function sessionRights(deps: Deps): RightsRegistry {
  let registry = registries.get(deps);
  if (!registry) registries.set(deps, (registry = createRegistry(deps)));
  return registry;
}

export type RightsRegistry = ReturnType<typeof createRegistry>;

function createRegistry(deps: Deps) {
  const guilds = new Map<string, GuildWatchers>();
  const generations = new Map<string, number>();
  const generation = (guildId: string) => generations.get(guildId) ?? 0;

  deps.bus.onInvalidate((inv) => {
    if (inv.kind !== 'guild') return;
    generations.set(inv.id, generation(inv.id) + 1);
    recheck(inv.id);
  });
  deps.bus.onResync(() => {
    for (const guildId of guilds.keys()) {
      generations.set(guildId, generation(guildId) + 1);
      recheck(guildId);
    }
  });

  function recheck(guildId: string) {
    const g = guilds.get(guildId);
    if (!g) return;
    if (g.running) {
      g.again = true; // a change during a re-check: read again once it is done
      return;
    }
    g.running = true;
    void run(guildId, g);
  }

  async function run(guildId: string, g: GuildWatchers) {
    let failed = false;
    try {
      do {
        g.again = false;
        const read = new Set([...g.watchers].map((w) => w.principal.userId));
        const found = await memberships(deps.sql, guildId, [...read]);
        for (const w of [...g.watchers]) {
          if (!g.watchers.has(w)) continue; // ended by an earlier update of this round
          if (!read.has(w.principal.userId)) {
            g.again = true; // subscribed while we read: read again
            continue;
          }
          const m = found.get(w.principal.userId);
          const next = m ? { ...w.principal, nickname: m.nickname, isAdmin: m.isAdmin, capabilities: new Set(m.capabilities) } : null;
          if (next) w.principal = next;
          try {
            w.update(next);
          } catch (err) {
            deps.log.error('live rights update failed', { guildId, error: String(err), stack: (err as Error)?.stack });
          }
        }
      } while (g.again && g.watchers.size);
    } catch (err) {
      failed = true;
      deps.log.warn('live rights re-check failed; retrying', { guildId, error: String(err) });
    } finally {
      g.running = false;
      if (!g.watchers.size && guilds.get(guildId) === g) guilds.delete(guildId);
      else if (failed) setTimeout(() => recheck(guildId), RETRY_MS).unref();
    }
  }

  return {
    /** Invalidations of the guild seen so far; pass it to `watch` as of when the principal was read. */
    generation,
    /**
     * Calls `update` with the principal as it is after each change of the guild's rights, until the
     * returned function is called. `since`: the generation when `principal` was read; a change
     * since then is re-checked at once.
     */
    watch(principal: SessionPrincipal, since: number, update: (p: SessionPrincipal | null) => void): () => void {
      let g = guilds.get(principal.guildId);
      if (!g) guilds.set(principal.guildId, (g = { watchers: new Set(), running: false, again: false }));
      const w: Watcher = { principal, update };
      g.watchers.add(w);
      if (generation(principal.guildId) !== since) recheck(principal.guildId);
      const entry = g;
      return () => {
        entry.watchers.delete(w);
        if (!entry.watchers.size && !entry.running && guilds.get(principal.guildId) === entry) guilds.delete(principal.guildId);
      };
    },
    /** Guilds and watchers held (all 0 when no session watches). */
    get stats() {
      let watchers = 0;
      for (const g of guilds.values()) watchers += g.watchers.size;
      return { guilds: guilds.size, watchers };
    },
  };
}
