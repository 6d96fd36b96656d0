import WebSocket from 'ws';
import { createLiveBoard, type LiveBoardOptions, type LiveStatus } from '../../client-sdk/live.ts';
import type { LiveFrame } from '../../contract/frames.ts';

/** A `ws` WebSocket class that sends a cookie on the upgrade, like a browser with a session. */
export function wsWithCookie(cookie: string, origin?: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, ...(origin ? { origin } : {}) } });
    }
  };
}

/**
 * A WebSocket class over `Base` (plain, or `wsWithCookie(…)`) that keeps every socket it opens, so
 * a test can cut the newest (`cut`) or pause one, and see that the client opened another.
 */
export function recordedSockets(Base: new (url: string, protocols?: string | string[]) => WebSocket = WebSocket) {
  const sockets: WebSocket[] = [];
  class Recorded extends Base {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
    }
  }
  return { WebSocket: Recorded, sockets, cut: () => sockets.at(-1)!.terminate() };
}

/** Resolves once `pred` holds (polled every 10 ms); rejects naming `what` after `ms`. */
export async function until(pred: () => boolean, what: string, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A board through the SDK that also records every topic frame it received (`frames`), every
 * status change (`statuses`), every drop (`drops`) and every error (`errors`).
 */
export function openBoard(url: string, opts: Omit<LiveBoardOptions, 'url'>) {
  const frames: LiveFrame[] = [];
  const statuses: LiveStatus[] = [];
  const drops: { dropped: string[]; topics: string[]; reason: string }[] = [];
  const errors: unknown[] = [];
  const waiters: { pred: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) if (w.pred()) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const board = createLiveBoard({
    url,
    WebSocket: opts.WebSocket ?? WebSocket,
    retryDelayMs: () => 50,
    ...opts,
    onChange: (state, frame) => {
      frames.push(frame);
      opts.onChange?.(state, frame);
      check();
    },
    onStatus: (status, state) => {
      statuses.push(status);
      opts.onStatus?.(status, state);
      check();
    },
    onDropped: (drop, state) => {
      drops.push(drop);
      opts.onDropped?.(drop, state);
      check();
    },
    onError: (err) => {
      errors.push(err);
      opts.onError?.(err);
      check();
    },
  });
  return {
    ...board,
    frames,
    statuses,
    drops,
    errors,
    /** Resolves once `pred` holds (checked after every frame, status, drop and error), or rejects after `ms`. */
    until(pred: () => boolean, ms = 5000): Promise<void> {
      if (pred()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`board condition not met within ${ms} ms; seq ${board.state.seq}`)), ms);
        waiters.push({ pred, resolve: () => { clearTimeout(timer); resolve(); } });
      });
    },
  };
}
