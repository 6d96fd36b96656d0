import type { Log } from '../core/log.ts';
import type { Postmaster } from './pg-process.ts';
import { isAlive, shutDown, stopWhenThisProcessExits } from './pid.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * A running postmaster that another process started (its owner was killed and left it behind).
 * It is not our child, so its exit is noticed by polling (every 250 ms; every 50 ms once asked to
 * stop), until it has exited or is handed on (`disown`).
 */
export function adoptPostmaster(pid: number): Postmaster {
  let stopped = false;
  let disowned = false;
  const forget = stopWhenThisProcessExits(pid);
  const exited = (async () => {
    while (!stopped && isAlive(pid)) await sleep(250);
    while (!disowned && isAlive(pid)) await sleep(50);
    forget();
    return { unexpected: !stopped };
  })();
  return {
    pid,
    exited,
    disown() {
      stopped = disowned = true;
      forget();
    },
    async stop() {
      stopped = true;
      forget();
      await shutDown(pid);
      await exited;
    },
  };
}

export interface SupervisedCluster {
  first: Postmaster;
  port: number;
  log: Log;
  /** Restart the postmaster when it dies; false: only stop it at the end. */
  supervise: boolean;
  /** Starts the cluster's postmaster on `port` (and records it). */
  start(port: number): Promise<Postmaster>;
  freePort(): Promise<number>;
  url(port: number): string;
  /** Called after the final stop, with the port it last ran on. */
  stopped(port: number): void;
}

/** Failures to start after which the port counts as taken by another program. */
const PORT_TAKEN_ATTEMPTS = 3;

/**
 * Owns the cluster's postmaster for the rest of this process: a postmaster that dies (SIGKILL, a
 * crash, a shutdown nobody here asked for) is restarted on the same port, first after 0.1 s, then
 * with back-off (0.2 s, doubling up to 5 s, for as long as it takes), each attempt logged. A port that another program
 * took meanwhile is given up after three attempts for a free one; listeners of `onRestart` hear
 * the new URL. `stop()` ends it for good.
 */
export function superviseCluster(o: SupervisedCluster) {
  let current = o.first;
  let port = o.port;
  let stopping = false;
  let restarting: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const listeners: ((url: string) => void)[] = [];

  const watch = (postmaster: Postmaster) => {
    void postmaster.exited.then(({ unexpected }) => {
      if (!unexpected || stopping || postmaster !== current || !o.supervise) return;
      restarting = restart(postmaster.pid).finally(() => {
        restarting = null;
      });
    });
  };

  async function restart(deadPid: number): Promise<void> {
    o.log.warn('the embedded PostgreSQL died; restarting it', { pid: deadPid, port });
    let delay = 200;
    let portTaken = 0;
    for (let attempt = 1; !stopping; attempt++) {
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, attempt === 1 ? 100 : delay).unref();
      });
      wake = null;
      if (stopping) return;
      try {
        const postmaster = await o.start(port);
        if (stopping) {
          await postmaster.stop();
          return;
        }
        current = postmaster;
        watch(postmaster);
        o.log.info('the embedded PostgreSQL is running again', { pid: postmaster.pid, port, attempt });
        for (const listener of listeners) listener(o.url(port));
        return;
      } catch (err) {
        const message = String((err as Error)?.message ?? err);
        if (/could not bind|already in use/i.test(message) && ++portTaken >= PORT_TAKEN_ATTEMPTS) {
          port = await o.freePort();
          portTaken = 0;
          o.log.warn('the embedded PostgreSQL\'s port is taken by another program; moving it', { port });
        }
        if (attempt > 1) delay = Math.min(delay * 2, 5000);
        o.log.warn('restarting the embedded PostgreSQL failed; trying again', { attempt, retryInMs: delay, error: message });
      }
    }
  }

  watch(current);
  return {
    url: o.url(port),
    onRestart(listener: (url: string) => void) {
      listeners.push(listener);
    },
    /** The server is stopping: a postmaster that exits from now on stays down (`stop()` ends the one that runs). */
    stopRestarting() {
      stopping = true;
      wake?.();
    },
    async stop() {
      stopping = true;
      wake?.();
      await restarting;
      await current.stop();
      o.stopped(port);
    },
    /** Another process owns the cluster now: leave it running, restart it no more. */
    disown() {
      stopping = true;
      wake?.();
      current.disown();
    },
  };
}
