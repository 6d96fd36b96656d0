import type { TopicState } from './reducers.ts';
import { isHotTopic, type GuildEvent, type Op, type Topic } from './topics.ts';

/**
 * What a live subscription receives, every frame tracked as `"<epoch>.<seq>"`:
 * - `snapshot`: the full state of the chosen hot topics at `seq` (notice topics: `{}`);
 * - `delta`: the ops of event `seq` for the chosen topics. `prev` is the seq of the previous event
 *   that touched those topics: a client whose last seen seq is below `prev` missed something.
 */
export type LiveFrame =
  | { kind: 'snapshot'; seq: number; prev: null; at: number; topics: Partial<Record<Topic, TopicState>> }
  | { kind: 'delta'; seq: number; prev: number; at: number; topics: Partial<Record<Topic, Op[]>> };

export function trackedId(epoch: string, seq: number): string {
  return `${epoch}.${seq}`;
}

export function parseTrackedId(id: string | null | undefined): { epoch: string; seq: number } | null {
  if (!id) return null;
  const m = /^([A-Za-z0-9]{1,32})\.(\d{1,15})$/.exec(id);
  return m ? { epoch: m[1], seq: Number(m[2]) } : null;
}

/** The event's deltas restricted to `topics`, or null when it touches none of them. */
export function deltaFor(ev: GuildEvent, topics: readonly Topic[], prev: number): LiveFrame | null {
  let picked: Partial<Record<Topic, Op[]>> | null = null;
  for (const t of topics) {
    const ops = ev.deltas[t];
    if (ops) (picked ??= {})[t] = ops;
  }
  return picked ? { kind: 'delta', seq: ev.seq, prev, at: ev.at, topics: picked } : null;
}

export function snapshotFor(states: Record<string, TopicState>, topics: readonly Topic[], seq: number): LiveFrame {
  const picked: Partial<Record<Topic, TopicState>> = {};
  for (const t of topics) picked[t] = isHotTopic(t) ? structuredClone(states[t]) : {};
  return { kind: 'snapshot', seq, prev: null, at: Date.now(), topics: picked };
}

/**
 * The `result.data` bytes of a tracked frame exactly as superjson would serialize `{id, data}`:
 * frames hold only plain JSON (times are epoch ms), so superjson's output is `{"json": …}` with no
 * meta and the walker can be skipped. Built once per event and spliced into every envelope.
 */
export function serializeTracked(tid: string, frame: LiveFrame): string {
  return `{"json":{"id":${JSON.stringify(tid)},"data":${JSON.stringify(frame)}}}`;
}

/** The tRPC WebSocket envelope of a tracked data frame for subscription `subIdJson`. */
export function envelope(subIdJson: string, tid: string, serialized: string): string {
  return `{"id":${subIdJson},"result":{"type":"data","id":${JSON.stringify(tid)},"data":${serialized}}}`;
}
