import { batch, signal } from '@preact/signals';
import { createLiveBoard, type LiveFrame, type LiveState, type Op, type Topic } from '../../../client-sdk/live.ts';
import { TopicStore } from './store.ts';
import type { AlarmEntry, CallEntry, DispatcherEntry, OnDutyEntry, StandbyEntry, UnitEntry } from './entries.ts';

/** `connecting` before the first frame, `live` while frames flow, `reconnecting` after a cut, `degraded` while the server lacks its database. */
export type Connection = 'connecting' | 'live' | 'reconnecting' | 'degraded' | 'ended';

/** The hot topics of the open guild, each entry its own signal (see TopicStore). */
export const live = {
  units: new TopicStore<UnitEntry>(),
  alarm: new TopicStore<AlarmEntry>(),
  onDuty: new TopicStore<OnDutyEntry>(),
  dispatchers: new TopicStore<DispatcherEntry>(),
  standby: new TopicStore<StandbyEntry>(),
  calls: new TopicStore<CallEntry>(),
  overview: new TopicStore<number>(),
};
type HotName = keyof typeof live;

export const connection = signal<Connection>('connecting');
/** True once the first snapshot of this guild is in: the stores then show the server's state. */
export const synced = signal(false);
/** The topics the server sends this board (what it may watch, less any it stopped sending). */
export const watching = signal<readonly Topic[]>([]);
/** Counts snapshots and deltas applied: tests and the benchmark read them (`window.dtBoard`). */
export const counters = { snapshots: 0, deltas: 0 };

type NoticeListener = (ops: readonly Op[]) => void;
const noticeListeners = new Map<Topic, Set<NoticeListener>>();
const snapshotListeners = new Set<() => void>();

/**
 * Calls `fn` with the ops of each delta on `topic`: notice topics (`einsatzEntries`, `access`,
 * `settings`, …: no state on the server) and the notices among a hot topic's ops (`statuses` on
 * `units`: the catalogue changed). Returns the unsubscribe.
 */
export function onNotice(topic: Topic, fn: NoticeListener): () => void {
  const set = noticeListeners.get(topic) ?? new Set();
  noticeListeners.set(topic, set);
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * Calls `fn` after every snapshot: the board missed whatever notices came before it (a first
 * start, or a resume whose deltas were gone), so views built from notices load afresh.
 */
export function onSnapshot(fn: () => void): () => void {
  snapshotListeners.add(fn);
  return () => snapshotListeners.delete(fn);
}

let board: ReturnType<typeof createLiveBoard> | null = null;
/** The open board's tRPC client (null while none): other subscriptions share its WebSocket. */
export const liveTrpc = signal<ReturnType<typeof createLiveBoard>['trpc'] | null>(null);

/** Watches `topics` of the open guild over one `live.watch` subscription until `stopLive`. */
export function startLive(guildId: string, topics: Topic[]): void {
  stopLive();
  connection.value = 'connecting';
  synced.value = false;
  watching.value = topics;
  if (!topics.length) return;
  const current = createLiveBoard({
    url: location.origin,
    guildId,
    topics,
    onChange: (state, frame) => receive(state, frame),
    onConnection: (open) => {
      if (board !== current) return;
      // Open again: the resume brings what was missed (or nothing, when nothing happened).
      if (open && connection.peek() === 'reconnecting') connection.value = 'live';
      if (!open && connection.peek() !== 'ended') connection.value = 'reconnecting';
    },
    onStatus: ({ degraded }) => {
      if (board === current) connection.value = degraded ? 'degraded' : 'live';
    },
    onDropped: (_drop, state) => {
      watching.value = [...state.watching];
      for (const name of Object.keys(live) as HotName[]) if (!state.watching.includes(name)) live[name].replace(undefined);
    },
    onError: () => {
      if (board === current) connection.value = 'ended';
    },
  });
  board = current;
  liveTrpc.value = current.trpc;
}

export function stopLive(): void {
  board?.close();
  board = null;
  liveTrpc.value = null;
}

function receive(state: LiveState, frame: LiveFrame): void {
  batch(() => {
    if (frame.kind === 'snapshot') {
      counters.snapshots++;
      synced.value = true;
      for (const name of Object.keys(live) as HotName[]) live[name].replace(state.topics[name]);
    } else {
      counters.deltas++;
      for (const [topic, ops] of Object.entries(frame.topics) as [Topic, Op[]][]) {
        if (topic in live) live[topic as HotName].apply(state.topics[topic], ops);
        for (const fn of noticeListeners.get(topic) ?? []) fn(ops);
      }
    }
    if (connection.peek() !== 'degraded') connection.value = 'live';
  });
  if (frame.kind === 'snapshot') for (const fn of snapshotListeners) fn();
}
