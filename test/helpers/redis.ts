import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../server/store/embedded.ts';

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => resolve(false));
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => {
      resolve(d.toString().startsWith('+PONG'));
      s.destroy();
    });
  });
}

/** A real redis-server on a free loopback port; `kill()` and `start()` simulate an outage. */
export async function startRedis(t: { teardown(fn: () => unknown): void }) {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  async function start() {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await ping(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  }
  async function kill() {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
  await start();
  t.teardown(kill);
  return { url: `redis://127.0.0.1:${port}`, port, start, kill };
}
