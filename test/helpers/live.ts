import WebSocket from 'ws';
import { createLiveBoard, type LiveBoardOptions } from '../../client-sdk/live.ts';
import type { LiveFrame } from '../../server/hub/frames.ts';

/** A `ws` WebSocket class that sends a cookie on the upgrade, like a browser with a session. */
export function wsWithCookie(cookie: string, origin?: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, ...(origin ? { origin } : {}) } });
    }
  };
}

/** A board through the SDK that also records every frame it received. */
export function openBoard(url: string, opts: Omit<LiveBoardOptions, 'url'>) {
  const frames: LiveFrame[] = [];
  const waiters: { pred: () => boolean; resolve: () => void }[] = [];
  const board = createLiveBoard({
    url,
    WebSocket: opts.WebSocket ?? WebSocket,
    retryDelayMs: () => 50,
    ...opts,
    onChange: (state, frame) => {
      frames.push(frame);
      opts.onChange?.(state, frame);
      for (const w of [...waiters]) if (w.pred()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
  });
  return {
    ...board,
    frames,
    /** Resolves once `pred` holds (checked after every frame), or rejects after `ms`. */
    until(pred: () => boolean, ms = 5000): Promise<void> {
      if (pred()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`board condition not met within ${ms} ms; seq ${board.state.seq}`)), ms);
        waiters.push({ pred, resolve: () => { clearTimeout(timer); resolve(); } });
      });
    },
  };
}
