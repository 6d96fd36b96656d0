import type { TopicState } from '../../contract/reducers.ts';
import type { DroppedFrame, LiveFrame, StatusFrame, WatchFrame } from '../../contract/frames.ts';
import { isHotTopic, type GuildEvent, type Op, type OverviewCounter, type Topic } from '../../contract/topics.ts';

/**
 * What one subscription sees: its topics, and of `overview` only these counters (null: all).
 * Subscriptions with equal views share every serialized frame.
 */
export interface LiveView { topics: readonly Topic[]; overview: readonly OverviewCounter[] | null }

export function viewKey(view: LiveView): string {
  const topics = [...new Set(view.topics)].sort().join(',');
  return view.overview && view.topics.includes('overview') ? `${topics};overview=${[...view.overview].sort().join(',')}` : topics;
}

export function trackedId(epoch: string, seq: number): string {
  return `${epoch}.${seq}`;
}

export function parseTrackedId(id: string | null | undefined): { epoch: string; seq: number } | null {
  if (!id) return null;
  const m = /^([A-Za-z0-9]{1,32})\.(\d{1,15})$/.exec(id);
  return m ? { epoch: m[1], seq: Number(m[2]) } : null;
}

/** The event's deltas restricted to the view, or null when it touches none of it. */
export function deltaFor(ev: GuildEvent, view: LiveView, prev: number): LiveFrame | null {
  let picked: Partial<Record<Topic, Op[]>> | null = null;
  for (const t of view.topics) {
    let ops = ev.deltas[t];
    if (ops && t === 'overview' && view.overview) {
      const counters = view.overview as readonly unknown[];
      ops = ops.filter((op) => counters.includes(op.field));
      if (!ops.length) continue;
    }
    if (ops) (picked ??= {})[t] = ops;
  }
  return picked ? { kind: 'delta', seq: ev.seq, prev, at: ev.at, topics: picked } : null;
}

export function snapshotFor(states: Record<string, TopicState>, view: LiveView, seq: number): LiveFrame {
  const picked: Partial<Record<Topic, TopicState>> = {};
  for (const t of view.topics) picked[t] = isHotTopic(t) ? structuredClone(states[t]) : {};
  if (picked.overview && view.overview) {
    const all = picked.overview;
    picked.overview = Object.fromEntries(view.overview.filter((c) => c in all).map((c) => [c, all[c]]));
  }
  return { kind: 'snapshot', seq, prev: null, at: Date.now(), topics: picked };
}

const DEGRADED_REASON = 'the database does not answer: changes cannot be saved, and this board shows the last state it received';
const RECOVERED_REASON = 'the database answers again: the board is current';

export function statusFrame(seq: number, up: boolean): StatusFrame {
  return { kind: 'status', seq, at: Date.now(), degraded: !up, reason: up ? RECOVERED_REASON : DEGRADED_REASON };
}

/**
 * The `result.data` bytes of a tracked frame exactly as superjson would serialize `{id, data}`:
 * frames hold only plain JSON (times are epoch ms), so superjson's output is `{"json": …}` with no
 * meta and the walker can be skipped. Built once per event and spliced into every envelope.
 */
export function serializeTracked(tid: string, frame: WatchFrame): string {
  return `{"json":{"id":${JSON.stringify(tid)},"data":${JSON.stringify(frame)}}}`;
}

/** The tRPC WebSocket envelope of a tracked data frame for subscription `subIdJson`. */
export function envelope(subIdJson: string, tid: string, serialized: string): string {
  return `{"id":${subIdJson},"result":{"type":"data","id":${JSON.stringify(tid)},"data":${serialized}}}`;
}
