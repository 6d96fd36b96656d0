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
