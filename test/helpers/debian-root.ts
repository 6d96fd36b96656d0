import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { debianMirror, ensureDebianPackages } from './debian.ts';

/**
 * Debian roots for tests that run the product on another system than this machine's (another
 * glibc, another Node), made by debootstrap from Debian's packages. Kept between runs outside the
 * checkout; each is built in a temporary directory and renamed when complete, so a run that dies
 * half-way leaves nothing that a later run would take for a root.
 */
export const testCache = process.env.DT_TEST_CACHE ?? '/var/cache/dispatch-terminal-test';

/** Why debootstrap cannot run here (the one reason to skip), or null. */
export function debootstrapUnavailable(): string | null {
  if (process.platform !== 'linux') return `debootstrap and chroot need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'debootstrap, chroot and mount need root';
  try {
    ensureDebianPackages([['debootstrap', 'debootstrap']]);
  } catch (err) {
    return `debootstrap is not installed and apt-get could not install it (${String((err as Error).message).split('\n')[0]})`;
  }
  return null;
}

/**
 * A Debian `suite` root (debootstrap --variant=minbase) with `packages` installed, from the mirror
 * this machine uses; built on first use (about 40 s plus the packages), then taken from the cache.
 * Services never start in it (policy-rc.d), so installing one leaves no daemon behind.
 */
export async function debianRoot(suite: string, packages: string[] = []): Promise<string> {
  const root = join(testCache, `debian-${suite}-minbase${packages.length ? `-${packages.join('-')}` : ''}`);
  if (existsSync(root)) return root;
  mkdirSync(testCache, { recursive: true });
  removeAbandoned(testCache, `.debian-${suite}-`);
  const building = mkdtempSync(join(testCache, `.debian-${suite}-${process.pid}-`));
  chmodSync(building, 0o755); // its "/": every user of the root (postgres, say) must pass it
  try {
    // In a mount namespace of its own: the /proc and /sys debootstrap mounts go when it ends, however it ends.
    await run('unshare', ['--mount', '--propagation', 'private', 'debootstrap', '--variant=minbase', suite, building, debianMirror()]);
    writeFileSync(join(building, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    if (packages.length) {
      const env = { PATH: rootPath, DEBIAN_FRONTEND: 'noninteractive', LANG: 'C.UTF-8' };
      await runInRoot(building, ['apt-get', 'install', '-y', '--no-install-recommends', ...packages], { env });
      await runInRoot(building, ['apt-get', 'clean'], { env });
    }
    try {
      renameSync(building, root);
    } catch (err) {
      if (!existsSync(root)) throw err; // else another run finished the same root first
    }
  } finally {
    if (existsSync(building)) removeTree(building);
  }
  return root;
}

export const rootPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface InRootOptions {
  /** Working directory inside the root. */
  cwd?: string;
  /** The whole environment of the command (nothing of this process's leaks in). */
  env?: Record<string, string>;
  /** Host directories mounted at a path inside the root, for this command only. */
  binds?: { host: string; at: string }[];
}

/**
 * Starts `argv` chrooted into `root`, in a mount namespace of its own with /proc, /sys and /dev
 * (and `binds`) mounted: those mounts exist only for this command and its children, and vanish
 * when the last of them ends, so nothing is left mounted on the host, even after a crash.
 */
export function spawnInRoot(root: string, argv: string[], opts: InRootOptions = {}): ChildProcess {
  const binds = (opts.binds ?? []).flatMap((b) => [b.host, b.at]);
  const env = Object.entries(opts.env ?? { PATH: rootPath, HOME: '/root', LANG: 'C.UTF-8' }).map(([k, v]) => `${k}=${v}`);
  const script = [
    'set -e', 'root=$1; shift',
    'mount -t proc proc "$root/proc"', 'mount -t sysfs sysfs "$root/sys"', 'mount --rbind /dev "$root/dev"',
    'while [ "$1" != -- ]; do mkdir -p "$root$2"; mount --bind "$1" "$root$2"; shift 2; done; shift',
    // Only the environment given: the test runner's (NODE_OPTIONS naming its own loaders) stays outside.
    'exec /usr/bin/env -i "$@"',
  ].join('\n');
  const command = ['/usr/sbin/chroot', root, '/bin/sh', '-c', 'cd "$0" && exec "$@"', opts.cwd ?? '/', ...argv];
  return spawn('unshare', ['--mount', '--propagation', 'private', '/bin/sh', '-c', script, 'in-root', root, ...binds, '--', ...env, ...command], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // a process group of its own: stopped as a whole (as Ctrl-C stops a terminal's command)
  });
}

/** Runs `argv` in `root` to its end; rejects with its output when it fails or outlasts `timeoutMs`. */
export async function runInRoot(root: string, argv: string[], opts: InRootOptions & { timeoutMs?: number } = {}): Promise<string> {
  const child = spawnInRoot(root, argv, opts);
  const namespace = await namespaceOf(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const timer = setTimeout(() => killNamespace(namespace), opts.timeoutMs ?? 600_000);
  try {
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`${argv.join(' ')} in ${root} ended with ${code ?? 'a signal'}:\n${output.slice(-4000)}`);
    return output;
  } finally {
    clearTimeout(timer);
    killNamespace(namespace); // anything it left running (a daemon) goes too
  }
}

/**
 * The mount namespace `child` runs in, once unshare has made it: every process it starts is in it
 * (the tests start none that leave it), so killNamespace finds them all, daemons included.
 */
export async function namespaceOf(child: ChildProcess): Promise<string | null> {
  const own = readlinkSync('/proc/self/ns/mnt');
  for (let i = 0; i < 500; i++) {
    try {
      const ns = readlinkSync(`/proc/${child.pid}/ns/mnt`);
      if (ns !== own) return ns;
    } catch {
      return null; // it ended already (and its namespace with it, unless it left a child)
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the command in the root did not start (pid ${child.pid})`);
}

/** SIGKILLs every process in mount namespace `ns`; returns how many there were. */
export function killNamespace(ns: string | null): number {
  let killed = 0;
  if (!ns) return 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/ns/mnt`) !== ns) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

/** Removes `dir` without crossing into anything mounted below it. */
export function removeTree(dir: string): void {
  execFileSync('rm', ['-rf', '--one-file-system', dir]);
}

/** Removes `<parent>/<prefix><pid>-…` left by runs whose process is gone. */
export function removeAbandoned(parent: string, prefix: string): void {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid && isAlive(pid)) continue;
    removeTree(join(parent, name));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function run(cmd: string, args: string[], timeoutMs = 600_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${String(stdout).slice(-2000)}${String(stderr).slice(-2000)}`));
      else resolve(String(stdout));
    });
  });
}
