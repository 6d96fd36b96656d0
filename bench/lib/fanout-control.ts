import { performance } from 'node:perf_hooks';
import { serveIpc } from './ipc.ts';
import { settledMemory } from './memory.ts';
import { startProfile, type HotFunction } from './profile.ts';

/**
 * The server side of `bench fanout`, shared by every contender's process: the bench drives it over
 * IPC (memory after GC, start the events, wait for the measured window, CPU used in it).
 */

/** Publishes event number `i` stamped with `t` through the contender's own path; returns its seq. */
export interface EventSource {
  publish(i: number, t: bigint): number;
}

export interface StartArgs {
  /** Events per second. */
  rate: number;
  warmupMs: number;
  /** Measured events; fewer when `maxMeasureMs` runs out first (a saturated contender). */
  events: number;
  maxMeasureMs: number;
}

/** Answer of `start`, given when the first measured event is about to be published. */
export interface WindowStart {
  /** process.hrtime.bigint() at the start of the window (decimal string). */
  t0: string;
  firstSeq: number;
}

/** Answer of `finish`, given right after the last measured event was published; nothing is published after it. */
export interface WindowEnd {
  lastSeq: number;
  events: number;
  /** Events per second actually published in the window (below `rate` when the process could not keep up). */
  achievedRate: number;
  /** Ticks that came late (the loop was busy past the next event's due time). */
  late: number;
}

/** Answer of `cpu`: this process's CPU since the window started. */
export interface WindowCpu {
  cpuUs: number;
  userUs: number;
  systemUs: number;
  /** process.hrtime.bigint() now (decimal string): the end of the CPU window. */
  tEnd: string;
  wallMs: number;
  /** Event-loop utilisation over the window, 0..1. */
  elu: number;
  /** With BENCH_CPU_PROFILE=<file>: the window's sampled JS busy time and hottest functions (the profile is in the file). */
  profile?: { busyMs: number; hot: HotFunction[] };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {}); // observed by whoever asks; never an unhandled rejection
  return { promise, resolve, reject };
}

function runEvents(source: EventSource, args: StartArgs) {
  const interval = 1000 / args.rate;
  const startP = deferred<WindowStart>();
  const finishP = deferred<WindowEnd>();
  const started = startP.resolve;
  const finished = finishP.resolve;
  const failed = (err: unknown) => {
    startP.reject(err);
    finishP.reject(err);
  };

  const begin = performance.now();
  let nextAt = begin;
  let i = 0;
  let measured = 0;
  let late = 0;
  let firstSeq = 0;
  let lastSeq = 0;
  let firstAt = 0;
  let lastAt = 0;
  let window: { t0: bigint; at: number; cpu: NodeJS.CpuUsage; elu: ReturnType<typeof performance.eventLoopUtilization> } | null = null;
  const profileFile = process.env.BENCH_CPU_PROFILE;
  let profiler: ReturnType<typeof startProfile> | null = null;

  const tick = () => {
    try {
      const now = performance.now();
      if (!window && now - begin >= args.warmupMs) {
        if (profileFile) profiler = startProfile(profileFile);
        window = { t0: process.hrtime.bigint(), at: now, cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
      }
      const publishedAt = performance.now();
      const seq = source.publish(i++, process.hrtime.bigint());
      if (window) {
        if (measured++ === 0) {
          firstSeq = seq;
          firstAt = publishedAt;
          started({ t0: window.t0.toString(), firstSeq });
        }
        lastSeq = seq;
        lastAt = publishedAt;
        if (measured >= args.events || performance.now() - window.at >= args.maxMeasureMs) {
          const achievedRate = measured > 1 ? ((measured - 1) * 1000) / (lastAt - firstAt) : 0;
          finished({ lastSeq, events: measured, achievedRate, late });
          return; // nothing is published after the window
        }
      }
      nextAt += interval;
      const after = performance.now();
      if (nextAt < after) {
        late++;
        nextAt = after; // no bursts to catch up: a saturated contender just publishes less
      }
      setTimeout(tick, nextAt - after);
    } catch (err) {
      failed(err);
    }
  };
  setTimeout(tick, 0);

  return {
    started: startP.promise,
    finished: finishP.promise,
    async cpu(): Promise<WindowCpu> {
      if (!window) throw new Error('the window has not started');
      const used = process.cpuUsage(window.cpu);
      const cpu: WindowCpu = {
        cpuUs: used.user + used.system,
        userUs: used.user,
        systemUs: used.system,
        tEnd: process.hrtime.bigint().toString(),
        wallMs: performance.now() - window.at,
        elu: performance.eventLoopUtilization(window.elu).utilization,
      };
      if (profiler) cpu.profile = await profiler.stop();
      return cpu;
    },
  };
}

/**
 * Serves `mem`, `start` (resolves at the window start), `finish` (at its end) and `cpu`; without a
 * source (many guilds: the events come from REST writes) only `mem`.
 */
export function serveFanoutControl(source: EventSource | null): void {
  let run: ReturnType<typeof runEvents> | null = null;
  const current = () => {
    if (!run) throw new Error('no events started');
    return run;
  };
  serveIpc({
    mem: () => settledMemory(),
    start: (args: StartArgs) => {
      if (run) throw new Error('events already started');
      if (!source) throw new Error('this server has no event source (many-guilds mode: events come from REST writes)');
      run = runEvents(source, args);
      return run.started;
    },
    finish: () => current().finished,
    cpu: () => current().cpu(),
  });
}
