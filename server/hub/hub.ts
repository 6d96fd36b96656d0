import type { Log } from '../core/log.ts';
import type { Database } from '../store/db.ts';
import type { Bus } from './bus.ts';
import { GuildHub, noHubObserver, type GuildHubOptions, type HubObserver } from './guild-hub.ts';

export type { HubObserver } from './guild-hub.ts';
import { streamHeads } from './snapshot.ts';

export interface HubOptions extends GuildHubOptions {
  /** How often loaded guilds compare their head with the log (catches silently lost bus messages). */
  positionCheckMs: number;
  /** A guild nobody watches is dropped from memory after this long. */
  idleEvictMs: number;
}

export const defaultHubOptions: HubOptions = { ringSize: 2048, gapGraceMs: 30, positionCheckMs: 5_000, idleEvictMs: 10 * 60_000 };

/**
 * The node's live state of every watched guild. Guilds load on first watch; bus events for
 * guilds nobody watches here are ignored (the log has them).
 */
export function createHub(db: Database, bus: Bus, log: Log, opts: HubOptions = defaultHubOptions, observer: HubObserver = noHubObserver) {
  const guilds = new Map<string, GuildHub>();

  const offEvents = bus.onEvents((events) => {
    for (const ev of events) guilds.get(ev.guildId)?.receive(ev);
  });
  const offResync = bus.onResync(() => {
    for (const g of guilds.values()) void g.catchUp().catch((err) => log.warn('catch-up failed', { guildId: g.guildId, error: String(err) }));
  });

  async function checkPositions() {
    if (guilds.size === 0) return;
    const heads = await streamHeads(db.sql, [...guilds.keys()]);
    for (const g of guilds.values()) {
      const h = heads.get(g.guildId);
      if (!h) continue;
      if (h.epoch !== g.epoch || h.seq > g.head) {
        if (h.epoch === g.epoch) observer.gap(); // a bus message was lost (or is very late)
        await g.catchUp();
      }
    }
  }
  const positionTimer = setInterval(() => {
    checkPositions().catch((err) => log.warn('position check failed', { error: String(err) }));
    const now = Date.now();
    for (const [id, g] of guilds) if (g.listenerCount === 0 && now - g.lastUsed > opts.idleEvictMs) guilds.delete(id);
  }, opts.positionCheckMs);
  positionTimer.unref();

  return {
    /** The guild's hub, loaded and current as of its snapshot. */
    async guild(guildId: string): Promise<GuildHub> {
      let g = guilds.get(guildId);
      if (!g) {
        g = new GuildHub(guildId, db, log, opts, observer);
        guilds.set(guildId, g);
        g.ready.catch(() => guilds.delete(guildId));
      }
      g.lastUsed = Date.now();
      await g.ready;
      return g;
    },
    loaded(guildId: string): GuildHub | undefined {
      return guilds.get(guildId);
    },
    checkPositions,
    /** Guilds whose live state this node holds. */
    get size(): number {
      return guilds.size;
    },
    close() {
      clearInterval(positionTimer);
      offEvents();
      offResync();
      guilds.clear();
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
