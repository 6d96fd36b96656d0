import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../server/store/embedded.ts';

/** Whether a Redis answers PING on the port. */
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

/**
 * A real redis-server (Debian's) on a free loopback port, without persistence, as
 * test/helpers/redis.ts starts it; with its pid, for CPU accounting. `close()` kills it, and so
 * does this process's exit (a bench stopped by a signal leaves no Redis behind).
 */
export async function startRedisServer(): Promise<{ url: string; port: number; pid: number; close(): Promise<void> }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.once('error', () => {});
  const onExit = () => proc.kill('SIGKILL');
  process.once('exit', onExit);
  const close = async () => {
    process.off('exit', onExit);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  for (let i = 0; i < 100; i++) {
    if (await ping(port)) return { url: `redis://127.0.0.1:${port}`, port, pid: proc.pid!, close };
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error('redis-server did not start (is Debian\'s redis-server installed?)');
}

/** How often Redis ran each command so far (`INFO commandstats`: publish, spublish, subscribe, …). */
export async function redisCommandCounts(port: number): Promise<Record<string, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('error', reject);
    s.on('connect', () => s.write('INFO commandstats\r\n'));
    s.on('data', (d) => {
      got += d.toString();
      const m = /^\$(\d+)\r\n/.exec(got);
      if (m && Buffer.byteLength(got) >= m[0].length + Number(m[1])) {
        s.destroy();
        resolve(got);
      }
    });
  });
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) counts[m[1]] = Number(m[2]);
  return counts;
}
