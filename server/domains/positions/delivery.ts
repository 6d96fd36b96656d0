import type { LiveSocket } from '../../hub/fanout.ts';
import type { Bus } from '../../hub/bus.ts';
import type { PositionsFrame } from '../../../contract/positions.ts';
import type { GuildPositions } from './memory.ts';

/** A socket's unsent bytes above which it gets no frame this interval: it catches up in one frame once it has drained. */
const MAX_BUFFERED = 256 * 1024;

/** A subscription on a uWS socket: frames are sent to it directly. */
interface SocketSub { sock: LiveSocket; seen: number }
/** A subscription elsewhere (HTTP, a test's link): woken each interval, it reads what changed itself when it is ready. */
interface PullSub { wake(): void }

/** The subscriptions of one guild and interval; one timer, one serialization per interval for all that are current. */
interface Group {
  key: string; positions: GuildPositions; intervalMs: number; staleAfterMs: number;
  sent: number; sockets: Set<SocketSub>; pullers: Set<PullSub>; timer: NodeJS.Timeout;
}

export function positionsFrame(g: GuildPositions, since: number | null, staleAfterMs: number): PositionsFrame {
  const changes = since === null ? { positions: g.all(), removed: [] } : g.since(since);
  return { kind: 'positions', full: since === null, at: Date.now(), ...changes, staleAfterMs };
}

/** The `result.data` bytes of an untracked subscription frame exactly as superjson writes plain JSON. */
const serialize = (frame: PositionsFrame) => `{"json":${JSON.stringify(frame)}}`;
const envelope = (subIdJson: string, data: string) => `{"id":${subIdJson},"result":{"type":"data","data":${data}}}`;

/**
 * Coalesced delivery of unit positions: each subscription gets at most one frame per interval,
 * holding the latest position of every unit that moved since its own previous frame, and nothing
 * when nothing moved. Subscriptions that are current share one serialized frame. A socket with
 * more than MAX_BUFFERED unsent bytes is skipped; its next frame covers everything it missed, so a
 * slow board never builds a backlog and never misses a unit's latest place.
 */
export function createPositionDelivery(bus: Bus) {
  const groups = new Map<string, Group>();
  // The guild's map settings changed: later frames carry its stale time.
  const offEvents = bus.onEvents((events) => {
    for (const ev of events) {
      for (const op of ev.deltas.settings ?? []) {
        const seconds = op.key === 'map' ? (op.value as { staleAfterSeconds?: unknown } | undefined)?.staleAfterSeconds : undefined;
        if (typeof seconds === 'number') setStaleAfter(ev.guildId, seconds * 1000);
      }
    }
  });

  function setStaleAfter(guildId: string, staleAfterMs: number): void {
    for (const group of groups.values()) if (group.key.startsWith(`${guildId}\u0000`)) group.staleAfterMs = staleAfterMs;
  }
  let frames = 0;
  let skipped = 0;

  function tick(group: Group) {
    const now = group.positions.version;
    let shared: string | null = null;
    for (const sub of group.sockets) {
      if (sub.seen === now || !sub.sock.isOpen()) continue;
      if (sub.sock.ws.getBufferedAmount() > MAX_BUFFERED) {
        skipped++;
        continue;
      }
      const data = sub.seen === group.sent
        ? (shared ??= serialize(positionsFrame(group.positions, group.sent, group.staleAfterMs)))
        : serialize(positionsFrame(group.positions, sub.seen, group.staleAfterMs));
      sub.sock.ws.send(envelope(sub.sock.subIdJson, data), false);
      sub.seen = now;
      frames++;
    }
    group.sent = now;
    for (const p of group.pullers) p.wake();
  }

  function groupOf(guildId: string, positions: GuildPositions, intervalMs: number, staleAfterMs: number): Group {
    const key = `${guildId}\u0000${intervalMs}`;
    let group = groups.get(key);
    if (!group) {
      const created: Group = {
        key, positions, intervalMs, staleAfterMs, sent: positions.version, sockets: new Set(), pullers: new Set(),
        timer: setInterval(() => tick(created), intervalMs),
      };
      created.timer.unref();
      groups.set(key, (group = created));
    }
    group.staleAfterMs = staleAfterMs;
    positions.watchers++;
    return group;
  }

  function leave(group: Group) {
    group.positions.watchers--;
    if (group.sockets.size || group.pullers.size) return;
    clearInterval(group.timer);
    if (groups.get(group.key) === group) groups.delete(group.key);
  }

  return {
    /** Sends the full frame to the socket now, then a frame per interval while something moves. Returns the detach function. */
    attach(guildId: string, positions: GuildPositions, sock: LiveSocket, intervalMs: number, staleAfterMs: number): () => void {
      const group = groupOf(guildId, positions, intervalMs, staleAfterMs);
      const sub: SocketSub = { sock, seen: positions.version };
      if (sock.isOpen()) sock.ws.send(envelope(sock.subIdJson, serialize(positionsFrame(positions, null, staleAfterMs))), false);
      frames++;
      group.sockets.add(sub);
      let detached = false;
      return () => {
        if (detached) return;
        detached = true;
        group.sockets.delete(sub);
        leave(group);
      };
    },
    /** Frames for a subscription that pulls them (not on the uWS socket): the full one first, then changes as they come. */
    async *pull(guildId: string, positions: GuildPositions, intervalMs: number, staleAfterMs: number, signal: AbortSignal | undefined): AsyncGenerator<PositionsFrame> {
      const group = groupOf(guildId, positions, intervalMs, staleAfterMs);
      // An interval that passed while the subscriber was busy is remembered: it reads at once when it comes back.
      let ticked = false;
      let wake: () => void = () => {};
      const sub: PullSub = { wake: () => { ticked = true; wake(); } };
      const onAbort = () => wake();
      signal?.addEventListener('abort', onAbort);
      group.pullers.add(sub);
      try {
        let seen = positions.version;
        yield positionsFrame(positions, null, group.staleAfterMs);
        while (!signal?.aborted) {
          if (!ticked) await new Promise<void>((resolve) => (wake = resolve));
          ticked = false;
          if (signal?.aborted || seen === positions.version) continue;
          const frame = positionsFrame(positions, seen, group.staleAfterMs);
          seen = positions.version;
          yield frame;
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
        group.pullers.delete(sub);
        leave(group);
      }
    },
    get stats() {
      let subscriptions = 0;
      for (const g of groups.values()) subscriptions += g.sockets.size + g.pullers.size;
      return { groups: groups.size, subscriptions, frames, skipped };
    },
    close(): void {
      offEvents();
      for (const group of groups.values()) clearInterval(group.timer);
      groups.clear();
    },
  };
}

export type PositionDelivery = ReturnType<typeof createPositionDelivery>;
