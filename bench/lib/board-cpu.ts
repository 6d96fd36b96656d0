import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { cpuMsOf, systemBusyMs } from './procs.ts';

/** This process and every process below it (the server, PostgreSQL, Chromium and its renderers). */
function ownTree(): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [process.pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * Gives every thread of every process of this bench (Chromium's renderers included: they do not
 * inherit it from their launcher) the niceness `nice`. Linux keeps niceness per thread.
 */
export function reniceTree(nice: number): void {
  for (const pid of ownTree()) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      try {
        setPriority(Number(tid), nice);
      } catch {
        // exited meanwhile
      }
    }
  }
}

/**
 * Starts a CPU window; the function it returns tells how busy the box was meanwhile: `bench` is
 * the CPU of this bench's processes, `other` of everything else (other people's work on a shared
 * box), both in % of one core. Processes that ended inside the window count up to the start.
 */
export function cpuWindow(): () => { benchPct: number; otherPct: number } {
  const startWall = performance.now();
  const startBusy = systemBusyMs();
  const start = new Map(ownTree().map((pid) => [pid, cpuMsOf(pid)]));
  return () => {
    const wall = performance.now() - startWall;
    const busy = systemBusyMs() - startBusy;
    let bench = 0;
    const pids = new Set([...start.keys(), ...ownTree()]);
    for (const pid of pids) bench += Math.max(0, (cpuMsOf(pid) || (start.get(pid) ?? 0)) - (start.get(pid) ?? 0));
    return { benchPct: (bench * 100) / wall, otherPct: (Math.max(0, busy - bench) * 100) / wall };
  };
}
