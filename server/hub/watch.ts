import { tracked } from '@trpc/server';
import type { GuildHub } from './guild-hub.ts';
import { Mailbox } from './mailbox.ts';
import { deltaFor, parseTrackedId, snapshotFor, trackedId, type LiveFrame } from './frames.ts';
import type { Topic } from './topics.ts';

/**
 * Frames that bring a (re)subscriber to the hub's head, computed synchronously so no event can
 * slip in between: the missed deltas from the ring when `lastEventId` is of this epoch and still
 * in the ring, nothing when it is the head, else one snapshot marked as such.
 */
export function resumeFrames(hub: GuildHub, topics: readonly Topic[], lastEventId: string | null | undefined): LiveFrame[] {
  const last = parseTrackedId(lastEventId);
  if (last && last.epoch === hub.epoch && last.seq <= hub.head && last.seq >= hub.resumableFrom) {
    const frames: LiveFrame[] = [];
    let prev = last.seq;
    for (const ev of hub.ring) {
      if (ev.seq <= last.seq) continue;
      const f = deltaFor(ev, topics, prev);
      if (f) {
        frames.push(f);
        prev = ev.seq;
      }
    }
    return frames;
  }
  return [snapshotFor(hub.states, topics, hub.head)];
}

/** Seq of the newest ring event touching `topics` (0 when none is in the ring): the `prev` of the next delta. */
export function lastRelevantSeq(hub: GuildHub, topics: readonly Topic[]): number {
  for (let i = hub.ring.length - 1; i >= 0; i--) if (topics.some((t) => hub.ring[i].deltas[t])) return hub.ring[i].seq;
  return 0;
}

/** Resume ids ahead of this node (the client saw a newer event on another node): catch up first. */
export async function prepareResume(hub: GuildHub, lastEventId: string | null | undefined): Promise<void> {
  const last = parseTrackedId(lastEventId);
  if (last && last.epoch === hub.epoch && last.seq > hub.head) await hub.catchUp();
}

const MAX_QUEUED = 5_000;

/**
 * The portable path (tRPC's stock adapters, tests): frames yielded one by one, serialized per
 * subscriber, bounded by a mailbox of MAX_QUEUED frames.
 */
export async function* watchFrames(hub: GuildHub, topics: readonly Topic[], lastEventId: string | null | undefined, signal: AbortSignal | undefined) {
  const mailbox = new Mailbox<LiveFrame>({ max: MAX_QUEUED });
  const initial = resumeFrames(hub, topics, lastEventId);
  for (const f of initial) mailbox.push(f);
  let lastRelevant = initial.length ? initial[initial.length - 1].seq : Math.max(parseTrackedId(lastEventId)?.seq ?? 0, lastRelevantSeq(hub, topics));
  const off = hub.listen((s) => {
    const f = s.kind === 'reset' ? snapshotFor(hub.states, topics, hub.head) : deltaFor(s.event, topics, lastRelevant);
    if (!f) return;
    lastRelevant = f.seq;
    mailbox.push(f);
  });
  try {
    for await (const f of mailbox.drain(signal)) yield tracked(trackedId(hub.epoch, f.seq), f);
  } finally {
    off();
  }
}
