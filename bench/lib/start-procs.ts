import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMsOf } from './procs.ts';

/** How a contender runs the product: `node <args> <command...>` in `cwd`. */
export interface Launcher { label: string; cwd: string; nodeArgs: string[] }

/** A port free right now (the server gets it as PORT, so health can be polled before it says where it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/health', timeout: 1000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', () => resolve(0));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

export interface Served {
  child: ChildProcess;
  pid: number;
  /** From spawning to the first 200 of /api/v1/health. */
  healthMs: number;
  /** CPU (user + system) the server process had used by then: the part of the start the box's load does not stretch. */
  healthCpuMs: number;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * `serve` on `port` with `env`; resolves once GET /api/v1/health answers 200, with the milliseconds
 * from spawning to that answer (health is asked every 10 ms). Rejects when the process exits first
 * or after `timeoutMs`.
 */
export async function serveUntilHealthy(l: Launcher, env: Record<string, string>, port: number, timeoutMs = 120_000): Promise<Served> {
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [...l.nodeArgs, 'serve'], {
    cwd: l.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: '' },
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  for (const deadline = started + timeoutMs; ;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${l.label}: serve exited before it was healthy:\n${output}`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`${l.label}: not healthy within ${timeoutMs / 1000} s:\n${output}`);
    }
    if ((await healthStatus(port)) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, pid: child.pid!, healthMs: performance.now() - started, healthCpuMs: cpuMsOf(child.pid!), output: () => output, stop };
}

/** Resident memory of a process now, MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export interface Timed { wallMs: number; cpuMs: number; peakMb: number; status: number; stdout: string; stderr: string }

/**
 * One whole CLI process, timed by /usr/bin/time (GNU time): wall clock, user + system CPU, and
 * peak resident memory as the kernel accounted them.
 */
export function timeCommand(l: Launcher, args: string[], env: Record<string, string>): Timed {
  const dir = mkdtempSync(join(tmpdir(), 'dt-bench-time-'));
  try {
    const out = join(dir, 'time');
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, process.execPath, ...l.nodeArgs, ...args], {
      cwd: l.cwd, encoding: 'utf8', env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    });
    const [wall, user, sys, maxKb] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, peakMb: maxKb / 1024, status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const hasGnuTime = () => spawnSync('/usr/bin/time', ['-f', '%e', 'true'], { stdio: 'ignore' }).status === 0;

/** min / median / max of the figures, formatted with `digits` decimals. */
export function spread(xs: number[], digits: number): string {
  if (!xs.length) return '-';
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(digits);
  return s.length === 1 ? f(s[0]) : `${f(s[0])} / ${f(s[Math.floor((s.length - 1) / 2)])} / ${f(s[s.length - 1])}`;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
