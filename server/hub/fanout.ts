import type uWS from 'uWebSockets.js';
import type { GuildHub, HubSignal } from './guild-hub.ts';
import { deltaFor, envelope, serializeTracked, snapshotFor, trackedId, type LiveFrame } from './frames.ts';
import type { Topic } from './topics.ts';
import { lastRelevantSeq, resumeFrames } from './watch.ts';

/** The socket side of one live subscription. */
export interface LiveSocket {
  ws: uWS.WebSocket<unknown>;
  /** The subscription id exactly as the client sent it, JSON-encoded (number or string). */
  subIdJson: string;
  isOpen(): boolean;
}

interface TopicSet { topics: Topic[]; lastRelevant: number; subscribers: Map<string, number> }
interface GuildFanout { sets: Map<string, TopicSet>; off: () => void }

/**
 * Serialize-once fan-out over uWS topics. Subscribers of one guild and topic set share each
 * event's serialized frame; they are bucketed by their subscription id (the only per-client bytes
 * of the envelope), so an event costs one serialization plus one splice and one `publish` per
 * distinct id — one in total for boards that subscribe first thing. Ordering: resume frames are
 * sent and the bucket subscribed in one synchronous turn, and uWS delivers a socket's sends and
 * publishes in order, so a subscriber sees no gap and no duplicate.
 */
export function createFanout(app: uWS.TemplatedApp) {
  const guilds = new Map<GuildHub, GuildFanout>();
  let deliveries = 0;

  const bucket = (hub: GuildHub, setKey: string, subIdJson: string) => `${hub.guildId}\u0000${setKey}\u0000${subIdJson}`;

  function publish(hub: GuildHub, setKey: string, set: TopicSet, frame: LiveFrame) {
    const tid = trackedId(hub.epoch, frame.seq);
    const serialized = serializeTracked(tid, frame);
    for (const subIdJson of set.subscribers.keys()) {
      app.publish(bucket(hub, setKey, subIdJson), envelope(subIdJson, tid, serialized), false);
      deliveries++;
    }
  }

  function onSignal(hub: GuildHub, g: GuildFanout, s: HubSignal) {
    for (const [setKey, set] of g.sets) {
      const frame = s.kind === 'reset' ? snapshotFor(hub.states, set.topics, hub.head) : deltaFor(s.event, set.topics, set.lastRelevant);
      if (!frame) continue;
      set.lastRelevant = frame.seq;
      publish(hub, setKey, set, frame);
    }
  }

  return {
    /** Sends the resume frames, then joins the live bucket. Returns the detach function. */
    attach(hub: GuildHub, sock: LiveSocket, topics: Topic[], lastEventId: string | null | undefined): () => void {
      const setKey = [...new Set(topics)].sort().join(',');
      let g = guilds.get(hub);
      if (!g) {
        const created: GuildFanout = { sets: new Map(), off: () => {} };
        created.off = hub.listen((s) => onSignal(hub, created, s));
        guilds.set(hub, (g = created));
      }
      let set = g.sets.get(setKey);
      if (!set) g.sets.set(setKey, (set = { topics: setKey.split(',') as Topic[], lastRelevant: lastRelevantSeq(hub, topics), subscribers: new Map() }));

      for (const frame of resumeFrames(hub, set.topics, lastEventId)) {
        const tid = trackedId(hub.epoch, frame.seq);
        // 2 = dropped at the backpressure limit: the socket closes and the client resumes later
        if (sock.ws.send(envelope(sock.subIdJson, tid, serializeTracked(tid, frame)), false) === 2) break;
      }
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
    },
    /** Frames handed to uWS so far (each publish to a bucket counts once per distinct subscription id). */
    get deliveries() {
      return deliveries;
    },
  };
}

export type Fanout = ReturnType<typeof createFanout>;
