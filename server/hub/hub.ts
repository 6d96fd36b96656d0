import type { Log } from '../core/log.ts';
import type { Database } from '../store/db.ts';
import type { Bus } from './bus.ts';
import { GuildHub, noHubObserver, type GuildHubOptions, type HubObserver } from './guild-hub.ts';

export type { HubObserver } from './guild-hub.ts';
import { streamHeads } from './snapshot.ts';

export interface HubOptions extends GuildHubOptions {
  /** How often loaded guilds compare their head with the log (catches silently lost bus messages). */
  positionCheckMs: number;
  /** A guild nobody watches is dropped from memory (and no longer followed at the broker) after this long. */
  idleEvictMs: number;
}

/**
 * 512 recent events per guild: a busy guild (a write every 2 s) keeps about 17 minutes for resumes,
 * a quiet one hours; older resumes get one snapshot. Each event costs 1–2 KB of heap, so the ring is
 * most of what a served guild costs a node (bench/CAPACITY.md).
 */
export const defaultHubOptions: HubOptions = { ringSize: 512, gapGraceMs: 30, positionCheckMs: 5_000, idleEvictMs: 60_000 };

/**
 * The node's live state of every watched guild. Guilds load on first watch and follow the guild
 * at the bus from then on, until they have been idle for `idleEvictMs`: a node receives the events
 * of the guilds it serves, not the whole network's.
 */
export function createHub(db: Database, bus: Bus, log: Log, opts: HubOptions = defaultHubOptions, observer: HubObserver = noHubObserver) {
  const guilds = new Map<string, GuildHub>();
  const evict = (id: string, g: GuildHub) => {
    if (guilds.get(id) === g) guilds.delete(id);
    g.follow.release();
  };

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
    for (const [id, g] of guilds) if (g.listenerCount === 0 && now - g.lastUsed > opts.idleEvictMs) evict(id, g);
  }, opts.positionCheckMs);
  positionTimer.unref();

  return {
    /** The guild's hub, loaded and current as of its snapshot. */
    async guild(guildId: string): Promise<GuildHub> {
      let g = guilds.get(guildId);
      if (!g) {
        const hub = new GuildHub(guildId, db, log, opts, observer, bus.follow(guildId));
        guilds.set(guildId, hub);
        hub.ready.catch(() => evict(guildId, hub));
        g = hub;
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
      for (const [id, g] of guilds) evict(id, g);
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
