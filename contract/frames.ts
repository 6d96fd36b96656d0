import type { Op, Topic } from './topics.ts';
import type { TopicState } from './reducers.ts';

/**
 * What a live subscription receives, every frame tracked as `"<epoch>.<seq>"` (`WatchFrame`):
 * - `snapshot`: the full state of the chosen hot topics at `seq` (notice topics: `{}`);
 * - `delta`: the ops of event `seq` for the chosen topics. `prev` is the seq of the previous event
 *   that touched those topics: a client whose last seen seq is below `prev` missed something;
 * - `status`: whether the server reaches its database (`degraded: true` while it does not: writes
 *   fail and the board shows the last state it got); sent on every change, and right after the
 *   resume frames of a subscription that starts while degraded. It changes no topic state;
 * - `dropped`: the subscriber may no longer see `dropped` (topics, or `overview.<counter>`), because
 *   its rank or rights changed (`reason`); `topics` are the ones it still gets. With no topics
 *   left the subscription then ends with a FORBIDDEN error.
 * `status` and `dropped` carry the guild's head `seq`: the subscriber has every event of its topics
 * up to it, so their tracked id is a valid resume point like any other.
 */
export type WatchFrame = LiveFrame | StatusFrame | DroppedFrame;
/** The frames that carry topic data and advance a board's state. */
export type LiveFrame =
  | { kind: 'snapshot'; seq: number; prev: null; at: number; topics: Partial<Record<Topic, TopicState>> }
  | { kind: 'delta'; seq: number; prev: number; at: number; topics: Partial<Record<Topic, Op[]>> };
export interface StatusFrame { kind: 'status'; seq: number; at: number; degraded: boolean; reason: string }
export interface DroppedFrame { kind: 'dropped'; seq: number; at: number; dropped: string[]; topics: Topic[]; reason: string }

