import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One function's share of a profile: self time, where it is (source file:line after source maps). */
export interface HotFunction {
  fn: string;
  where: string;
  selfMs: number;
  /** Share of the sampled non-idle time, %. */
  pct: number;
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `file:line` of a call frame in the original source: tsx compiles each file to one line, its source map knows better. */
function whereOf(cf: ProfileNode['callFrame']): string {
  if (!cf.url) return '';
  const path = cf.url.startsWith('file://') ? fileURLToPath(cf.url) : cf.url;
  let file = path;
  let line = cf.lineNumber + 1;
  try {
    const entry = findSourceMap(path)?.findEntry(cf.lineNumber, cf.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
    if (entry?.originalSource) {
      file = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : entry.originalSource;
      line = (entry.originalLine ?? 0) + 1;
    }
  } catch {
    // no source map: generated position
  }
  return `${file.startsWith(root) ? file.slice(root.length) : file}:${line}`;
}

/** Self time per function, highest first; idle and the profiler's own work left out. */
export function hotFunctions(profile: Profile, top: number): { busyMs: number; hot: HotFunction[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { fn: string; where: string; us: number }>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const cf = byId.get(profile.samples[i])!.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    if (cf.functionName === '(idle)') continue;
    if (cf.functionName === 'dispatch' && !cf.url) continue; // the inspector session itself (Profiler.stop)
    busy += us;
    const key = `${cf.functionName}|${cf.url}|${cf.lineNumber}|${cf.columnNumber}`;
    let e = self.get(key);
    if (!e) self.set(key, (e = { fn: cf.functionName || '(anonymous)', where: whereOf(cf), us: 0 }));
    e.us += us;
  }
  const hot = [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ fn: e.fn, where: e.where, selfMs: e.us / 1000, pct: busy ? (e.us * 100) / busy : 0 }));
  return { busyMs: busy / 1000, hot };
}

/**
 * Samples this process's JS from now until `stop()` (the inspector's profiler, 0.5 ms interval),
 * writes the .cpuprofile to `file` and returns the sampled busy time and the hottest functions.
 * Native work outside a JS call (uWS draining publishes to sockets, the kernel's TCP send) is
 * sampled as idle: compare `busyMs` with process.cpuUsage().
 */
export function startProfile(file: string) {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) => new Promise<T>((resolve, reject) => {
    session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T)));
  });
  const started = post('Profiler.enable').then(() => post('Profiler.setSamplingInterval', { interval: 500 })).then(() => post('Profiler.start'));
  return {
    async stop(top = 12): Promise<{ busyMs: number; hot: HotFunction[] }> {
      await started;
      const { profile } = await post<{ profile: Profile }>('Profiler.stop');
      session.disconnect();
      writeFileSync(file, JSON.stringify(profile));
      return hotFunctions(profile, top);
    },
  };
}
