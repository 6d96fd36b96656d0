/**
 * Watches the alarm state of a signed-in alarm session for as long as it lives: every callsign
 * that enters an alarm status is reported once (`onAlarm`); one that leaves and comes back again is
 * reported again. Reconnects forever with jittered back-off (server restart, lost network), and
 * subscribes again after a refused or failed subscription; ends (`done` rejects with an
 * AlarmSessionError) only when the server says the session is over (401) or the watch is no longer
 * allowed (403). While it runs the session stays in use: the server touches it for the open socket,
 * and the client asks `GET /auth/session` every few minutes.
 *
 *   const w = watchAlarms({ session, onAlarm: (callsigns) => ring(callsigns), onNotice: console.log });
 *   await w.done;
 */
import WebSocket from 'ws';
import { httpStatusOf } from './index.ts';
import { jitteredBackoff, watchAlarm } from './live.ts';
import type { AlarmState } from './router.ts';
import { AlarmSessionError, checkSession, sessionEnded, type AlarmSession } from './alarm-session.ts';
import { both, type Text } from './alarm-words.ts';

/** What a notice is about: the terminal's status line follows these. */
export type AlarmNoticeKind = 'connected' | 'lost' | 'duty' | 'degraded' | 'recovered' | 'watch-failed';

export interface AlarmWatchOptions {
  session: AlarmSession;
  /** Callsigns that entered an alarm status; at the start, every callsign in alarm then. `state` is the state they came with. */
  onAlarm(callsigns: string[], state: AlarmState): void;
  /** Every state the server sends (after `onAlarm` for one that rings): the own unit's incident changes arrive here. */
  onState?(state: AlarmState): void;
  /**
   * What the user should know about the connection, in words (English, and in German and English):
   * connected, lost, database degraded, duty; `kind` says which.
   */
  onNotice(text: string, both?: Text, kind?: AlarmNoticeKind): void;
  /** A `ws`-compatible WebSocket class (default: `ws`); it is given the session cookie and no Origin. */
  WebSocket?: typeof WebSocket;
  /** Back-off before reconnect or re-subscribe attempt `n` (default `jitteredBackoff`: 0.25 s doubling to 2 s, plus up to 0.25 s). */
  retryDelayMs?: (attempt: number) => number;
  /** How often the session is checked over HTTP (default 5 minutes). */
  heartbeatMs?: number;
}

/** The callsigns in `alarms` that were not in alarm before. */
export function enteredAlarms(before: ReadonlySet<string>, alarms: readonly string[]): string[] {
  return alarms.filter((c) => !before.has(c));
}

export function watchAlarms(opts: AlarmWatchOptions) {
  const { session } = opts;
  const retry = opts.retryDelayMs ?? jitteredBackoff;
  let known = new Set<string>();
  let onDuty: boolean | null = null;
  let degraded = false;
  let watcher: { close(): void } | null = null;
  let resubscribe: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let closed = false;
  let settle!: { resolve(): void; reject(err: Error): void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const notice = (kind: AlarmNoticeKind, text: Text) => opts.onNotice(text.en, text, kind);

  // Connection changes, seen on the sockets themselves: one line when the first opens and one when
  // the last open one closes, not one per failed attempt. Sockets of a watcher closed on purpose
  // (to subscribe again) are not reported as lost.
  let open = 0;
  let generation = 0;
  let everConnected = false;
  const Base = opts.WebSocket ?? WebSocket;
  class SessionSocket extends Base {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie: session.cookie } });
      const mine = generation;
      let opened = false;
      this.on('open', () => {
        opened = true;
        if (open++ === 0 && !closed) notice('connected', both((w) => (everConnected ? w.connectedAgain : w.connected(session.url))));
        everConnected = true;
      });
      this.on('close', (code, reason) => {
        if (!opened) return;
        if (--open === 0 && mine === generation && !closed) notice('lost', both((w) => w.lost(code, reason.toString())));
      });
    }
  }

  function end(err?: Error) {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (resubscribe) clearTimeout(resubscribe);
    watcher?.close();
    if (err) settle.reject(err);
    else settle.resolve();
  }

  function subscribe() {
    watcher = watchAlarm({
      url: session.url, guildId: session.guildId, WebSocket: SessionSocket, retryDelayMs: retry,
      onState: (s) => {
        failures = 0;
        if (s.onDuty !== onDuty) notice('duty', both((w) => (s.onDuty ? w.onDuty : w.offDuty)));
        onDuty = s.onDuty;
        const entered = enteredAlarms(known, s.alarms);
        known = new Set(s.alarms);
        if (entered.length) opts.onAlarm(entered, s);
        opts.onState?.(s);
      },
      onStatus: (status) => {
        if (status.degraded === degraded) return;
        degraded = status.degraded;
        notice(degraded ? 'degraded' : 'recovered', both((w) => (degraded ? w.degraded : w.recovered)));
      },
      onError: (err) => {
        const status = httpStatusOf(err);
        if (status === 401) return end(new AlarmSessionError(sessionEnded(session)));
        if (status === 403) return end(new AlarmSessionError(both((w) => w.watchForbidden((err as Error).message))));
        generation++;
        watcher?.close();
        const wait = retry(failures++);
        notice('watch-failed', both((w) => w.watchFailed((err as Error).message, (wait / 1000).toFixed(1))));
        resubscribe = setTimeout(() => {
          resubscribe = null;
          if (!closed) subscribe();
        }, wait);
      },
    });
  }

  // The socket keeps the session in use; this check also ends the client when the session is
  // gone while no socket is open. An unreachable server is the socket's business.
  const heartbeat = setInterval(() => {
    checkSession(session).then((c) => {
      if (!c.ok) end(new AlarmSessionError(c.problem));
    }, () => {});
  }, opts.heartbeatMs ?? 5 * 60_000);
  subscribe();

  return {
    /** Resolves after `close()`; rejects with an AlarmSessionError when the session or the right to watch ended. */
    done,
    close: () => end(),
  };
}
