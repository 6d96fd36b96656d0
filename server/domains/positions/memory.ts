import type { Log } from '../../core/log.ts';
import type { Database } from '../../store/db.ts';
import type { Bus } from '../../hub/bus.ts';
import { positionLimits, type UnitPosition } from '../../../contract/positions.ts';
import { persistedPositions, persistPositions } from './store.ts';

interface Known { pos: UnitPosition; version: number }

/**
 * One guild's last known unit positions, each with the version it was changed at: a reader that
 * remembers the version it saw last gets exactly the units that moved since (latest wins).
 * Removals (a deleted unit) carry a version too, and are forgotten after `removalMemoryMs`.
 */
export class GuildPositions {
  version = 0;
  /** When a position last arrived or somebody last read the guild (eviction). */
  touched = Date.now();
  /** Live subscriptions of the guild on this node; a watched guild is never evicted. */
  watchers = 0;
  private readonly units = new Map<string, Known>();
  private readonly removed = new Map<string, { version: number; at: number }>();
  /** Callsigns this node received from the game since its last write to PostgreSQL. */
  private readonly dirty = new Set<string>();

  /** Takes positions newer than what is known (an older one, late from another node, is ignored). Returns how many changed. */
  apply(positions: readonly UnitPosition[], receivedHere: boolean): number {
    let changed = 0;
    for (const pos of positions) {
      const known = this.units.get(pos.callsign);
      if (known && known.pos.at > pos.at) continue;
      this.units.set(pos.callsign, { pos, version: ++this.version });
      this.removed.delete(pos.callsign);
      if (receivedHere) this.dirty.add(pos.callsign);
      changed++;
    }
    if (changed) this.touched = Date.now();
    return changed;
  }

  remove(callsign: string): void {
    if (!this.units.delete(callsign)) return;
    this.dirty.delete(callsign);
    this.removed.set(callsign, { version: ++this.version, at: Date.now() });
  }

  get(callsign: string): UnitPosition | undefined {
    return this.units.get(callsign)?.pos;
  }

  get size(): number {
    return this.units.size;
  }

  all(): UnitPosition[] {
    return [...this.units.values()].map((k) => k.pos);
  }

  /** What changed after `version`: the positions that moved and the callsigns removed. */
  since(version: number): { positions: UnitPosition[]; removed: string[] } {
    const positions: UnitPosition[] = [];
    const removed: string[] = [];
    if (version >= this.version) return { positions, removed };
    for (const k of this.units.values()) if (k.version > version) positions.push(k.pos);
    for (const [callsign, r] of this.removed) if (r.version > version) removed.push(callsign);
    return { positions, removed };
  }

  /** The dirty positions, taken: the caller writes them (and puts them back with `redirty` when that fails). */
  takeDirty(): UnitPosition[] {
    const out: UnitPosition[] = [];
    for (const c of this.dirty) {
      const pos = this.units.get(c)?.pos;
      if (pos) out.push(pos);
    }
    this.dirty.clear();
    return out;
  }

  redirty(positions: readonly UnitPosition[]): void {
    for (const p of positions) if (this.units.get(p.callsign)?.pos === p) this.dirty.add(p.callsign);
  }

  get hasDirty(): boolean {
    return this.dirty.size > 0;
  }

  forgetRemovalsBefore(at: number): void {
    for (const [callsign, r] of this.removed) if (r.at < at) this.removed.delete(callsign);
  }
}

export interface PositionsOptions {
  persistEveryMs: number;
  /** A guild nobody watches and no position reached for this long leaves memory (PostgreSQL has its last positions). */
  evictAfterMs: number;
  /** Removals are remembered this long for subscriptions that were behind. */
  removalMemoryMs: number;
}

export const defaultPositionsOptions: PositionsOptions = { persistEveryMs: positionLimits.persistEveryMs, evictAfterMs: 10 * 60_000, removalMemoryMs: 10 * 60_000 };

/**
 * The node's unit positions. A position from the game is applied here and published to the other
 * nodes (which apply those of the guilds they follow); each node writes the positions it received
 * to PostgreSQL at most every `persistEveryMs`, and once more when it closes. Memory holds only
 * guilds that are watched or moving.
 */
export function createPositions(db: Database, bus: Bus, log: Log, opts: PositionsOptions = defaultPositionsOptions) {
  const guilds = new Map<string, GuildPositions>();
  const loads = new Map<GuildPositions, Promise<void>>();
  let received = 0;

  /** The guild's positions, created at once (positions may arrive before the persisted ones are read). */
  function touch(guildId: string): GuildPositions {
    let g = guilds.get(guildId);
    if (!g) guilds.set(guildId, (g = new GuildPositions()));
    g.touched = Date.now();
    return g;
  }

  /** Merges the persisted positions in once (newest wins); a failed read is tried again by the next reader. */
  function loaded(guildId: string, g: GuildPositions): Promise<void> {
    let load = loads.get(g);
    if (!load) {
      load = persistedPositions(db.sql, guildId).then((list) => void g.apply(list, false)).catch((err) => {
        loads.delete(g);
        throw err;
      });
      loads.set(g, load);
    }
    return load;
  }

  const offRemote = bus.onPositions((guildId, positions) => {
    received += positions.length;
    touch(guildId).apply(positions, false);
  });
  // A deleted (or renamed) unit's position goes with it: from every node's memory, by its event.
  const offEvents = bus.onEvents((events) => {
    for (const ev of events) {
      const g = guilds.get(ev.guildId);
      for (const op of (g && ev.deltas.units) || []) if (op.op === 'remove') g!.remove(String(op.key));
    }
  });

  async function persist(guildId: string, g: GuildPositions): Promise<void> {
    const list = g.takeDirty();
    if (!list.length) return;
    try {
      await persistPositions(db.sql, guildId, list);
    } catch (err) {
      g.redirty(list);
      log.warn('persisting positions failed; retried at the next write', { guildId, error: String(err) });
    }
  }

  async function persistAll(): Promise<void> {
    for (const [guildId, g] of guilds) if (g.hasDirty) await persist(guildId, g);
  }

  let writing: Promise<void> | null = null;
  const timer = setInterval(() => {
    writing ??= persistAll().finally(() => (writing = null));
    const now = Date.now();
    for (const [guildId, g] of guilds) {
      g.forgetRemovalsBefore(now - opts.removalMemoryMs);
      if (g.watchers === 0 && !g.hasDirty && now - g.touched > opts.evictAfterMs) {
        guilds.delete(guildId);
        loads.delete(g);
      }
    }
  }, opts.persistEveryMs);
  timer.unref();

  return {
    /** Positions from the game, received by this node: applied, sent to the other nodes, written later. */
    accept(guildId: string, positions: UnitPosition[]): void {
      received += positions.length;
      touch(guildId).apply(positions, true);
      bus.publishPositions(guildId, positions);
    },
    /** The guild's positions with the persisted ones merged in. */
    async guild(guildId: string): Promise<GuildPositions> {
      const g = touch(guildId);
      await loaded(guildId, g);
      return g;
    },
    /** The guild's positions if this node holds them (no read). */
    loaded(guildId: string): GuildPositions | undefined {
      return guilds.get(guildId);
    },
    /** Writes every position received and not yet written (tests; shutdown). */
    flush: persistAll,
    get stats() {
      let units = 0;
      for (const g of guilds.values()) units += g.size; // a scrape copies nothing
      return { guilds: guilds.size, units, received };
    },
    async close(): Promise<void> {
      clearInterval(timer);
      offRemote();
      offEvents();
      await writing;
      await persistAll();
    },
  };
}

export type Positions = ReturnType<typeof createPositions>;
