import type { Log } from '../core/log.ts';
import type { Database } from '../store/db.ts';
import { followedAtOnce, type GuildFollow } from './bus.ts';
import { applyOps, type TopicState } from '../../contract/reducers.ts';
import { eventsAfter, loadGuildSnapshot } from './snapshot.ts';
import { hotTopics, type GuildEvent, type HotTopic } from '../../contract/topics.ts';

export interface GuildHubOptions {
  /** Recent events kept for resumes; older resumes get a snapshot. */
  ringSize: number;
  /** How long an out-of-order event waits for the missing ones before the log is read. */
  gapGraceMs: number;
}

/** What the hub tells about its work (the metrics); each call is cheap and never throws. */
export interface HubObserver {
  /** An event was applied to a guild's live state, `lagMs` after its transaction's timestamp (database clock). */
  applied(lagMs: number): void;
  /** Events were missing in a guild's sequence (past the grace time, or found behind the log): repaired from the log. */
  gap(): void;
  /** `count` events were read from the log to repair a gap. */
  replayed(count: number): void;
  /** A guild's live state was reloaded from a snapshot (the history changed). */
  reloaded(): void;
}

export const noHubObserver: HubObserver = { applied() {}, gap() {}, replayed() {}, reloaded() {} };

/** What listeners of a guild hear, in seq order: applied events, or a reset after the history changed. */
export type HubSignal = { kind: 'event'; event: GuildEvent } | { kind: 'reset' };

/**
 * One guild's live state. Guarantees: events are applied exactly once and in seq order; `head` is
 * the seq the state reflects; listeners hear applied events in the same order. A gap (lost bus
 * message, reconnect) is repaired from PostgreSQL's event log, which is the truth.
 */
export class GuildHub {
  epoch = '';
  head = 0;
  states = {} as Record<HotTopic, TopicState>;
  /** Recent applied events, oldest first; `ring[0].seq` is the oldest resumable seq. */
  readonly ring: GuildEvent[] = [];
  readonly ready: Promise<void>;
  lastUsed = Date.now();

  private loaded = false;
  private readonly pending = new Map<number, GuildEvent>();
  private readonly listeners = new Set<(s: HubSignal) => void>();
  private repairing: Promise<void> | null = null;
  private repairTimer: NodeJS.Timeout | null = null;
  /** The history changed (new epoch) and the reload has not succeeded yet. */
  private needsReload = false;

  /**
   * `follow` is the node's subscription to the guild's events at the broker: the snapshot is read
   * only once it is ready, so every event after the snapshot arrives (or shows as a gap).
   */
  constructor(readonly guildId: string, private readonly db: Database, private readonly log: Log, private readonly opts: GuildHubOptions,
    private readonly observer: HubObserver = noHubObserver, readonly follow: GuildFollow = followedAtOnce) {
    this.ready = follow.ready.then(() => this.reload());
  }

  listen(fn: (s: HubSignal) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
      this.lastUsed = Date.now(); // idle from the moment the last listener left
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** The oldest seq a client may have seen and still be resumed from the ring. */
  get resumableFrom(): number {
    return this.ring.length ? this.ring[0].seq - 1 : this.head;
  }

  /** Takes an event from the bus: applied now, buffered until the ones before it arrive, or dropped as a duplicate. */
  receive(ev: GuildEvent): void {
    if (this.loaded && ev.epoch !== this.epoch) {
      this.log.warn('event stream epoch changed; reloading guild', { guildId: this.guildId });
      void this.reset().catch((err) => this.log.warn('reloading the guild failed; the position check retries', { guildId: this.guildId, error: String(err) }));
      return;
    }
    if (ev.seq <= this.head && this.loaded) return;
    this.pending.set(ev.seq, ev);
    if (this.loaded) this.drain();
  }

  /** Brings the state up to the log's head (after a Redis reconnect, or when a client is ahead of us). */
  catchUp(): Promise<void> {
    // A reload that failed (database down) is tried again by the next catch-up, never left half done.
    this.repairing ??= (this.needsReload ? this.reset() : this.readLog()).finally(() => {
      this.repairing = null;
    });
    return this.repairing;
  }

  private async reload(): Promise<void> {
    const snap = await loadGuildSnapshot(this.db, this.guildId, this.opts.ringSize);
    this.epoch = snap.epoch;
    this.head = snap.seq;
    this.states = snap.states;
    // The ring starts with the log's newest events: clients of a node that restarted resume with the deltas they missed.
    this.ring.length = 0;
    this.ring.push(...snap.recent);
    this.loaded = true;
    for (const seq of this.pending.keys()) if (seq <= this.head) this.pending.delete(seq);
    this.drain();
  }

  private async reset(): Promise<void> {
    this.needsReload = true;
    this.loaded = false;
    this.pending.clear();
    await this.reload();
    this.needsReload = false;
    this.observer.reloaded();
    for (const fn of this.listeners) fn({ kind: 'reset' });
  }

  private drain(): void {
    let next: GuildEvent | undefined;
    while ((next = this.pending.get(this.head + 1))) {
      this.pending.delete(next.seq);
      this.apply(next);
    }
    for (const seq of this.pending.keys()) if (seq <= this.head) this.pending.delete(seq);
    if (this.pending.size > 0 && !this.repairTimer) {
      // Commits on different connections can finish out of order; give the missing ones a moment.
      this.repairTimer = setTimeout(() => {
        this.repairTimer = null;
        if (this.pending.size === 0) return;
        this.observer.gap();
        void this.catchUp().catch((err) => this.log.warn('gap repair failed; the position check retries', { guildId: this.guildId, error: String(err) }));
      }, this.opts.gapGraceMs);
      this.repairTimer.unref();
    }
  }

  private apply(ev: GuildEvent): void {
    for (const topic of hotTopics) {
      const ops = ev.deltas[topic];
      if (ops) applyOps(this.states[topic], ops);
    }
    this.head = ev.seq;
    this.observer.applied(Date.now() - ev.at);
    this.ring.push(ev);
    if (this.ring.length > this.opts.ringSize) this.ring.splice(0, this.ring.length - this.opts.ringSize);
    for (const fn of this.listeners) fn({ kind: 'event', event: ev });
  }

  private async readLog(): Promise<void> {
    await this.ready;
    for (;;) {
      const rows = await eventsAfter(this.db.sql, this.guildId, this.head, 1000);
      if (rows.length) this.observer.replayed(rows.length);
      for (const r of rows) this.receive({ guildId: this.guildId, epoch: this.epoch, seq: r.seq, at: r.at, deltas: r.deltas });
      if (rows.length < 1000) break;
    }
    this.drain();
  }
}
