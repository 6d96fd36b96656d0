import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { createInterface } from 'node:readline';

let tasksetChecked: boolean | null = null;
/** Whether `taskset` (util-linux) can pin; checked once, warned about once. */
export function canPin(): boolean {
  if (tasksetChecked === null) {
    tasksetChecked = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
    if (!tasksetChecked) process.stderr.write('warning: taskset not usable; processes run unpinned and numbers are noisier\n');
  }
  return tasksetChecked;
}

/** Whether children may run `n` steps nicer than this process (a negative `n` needs root or CAP_SYS_NICE). */
export function canNice(n: number): boolean {
  const want = Math.max(-20, Math.min(19, getPriority() + n));
  const out = spawnSync('nice', ['-n', String(n), 'nice'], { encoding: 'utf8' });
  return out.status === 0 && Number(out.stdout.trim()) === want;
}

export interface BenchChild {
  proc: ChildProcess;
  pid: number;
  /** Lines the child wrote to stderr (kept, not shown: children must stay quiet). */
  stderr: string[];
  /** Resolves with the child's first stdout line that parses as a JSON object. */
  firstMessage: Promise<Record<string, unknown>>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs a TypeScript file of bench/ in a separate Node process (through tsx), pinned to `cpu`.
 * `taskset` execs node, so the pid returned is the Node process itself.
 * `ipc`: open a Node IPC channel (see ipc.ts); `nofile`: raise the child's open-file limit first
 * (`ulimit -n`, through a shell that execs, so the pid is still Node's); `nice`: scheduling
 * priority (negative needs root; see canNice).
 */
export function spawnNode(file: string, opts: { cpu: number; args?: string[]; nodeArgs?: string[]; env?: Record<string, string>; ipc?: boolean; nofile?: number; nice?: number }): BenchChild {
  const node = [...(opts.nodeArgs ?? []), '--import', 'tsx', file, ...(opts.args ?? [])];
  let argv = canPin() ? ['taskset', '-c', String(opts.cpu), process.execPath, ...node] : [process.execPath, ...node];
  if (opts.nice) argv = ['nice', '-n', String(opts.nice), ...argv];
  if (opts.nofile) argv = ['/bin/sh', '-c', `ulimit -n ${Math.floor(opts.nofile)} && exec "$@"`, 'sh', ...argv];
  const stdio: ('ignore' | 'pipe' | 'ipc')[] = opts.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'];
  const proc = spawn(argv[0], argv.slice(1), { stdio, env: { ...process.env, ...opts.env } });
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const firstMessage = new Promise<Record<string, unknown>>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    let got = false;
    lines.on('line', (line) => {
      if (got) return;
      try {
        const msg = JSON.parse(line);
        if (msg && typeof msg === 'object') {
          got = true;
          resolve(msg);
        }
      } catch {
        // not ours: ignore
      }
    });
    proc.once('exit', (code, signal) => {
      if (!got) reject(new Error(`${file} exited (${signal ?? code}) before reporting:\n${stderr.slice(-20).join('\n')}`));
    });
    proc.once('error', reject);
  });
  firstMessage.catch(() => {}); // observed by the caller; never an unhandled rejection
  return {
    proc,
    pid: proc.pid!,
    stderr,
    firstMessage,
    async stop(graceMs = 5000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

const ticksPerSecond = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(out.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** CPU time (user + system, ms) a process has used so far; 0 when it is gone or unreadable. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/**
 * Waits until the processes have finished starting: less than `busyMs` of CPU between them over a
 * `windowMs` window (module loading, tsx's compile service and V8's background work run for seconds
 * after a target reports its port, on the CPU its load will need). False when they never settled
 * within `maxMs`.
 */
export async function settled(pids: number[], { windowMs = 500, busyMs = 10, maxMs = 30_000 } = {}): Promise<boolean> {
  const total = () => pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  for (const deadline = Date.now() + maxMs; Date.now() < deadline;) {
    const before = total();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    if (total() - before < busyMs) return true;
  }
  return false;
}

/** The postmaster and all its children (backends, walwriter, checkpointer, ...). */
export function postgresPids(postmasterPid: number): number[] {
  const pids = [postmasterPid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmasterPid) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** CPU time (ms) all CPUs spent busy so far, system-wide (/proc/stat), for spotting outside load. */
export function systemBusyMs(): number {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = ticks;
    return ((user + nice + system + irq + softirq + steal) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/** CPU time (ms) over a measured window; `other`: every other process on the box (outside load). */
export interface CpuUsed { loadgen: number; server: number | null; postgres: number | null; other: number }

/**
 * CPU of this process (the load generator), a server and PostgreSQL (the postmaster and its children,
 * listed at `start()`: call it after warm-up, once pools are connected) between `start()` and `end()`.
 * `server` / `postgres` are null when their pid is not given.
 */
export function cpuMeter(pids: { serverPid?: number; postmasterPid?: number }) {
  let pg: number[] = [];
  let self = process.cpuUsage();
  let server = 0, postgres = 0, system = 0;
  const pgNow = () => pg.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  return {
    start() {
      if (pids.postmasterPid) pg = postgresPids(pids.postmasterPid);
      self = process.cpuUsage();
      server = pids.serverPid ? cpuMsOf(pids.serverPid) : 0;
      postgres = pgNow();
      system = systemBusyMs();
    },
    end(): CpuUsed {
      const used = process.cpuUsage(self);
      const cpu = {
        loadgen: (used.user + used.system) / 1000,
        server: pids.serverPid ? cpuMsOf(pids.serverPid) - server : null,
        postgres: pids.postmasterPid ? pgNow() - postgres : null,
      };
      const other = systemBusyMs() - system - cpu.loadgen - (cpu.server ?? 0) - (cpu.postgres ?? 0);
      return { ...cpu, other: Math.max(0, other) };
    },
  };
}

/** This process's open-file limits (`ulimit -Sn` / `-Hn`; children inherit them); Infinity when unlimited. */
export function openFileLimits(): { soft: number; hard: number } {
  const out = spawnSync('/bin/sh', ['-c', 'ulimit -Sn; ulimit -Hn'], { encoding: 'utf8' });
  const parse = (v: string | undefined) => (v === 'unlimited' ? Infinity : Number(v) > 0 ? Number(v) : 1024);
  const [soft, hard] = (out.stdout ?? '').trim().split(/\s+/);
  return { soft: parse(soft), hard: parse(hard) };
}

/**
 * The child processes and database of one bench run. Cleanup happens once, whoever asks first: a
 * SIGINT/SIGTERM (then exit 130) or `close()` in the run's `finally`; both wait for the same work.
 */
export function benchRun() {
  const children: BenchChild[] = [];
  let database: { close(): Promise<void> } | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => (cleaning ??= (async () => {
    await Promise.all(children.splice(0).map((c) => c.stop()));
    await database?.close();
  })());
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return {
    started(child: BenchChild): BenchChild {
      children.push(child);
      return child;
    },
    async stopped(child: BenchChild): Promise<void> {
      await child.stop();
      const at = children.indexOf(child);
      if (at >= 0) children.splice(at, 1);
    },
    /** Closed after the children on cleanup. */
    database<T extends { close(): Promise<void> }>(db: T): T {
      database = db;
      return db;
    },
    async close(): Promise<void> {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      await cleanup();
    },
  };
}
