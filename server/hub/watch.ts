import { tracked } from '@trpc/server';
import type { GuildHub } from './guild-hub.ts';
import { Mailbox } from './mailbox.ts';
import { deltaFor, parseTrackedId, snapshotFor, trackedId, type LiveView } from './frames.ts';
import type { LiveFrame, WatchFrame } from '../../contract/frames.ts';

/**
 * Frames that bring a (re)subscriber to the hub's head, computed synchronously so no event can
 * slip in between: the missed deltas from the ring when `lastEventId` is of this epoch and still
 * in the ring, nothing when it is the head, else one snapshot marked as such.
 */
export function resumeFrames(hub: GuildHub, view: LiveView, lastEventId: string | null | undefined): LiveFrame[] {
  const last = parseTrackedId(lastEventId);
  if (last && last.epoch === hub.epoch && last.seq <= hub.head && last.seq >= hub.resumableFrom) {
    const frames: LiveFrame[] = [];
    let prev = last.seq;
    for (const ev of hub.ring) {
      if (ev.seq <= last.seq) continue;
      const f = deltaFor(ev, view, prev);
      if (f) {
        frames.push(f);
        prev = ev.seq;
      }
    }
    return frames;
  }
  return [snapshotFor(hub.states, view, hub.head)];
}

/** Seq of the newest ring event the view sees (0 when none is in the ring): the `prev` of the next delta. */
export function lastRelevantSeq(hub: GuildHub, view: LiveView): number {
  for (let i = hub.ring.length - 1; i >= 0; i--) if (deltaFor(hub.ring[i], view, 0)) return hub.ring[i].seq;
  return 0;
}

/** Resume ids ahead of this node (the client saw a newer event on another node): catch up first. */
export async function prepareResume(hub: GuildHub, lastEventId: string | null | undefined): Promise<void> {
  const last = parseTrackedId(lastEventId);
  if (last && last.epoch === hub.epoch && last.seq > hub.head) await hub.catchUp();
}

const MAX_QUEUED = 5_000;

/**
 * The portable path (tRPC's stock adapters, tests): frames queued by a hub listener and yielded one
 * by one, serialized per subscriber, bounded by a mailbox of MAX_QUEUED frames. The listener is
 * attached now, in the same turn as the resume frames are computed; `frames()` must be drained.
 */
export function portableWatch(hub: GuildHub, initial: LiveView, lastEventId: string | null | undefined) {
  const mailbox = new Mailbox<WatchFrame>({ max: MAX_QUEUED });
  let view = initial;
  const resume = resumeFrames(hub, view, lastEventId);
  for (const f of resume) mailbox.push(f);
  let lastRelevant = resume.length ? resume[resume.length - 1].seq : Math.max(parseTrackedId(lastEventId)?.seq ?? 0, lastRelevantSeq(hub, view));
  const off = hub.listen((s) => {
    const f = s.kind === 'reset' ? snapshotFor(hub.states, view, hub.head) : deltaFor(s.event, view, lastRelevant);
    if (!f) return;
    lastRelevant = f.seq;
    mailbox.push(f);
  });
  return {
    /** A frame outside the topic stream (`status`, `dropped`), in order with the deltas. */
    push(frame: WatchFrame) {
      mailbox.push(frame);
    },
    /** From now on only this view's share of each event. */
    narrow(next: LiveView) {
      view = next;
    },
    /** Ends the frames with this error (after the ones already queued). */
    fail(err: Error) {
      mailbox.fail(err);
    },
    async *frames(signal: AbortSignal | undefined) {
      try {
        for await (const f of mailbox.drain(signal)) yield tracked(trackedId(hub.epoch, f.seq), f);
      } finally {
        off();
      }
    },
  };
}
