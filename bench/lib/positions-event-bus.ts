import type { Bus } from '../../server/hub/bus.ts';
import type { GuildHub } from '../../server/hub/guild-hub.ts';
import type { GuildEvent } from '../../contract/topics.ts';
import type { UnitPosition } from '../../contract/positions.ts';

/**
 * The per-event reference of `bench positions`, made of the product's own parts and passed to
 * startServer through its `bus` option (no switch in server/): the node's bus, except that every
 * accepted PUT's positions (handed to `publishPositions` by the positions service) also become
 * events in the guild's stream, as if positions were ordinary unit changes: `per: 'put'` one event
 * per PUT (one write, one event, as every REST write is), `per: 'position'` one event per unit
 * position. Each op is `patch {key: callsign, value: {position}}` on the `units` topic. The hub
 * applies them (seq = head + 1, as bench/targets/fanout-server.ts injects) and its serialize-once
 * fan-out (server/hub/fanout.ts) sends every `live.watch` board of the guild one frame per event.
 * Nothing goes to PostgreSQL's event log (a real per-event design would also write it there), so
 * the reference is, if anything, cheaper than a per-event publish in the product would be.
 */
export function perEventBus(inner: Bus, per: 'put' | 'position') {
  let hubOf: ((guildId: string) => Promise<GuildHub>) | null = null;
  let events = 0;

  function toEvents(hub: GuildHub, positions: UnitPosition[]): GuildEvent[] {
    const at = Date.now();
    const op = (p: UnitPosition) => ({ op: 'patch', key: p.callsign, value: { position: p } });
    const groups = per === 'put' ? [positions] : positions.map((p) => [p]);
    return groups.map((group, i) => ({ guildId: hub.guildId, epoch: hub.epoch, seq: hub.head + 1 + i, at, deltas: { units: group.map(op) } }));
  }

  const bus: Bus = {
    publish: (e) => inner.publish(e),
    onEvents: (h) => inner.onEvents(h),
    follow: (g) => inner.follow(g),
    publishPositions(guildId, positions) {
      inner.publishPositions(guildId, positions);
      if (!hubOf) throw new Error('perEventBus: call useHub() after startServer');
      void hubOf(guildId).then((hub) => {
        const list = toEvents(hub, positions);
        inner.publish(list);
        events += list.length;
        if (hub.head !== list[list.length - 1].seq) throw new Error(`reference event ${list[list.length - 1].seq} was not applied (hub head ${hub.head})`);
      });
    },
    onPositions: (h) => inner.onPositions(h),
    invalidate: (inv) => inner.invalidate(inv),
    onInvalidate: (h) => inner.onInvalidate(h),
    get connected() { return inner.connected; },
    get stats() { return inner.stats; },
    onResync: (h) => inner.onResync(h),
    close: () => inner.close(),
  };
  return {
    bus,
    /** The server's hub directory (deps.hub.guild), known only once the server is built. */
    useHub(fn: (guildId: string) => Promise<GuildHub>): void {
      hubOf = fn;
    },
    get events() {
      return events;
    },
  };
}
