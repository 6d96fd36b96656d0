import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../server/bin/dispatch-terminal.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServeOptions {
  /** Run it under `ulimit -n <fdLimit>` (a server short of file descriptors). */
  fdLimit?: number;
}

/**
 * A real `serve` process with `env` (on its own DATA_DIR unless `env` names one); resolves with
 * its URL once it listens. SIGKILLed at the end of the test if still running.
 */
export async function serveProcess(
  t: { teardown(fn: () => unknown): void }, env: Record<string, string>, opts: ServeOptions = {},
): Promise<{ url: string; child: ChildProcess; exited: Promise<unknown> }> {
  const fullEnv = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'dt-node-')), PORT: '0', DEMO: '0', LOG_LEVEL: 'info', PUBLIC_URL: '', ...env };
  const options = { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[], env: fullEnv };
  const child = opts.fdLimit === undefined
    ? spawn(process.execPath, [bin, 'serve'], options)
    : spawn('bash', ['-c', `ulimit -n ${opts.fdLimit} && exec "$0" "$1" serve`, process.execPath, bin], options);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`serve exited: ${out}${err}`)));
  });
  return { url, child, exited };
}

/**
 * Spawns `command args` (a server), collecting stdout and stderr; resolves once it prints
 * "listening on <url>" (within 120 s), rejects with its output if it exits first. SIGKILLed at the
 * end of the test if still running; `exited` gives its exit code.
 */
export async function spawnListening(
  t: { teardown(fn: () => unknown): void }, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within 120 s:\n${out}`)), 120_000);
    child.stdout!.on('data', () => {
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${out}`)));
  });
  return { url, child, exited, output: () => out };
}
