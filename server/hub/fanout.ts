import type uWS from 'uWebSockets.js';
import type { GuildHub, HubSignal } from './guild-hub.ts';
import { deltaFor, envelope, serializeTracked, snapshotFor, statusFrame, trackedId, viewKey, type LiveView } from './frames.ts';
import type { WatchFrame } from '../../contract/frames.ts';
import { lastRelevantSeq, resumeFrames } from './watch.ts';

/** The socket side of one live subscription. */
export interface LiveSocket {
  ws: uWS.WebSocket<unknown>;
  /** The subscription id exactly as the client sent it, JSON-encoded (number or string). */
  subIdJson: string;
  isOpen(): boolean;
}

interface ViewSet { view: LiveView; lastRelevant: number; subscribers: Map<string, number> }
interface GuildFanout { sets: Map<string, ViewSet>; off: () => void }

/**
 * Serialize-once fan-out over uWS topics. Subscribers of one guild and view share each event's
 * serialized frame; they are bucketed by their subscription id (the only per-client bytes of the
 * envelope), so an event costs one serialization plus one splice and one `publish` per distinct id
 * — one in total for boards that subscribe first thing. Ordering: resume frames are sent and the
 * bucket subscribed in one synchronous turn, and uWS delivers a socket's sends and publishes in
 * order, so a subscriber sees no gap and no duplicate. Status frames (database degraded or back)
 * go to every bucket the same way, serialized once per guild.
 */
export function createFanout(app: uWS.TemplatedApp) {
  const guilds = new Map<GuildHub, GuildFanout>();
  let deliveries = 0;
  let slowConsumers = 0;
  let databaseUp = true;

  const bucket = (hub: GuildHub, setKey: string, subIdJson: string) => `${hub.guildId}\u0000${setKey}\u0000${subIdJson}`;

  function publish(hub: GuildHub, setKey: string, set: ViewSet, tid: string, serialized: string) {
    for (const subIdJson of set.subscribers.keys()) {
      app.publish(bucket(hub, setKey, subIdJson), envelope(subIdJson, tid, serialized), false);
      deliveries++;
    }
  }

  function onSignal(hub: GuildHub, g: GuildFanout, s: HubSignal) {
    for (const [setKey, set] of g.sets) {
      const frame = s.kind === 'reset' ? snapshotFor(hub.states, set.view, hub.head) : deltaFor(s.event, set.view, set.lastRelevant);
      if (!frame) continue;
      set.lastRelevant = frame.seq;
      const tid = trackedId(hub.epoch, frame.seq);
      publish(hub, setKey, set, tid, serializeTracked(tid, frame));
    }
  }

  /**
   * Frames to one subscription, in order with what it was sent before. Stops at the backpressure
   * limit (send answers 2): the socket then closes and the client resumes later.
   */
  function sendTo(hub: GuildHub, sock: LiveSocket, frames: readonly WatchFrame[]): void {
    if (!sock.isOpen()) return;
    sock.ws.cork(() => {
      for (const frame of frames) {
        const tid = trackedId(hub.epoch, frame.seq);
        if (sock.ws.send(envelope(sock.subIdJson, tid, serializeTracked(tid, frame)), false) === 2) return void slowConsumers++;
        deliveries++;
      }
    });
  }

  /** Joins the view's live bucket, sending nothing: from now on the subscription gets each event's share. Returns the detach function. */
  function join(hub: GuildHub, sock: LiveSocket, view: LiveView): () => void {
    const setKey = viewKey(view);
    let g = guilds.get(hub);
    if (!g) {
      const created: GuildFanout = { sets: new Map(), off: () => {} };
      created.off = hub.listen((s) => onSignal(hub, created, s));
      guilds.set(hub, (g = created));
    }
    let set = g.sets.get(setKey);
    if (!set) g.sets.set(setKey, (set = { view, lastRelevant: lastRelevantSeq(hub, view), subscribers: new Map() }));

    const name = bucket(hub, setKey, sock.subIdJson);
    if (sock.isOpen()) sock.ws.subscribe(name);
    set.subscribers.set(sock.subIdJson, (set.subscribers.get(sock.subIdJson) ?? 0) + 1);

    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      if (sock.isOpen()) sock.ws.unsubscribe(name);
      const n = set.subscribers.get(sock.subIdJson)! - 1;
      if (n > 0) set.subscribers.set(sock.subIdJson, n);
      else set.subscribers.delete(sock.subIdJson);
      if (set.subscribers.size === 0) g.sets.delete(setKey);
      if (g.sets.size === 0) {
        g.off();
        guilds.delete(hub);
      }
    };
  }

  return {
    /**
     * Sends the resume frames (and the degraded status, if so), then joins the live bucket, in one
     * synchronous turn. Returns the detach function.
     */
    attach(hub: GuildHub, sock: LiveSocket, view: LiveView, lastEventId: string | null | undefined): () => void {
      const frames: WatchFrame[] = resumeFrames(hub, view, lastEventId);
      if (!databaseUp) frames.push(statusFrame(hub.head, false));
      sendTo(hub, sock, frames);
      return join(hub, sock, view);
    },
    sendTo,
    /**
     * Moves a subscription to a narrower view (its rights shrank) without a snapshot: it already
     * has the head of what it keeps. `dropped` is sent in the same turn. Returns the new detach.
     */
    narrow(hub: GuildHub, sock: LiveSocket, detach: () => void, view: LiveView, dropped: WatchFrame): () => void {
      detach();
      const next = join(hub, sock, view);
      sendTo(hub, sock, [dropped]);
      return next;
    },
    /** Whether the database answers; every subscription hears each change, later ones a degraded state on attach. */
    setDatabaseUp(up: boolean): void {
      if (up === databaseUp) return;
      databaseUp = up;
      for (const [hub, g] of guilds) {
        const frame = statusFrame(hub.head, up);
        const tid = trackedId(hub.epoch, frame.seq);
        const serialized = serializeTracked(tid, frame);
        for (const [setKey, set] of g.sets) publish(hub, setKey, set, tid, serialized);
      }
    },
    /** Frames handed to uWS so far (each publish to a bucket counts once per distinct subscription id; each resume frame once). */
    get deliveries() {
      return deliveries;
    },
    /** Sends refused at the backpressure limit (the socket closes; its client resumes later). */
    get slowConsumers() {
      return slowConsumers;
    },
    /** What the fan-out holds: guilds with subscribers, distinct views, subscriptions. All 0 when nobody watches. */
    get stats() {
      let views = 0;
      let subscriptions = 0;
      for (const g of guilds.values()) {
        views += g.sets.size;
        for (const set of g.sets.values()) for (const n of set.subscribers.values()) subscriptions += n;
      }
      return { guilds: guilds.size, views, subscriptions };
    },
  };
}

export type Fanout = ReturnType<typeof createFanout>;
