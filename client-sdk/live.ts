/**
 * A live board in a few lines: opens the tRPC WebSocket, subscribes to `live.watch`, applies the
 * snapshot and every delta to a local state object with the server's own reducers, checks the
 * sequence of every frame, and reconnects with jittered back-off, resuming from the last event.
 * It also follows the server's notices: `degraded` while the server cannot reach its database
 * (`onStatus`), and topics the server stopped sending because the caller's rights shrank
 * (`onDropped`; the board then watches what is left, or stops with a FORBIDDEN `onError`).
 *
 *   const board = createLiveBoard({ url: 'http://127.0.0.1:3000', apiKey, topics: ['units', 'onDuty'],
 *     onChange: (state) => render(state.topics), onStatus: ({ degraded }) => banner(degraded) });
 */
import { createTRPCClient, createWSClient, wsLink, type TRPCClient, type TRPCWebSocketClient } from '@trpc/client';
import superjson from 'superjson';
// Pure reducers shared with the server: bundled into the package's JavaScript, not imported from server/ at run time.
import { applyOps } from '../contract/reducers.ts';
import type { AlarmState, AppRouter, DroppedFrame, LiveFrame, Op, StatusFrame, Topic, TopicState, WatchFrame } from './router.ts';

export type { DroppedFrame, LiveFrame, Op, StatusFrame, Topic, TopicState, WatchFrame };
export type { PositionsFrame, UnitPosition } from '../contract/positions.ts';

export interface LiveOptions {
  /** Server root (`http://…` or `ws://…`), without /trpc. */
  url: string;
  /** A `stmp_…` key (tools, dashboards). Browsers leave it out: the session cookie is sent by the browser. */
  apiKey?: string;
  /**
   * Guild to watch: required with a session. With a key (which names its guild itself) optional;
   * given, it goes on the socket's URL as well (`?guild=`), so a proxy that routes by guild, as the
   * deployment's nginx does, brings the socket to the node that serves that guild's boards.
   */
  guildId?: string;
  /** WebSocket class; browsers and Node ≥ 22 have one. In Node 20 pass `ws`. */
  WebSocket?: unknown;
  /**
   * Back-off before reconnect attempt `n` (default `jitteredBackoff`: 0.25 s doubling to 2 s, each
   * plus up to 0.25 s of jitter). After the server's restart notice the first attempt waits a
   * random 0..2 s instead, whatever this says.
   */
  retryDelayMs?: (attempt: number) => number;
}

/** Whether the server reaches its database: while `degraded`, writes fail and the board shows the last state it got. */
export interface LiveStatus { degraded: boolean; reason: string }

export interface LiveBoardOptions extends LiveOptions {
  topics: Topic[];
  onChange?: (state: LiveState, frame: LiveFrame) => void;
  /**
   * The server lost (`degraded: true`) or regained its database; also `degraded: true` when a
   * (re)subscribe is refused with 503 for want of it (the board then tries again after the
   * server's Retry-After), and `degraded: false` on a reconnect or a subscribe that is taken again
   * (the server says at once if it still is degraded).
   */
  onStatus?: (status: LiveStatus, state: LiveState) => void;
  /** The server stopped sending `dropped` (its rank or rights changed); the state no longer holds them, `state.watching` is what is left. */
  onDropped?: (drop: { dropped: string[]; topics: Topic[]; reason: string }, state: LiveState) => void;
  onError?: (err: unknown) => void;
  /** The WebSocket opened (true) or closed (false; the client reconnects by itself and resumes). */
  onConnection?: (open: boolean) => void;
}

export interface LiveState {
  topics: Partial<Record<Topic, TopicState>>;
  /** Seq of the last applied frame; the board reflects events 1..seq of its topics. */
  seq: number;
  lastEventId: string | null;
  /** The topics the board receives (the ones asked for, less any the server dropped). */
  watching: Topic[];
  /** True while the server reports that it cannot reach its database. */
  degraded: boolean;
  stats: { snapshots: number; deltas: number; duplicates: number; gaps: number };
}

/** The longest wait between two reconnect attempts, before jitter: a board is back within ~2 s of its server. */
export const RECONNECT_CAP_MS = 2000;
/** The jitter added to every wait, so boards that lost the server together do not come back in step. */
export const RECONNECT_JITTER_MS = 250;
/** After the server's restart notice (1012), the first attempt waits a random time up to this: 5,000 boards arrive spread over it. */
export const RESTART_SPREAD_MS = 2000;

/** Jittered exponential back-off: 0.25 s doubling to the 2 s cap, each plus up to 0.25 s of jitter. */
export function jitteredBackoff(attempt: number): number {
  return Math.min(RECONNECT_CAP_MS, 250 * 2 ** attempt) + Math.random() * RECONNECT_JITTER_MS;
}

/** The first wait after the server said it restarts: uniform over 0..2 s (no two boards in step). */
export function restartSpread(): number {
  return Math.random() * RESTART_SPREAD_MS;
}

/**
 * `retryDelayMs` and a WebSocket class that go together: sockets of the class notice the server's
 * restart (tRPC's `reconnect` message, close code 1012) before the client asks for the first wait,
 * and that wait is then `restartSpread()` instead of the back-off's first step.
 */
function restartAware(Base: unknown, retryDelayMs: (attempt: number) => number) {
  let restarting = false;
  const notice = (ev: { data?: unknown; code?: number }) => {
    if (ev.code === 1012 || (typeof ev.data === 'string' && ev.data.includes('"method":"reconnect"'))) restarting = true;
  };
  const Socket = (Base ?? (globalThis as { WebSocket?: unknown }).WebSocket) as (new (...args: unknown[]) => { addEventListener(type: string, fn: (ev: never) => void): void }) | undefined;
  const WebSocketClass = Socket && class extends Socket {
    constructor(...args: unknown[]) {
      super(...args);
      // Registered before tRPC's own listeners, so the flag is set when it asks for the first wait.
      this.addEventListener('message', notice);
      this.addEventListener('close', notice);
    }
  };
  return {
    WebSocket: WebSocketClass,
    retryDelayMs: (attempt: number) => {
      const spread = restarting && attempt === 0;
      restarting = false;
      return spread ? restartSpread() : retryDelayMs(attempt);
    },
  };
}

/** The tRPC WebSocket's URL; `?guild=` is a routing hint for the proxy only, which the server ignores. */
function wsUrl(url: string, guildId: string | undefined): string {
  const base = `${url.replace(/^http/, 'ws').replace(/\/$/, '')}/trpc`;
  return guildId ? `${base}?guild=${encodeURIComponent(guildId)}` : base;
}

/**
 * A subscribe the server refused for want of its database (503: it answers again within a
 * second or so): when to try again, in ms, else null.
 */
function retryAfterMs(err: unknown, attempt: number): number | null {
  const data = (err as { data?: { httpStatus?: number; retryAfterS?: number } } | null)?.data;
  if (data?.httpStatus !== 503) return null;
  return Math.max((data.retryAfterS ?? 1) * 1000, jitteredBackoff(Math.min(attempt, 4)));
}

/**
 * Keeps one subscription going while the server refuses it for want of its database: `open`
 * subscribes with the handlers given; a 503 refusal calls `degraded(true, message)` and subscribes
 * again after the server's Retry-After; the first subscribe taken after refusals calls
 * `degraded(false, 'subscribed again')` (the server then says at once if it still is degraded).
 * Other errors go to `onError`.
 */
function keepSubscribed(
  open: (handlers: { onStarted(): void; onError(err: unknown): void }) => { unsubscribe(): void },
  degraded: (degraded: boolean, reason: string) => void,
  onError: ((err: unknown) => void) | undefined,
) {
  let sub: { unsubscribe(): void } | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let refusedFor503 = 0;
  function subscribe() {
    sub = open({
      onStarted: () => {
        if (refusedFor503) degraded(false, 'subscribed again');
        refusedFor503 = 0;
      },
      onError: (err) => {
        const wait = retryAfterMs(err, refusedFor503);
        if (wait === null) return onError?.(err);
        refusedFor503++;
        degraded(true, (err as Error).message);
        retry = setTimeout(() => {
          retry = null;
          subscribe();
        }, wait);
      },
    });
  }
  subscribe();
  return {
    /** Subscribes anew (what `open` asks for may have changed). */
    restart() {
      sub?.unsubscribe();
      subscribe();
    },
    close() {
      if (retry) clearTimeout(retry);
      sub?.unsubscribe();
    },
  };
}

export interface LiveClient {
  trpc: TRPCClient<AppRouter>;
  wsClient: TRPCWebSocketClient;
  close(): void;
}

export function createLiveClient(opts: LiveOptions & { onOpen?: () => void }): LiveClient {
  const restart = restartAware(opts.WebSocket, opts.retryDelayMs ?? jitteredBackoff);
  const wsClient = createWSClient({
    url: wsUrl(opts.url, opts.guildId),
    WebSocket: restart.WebSocket as never,
    retryDelayMs: restart.retryDelayMs,
    keepAlive: { enabled: true, intervalMs: 15_000, pongTimeoutMs: 5_000 },
    onOpen: opts.onOpen,
    connectionParams: () => ({
      ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      ...(opts.guildId ? { guildId: opts.guildId } : {}),
    }),
  });
  const trpc = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  return { trpc, wsClient, close: () => wsClient.close() };
}

/** A live board: its state, its tRPC client (further subscriptions share its WebSocket), and close. */
export interface LiveBoard {
  state: LiveState;
  /** The board's tRPC client: further subscriptions (`live.positions`) share its WebSocket and its reconnects. */
  trpc: TRPCClient<AppRouter>;
  close(): void;
}

export function createLiveBoard(opts: LiveBoardOptions): LiveBoard {
  const state: LiveState = {
    topics: {}, seq: 0, lastEventId: null, watching: [...opts.topics], degraded: false,
    stats: { snapshots: 0, deltas: 0, duplicates: 0, gaps: 0 },
  };
  const client = createLiveClient({
    ...opts,
    onOpen: () => {
      if (!state.degraded) return;
      state.degraded = false;
      opts.onStatus?.({ degraded: false, reason: 'reconnected' }, state);
    },
  });
  if (opts.onConnection) reportConnection(client, opts.onConnection);
  function setDegraded(degraded: boolean, reason: string) {
    if (state.degraded === degraded) return;
    state.degraded = degraded;
    opts.onStatus?.({ degraded, reason }, state);
  }

  // While the server's database does not answer, the board is degraded until it subscribes again.
  const sub = keepSubscribed((handlers) => client.trpc.live.watch.subscribe({ topics: state.watching, lastEventId: state.lastEventId }, {
    ...handlers,
    onData: ({ id, data }) => receive(id, data as WatchFrame),
  }), setDegraded, opts.onError);

  /** Where a resume continues: the server sends status and dropped frames at its head, a valid resume point. */
  function advance(id: string, seq: number) {
    state.seq = Math.max(state.seq, seq);
    state.lastEventId = id;
  }

  function receive(id: string, frame: WatchFrame) {
    if (frame.kind === 'status') {
      advance(id, frame.seq);
      state.degraded = frame.degraded;
      opts.onStatus?.({ degraded: frame.degraded, reason: frame.reason }, state);
      return;
    }
    if (frame.kind === 'dropped') {
      advance(id, frame.seq);
      for (const item of frame.dropped) {
        const [topic, counter] = item.split('.') as [Topic, string?];
        if (counter) delete state.topics[topic]?.[counter];
        else delete state.topics[topic];
      }
      state.watching = [...frame.topics];
      opts.onDropped?.({ dropped: frame.dropped, topics: frame.topics, reason: frame.reason }, state);
      if (frame.topics.length) {
        // Subscribe again with what is left, so a reconnect does not ask for the dropped topics again.
        sub.restart();
      }
      return;
    }
    if (frame.kind === 'snapshot') {
      state.topics = frame.topics as Partial<Record<Topic, TopicState>>;
      state.stats.snapshots++;
    } else {
      if (frame.seq <= state.seq) {
        state.stats.duplicates++;
        return;
      }
      if (frame.prev > state.seq) {
        // An event of our topics is missing: subscribe again from what we have.
        state.stats.gaps++;
        sub.restart();
        return;
      }
      for (const [topic, ops] of Object.entries(frame.topics)) applyOps((state.topics[topic as Topic] ??= {}), ops);
      state.stats.deltas++;
    }
    state.seq = frame.seq;
    state.lastEventId = id;
    opts.onChange?.(state, frame);
  }

  return {
    state,
    trpc: client.trpc,
    close() {
      sub.close();
      client.close();
    },
  };
}

/** Tells `onConnection` each time the client's WebSocket opens (true) or closes (false); tRPC's state `pending` is an open socket. */
function reportConnection(client: ReturnType<typeof createLiveClient>, onConnection: (open: boolean) => void): void {
  let open = false;
  client.wsClient.connectionState.subscribe({
    next: (s) => {
      const now = s.state === 'pending';
      if (now !== open) onConnection((open = now));
    },
  });
}

/**
 * Calls `onState` with the caller's `{ onDuty, alarms, unit }` now and on every change (sessions only),
 * and `onStatus` when the server loses or regains its database.
 */
export function watchAlarm(opts: LiveOptions & {
  /** `{ onDuty, alarms, unit, incident }`: incident is the open sheet the own unit was last alarmed for (keyword, address, units, timeline), or null. */
  onState: (s: AlarmState) => void;
  onStatus?: (status: LiveStatus) => void;
  onError?: (err: unknown) => void;
  /** The WebSocket opened (true) or closed (false; the client reconnects by itself): an alarm surface says when it cannot hear alarms. */
  onConnection?: (open: boolean) => void;
}) {
  const client = createLiveClient(opts);
  if (opts.onConnection) reportConnection(client, opts.onConnection);
  let degraded = false;
  const sub = keepSubscribed((handlers) => client.trpc.me.alarm.watch.subscribe(undefined, {
    ...handlers,
    onData: ({ data }) => ('kind' in data ? opts.onStatus?.({ degraded: data.degraded, reason: data.reason }) : opts.onState(data)),
  }), (next, reason) => {
    if (next === degraded) return; // a run of refusals is reported once
    degraded = next;
    opts.onStatus?.({ degraded: next, reason });
  }, opts.onError);
  return {
    close: () => {
      sub.close();
      client.close();
    },
  };
}
