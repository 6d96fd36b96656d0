import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianPackages } from './debian.ts';

type ClusterState = 'ok' | 'fail';
interface Node { port: number; busPort: number; proc: ChildProcess | null }

/** `n` distinct free loopback ports: all held open at once, so none is handed out twice. */
async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const srv = createServer();
      await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
      servers.push(srv);
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * One command to one node over a raw socket (RESP inline form), answering the reply's text: a bulk
 * string's content, a status line, or `-ERR …` for an error. Rejects when the node is unreachable.
 */
export function command(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => { s.destroy(); reject(new Error(`redis :${port} did not answer ${args[0]}`)); }, 2000);
    s.on('error', (err) => { clearTimeout(timer); reject(err); });
    s.on('connect', () => s.write(`${args.join(' ')}\r\n`));
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const eol = buf.indexOf('\r\n');
      if (eol < 0) return;
      const head = buf.subarray(0, eol).toString();
      let text: string;
      if (head[0] === '$') {
        const len = Number(head.slice(1));
        if (len < 0) text = '';
        else if (buf.length < eol + 2 + len) return; // more to come
        else text = buf.subarray(eol + 2, eol + 2 + len).toString();
      } else text = head.slice(head[0] === '+' || head[0] === ':' ? 1 : 0);
      clearTimeout(timer);
      s.destroy();
      resolve(text);
    });
  });
}

function info(text: string, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(text)?.[1]?.trim();
}

async function poll(what: string, ms: number, pred: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await pred().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A real Redis Cluster of Debian's redis-server (≥ 7): three masters with one replica each on
 * loopback ports, node timeout 1 s (a killed master's replica takes over within a few seconds),
 * nothing persisted. Ready when every node reports `cluster_state:ok` and every replica has synced.
 * Teardown kills every node and removes the directory of their cluster config files.
 */
export async function startRedisCluster(t: { teardown(fn: () => unknown): void }) {
  ensureDebianPackages([['redis-server', 'redis-server'], ['redis-cli', 'redis-tools']]); // as test/run.ts; redis-cli creates the cluster
  const version = /v=(\d+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1];
  if (Number(version) < 7) throw new Error(`a Redis Cluster with sharded pub/sub needs redis-server 7 or later; this one is ${version}`);
  const dir = mkdtempSync(join(tmpdir(), 'dt-redis-cluster-'));
  const ports = await freePorts(12);
  // The cluster bus port is given explicitly (Redis 7), so it need not be port + 10000.
  const nodes: Node[] = Array.from({ length: 6 }, (_, i) => ({ port: ports[i], busPort: ports[i + 6], proc: null }));
  const stop = async (node: Node) => {
    const p = node.proc;
    node.proc = null;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };
  t.teardown(async () => {
    await Promise.all(nodes.map(stop));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const node of nodes) {
    node.proc = spawn('redis-server', [
      '--port', String(node.port), '--cluster-port', String(node.busPort), '--bind', '127.0.0.1',
      '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${node.port}.conf`),
      '--cluster-node-timeout', '1000', '--save', '', '--appendonly', 'no', '--dir', dir,
      '--repl-diskless-sync-delay', '0', // a replica syncs at once, not after the default 5 s
    ], { stdio: 'ignore' });
  }
  await Promise.all(nodes.map((n) => poll(`redis-server :${n.port} answers`, 5000, async () => (await command(n.port, 'PING')) === 'PONG')));

  await new Promise<void>((resolve, reject) => {
    execFile('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { timeout: 20_000 }, (err, stdout, stderr) => (err ? reject(new Error(`redis-cli --cluster create failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve()));
  });
  const living = () => nodes.filter((n) => n.proc);

  /** Waits until every living node reports this cluster state. */
  async function waitForState(state: ClusterState, ms = 15_000): Promise<void> {
    await poll(`cluster_state:${state} on every node`, ms, async () => {
      const states = await Promise.all(living().map(async (n) => info(await command(n.port, 'CLUSTER', 'INFO'), 'cluster_state')));
      return states.every((s) => s === state);
    });
  }
  await waitForState('ok');
  await poll('every replica synced with its master', 15_000, async () => {
    const roles = await Promise.all(nodes.map((n) => command(n.port, 'INFO', 'replication')));
    return roles.filter((r) => info(r, 'role') === 'slave' && info(r, 'master_link_status') === 'up').length === 3;
  });

  /** The masters serving slots now, as the living nodes see them (a failed one is left out). */
  async function masters(): Promise<{ port: number }[]> {
    for (const n of living()) {
      try {
        const lines = (await command(n.port, 'CLUSTER', 'NODES')).split('\n').filter(Boolean);
        return lines
          .map((l) => l.split(' '))
          .filter((f) => f[2].split(',').includes('master') && !/fail/.test(f[2]) && f.length > 8)
          .map((f) => ({ port: Number(f[1].split(':')[1].split('@')[0]) }));
      } catch { /* that node is down: ask the next */ }
    }
    throw new Error('no redis cluster node answers');
  }

  /** The master serving the slot of `key` now (a channel name hashes like a key). */
  async function masterOf(key: string): Promise<{ port: number }> {
    for (const n of living()) {
      try {
        const slot = Number(await command(n.port, 'CLUSTER', 'KEYSLOT', key));
        const lines = (await command(n.port, 'CLUSTER', 'NODES')).split('\n').filter(Boolean).map((l) => l.split(' '));
        const owner = lines.find((f) => f[2].split(',').includes('master') && !/fail/.test(f[2]) && f.slice(8).some((r) => {
          const [lo, hi = lo] = r.split('-').map(Number);
          return slot >= lo && slot <= hi;
        }));
        if (owner) return { port: Number(owner[1].split(':')[1].split('@')[0]) };
      } catch { /* ask the next */ }
    }
    throw new Error(`no master serves the slot of ${key}`);
  }

  /** SIGKILLs the node on `port` (a master, to see its replica take over). */
  async function killMaster(port: number): Promise<void> {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no cluster node on port ${port}`);
    await stop(node);
  }

  const urls = nodes.map((n) => `redis://127.0.0.1:${n.port}`);
  const [first] = await masters();
  return { url: `redis://127.0.0.1:${first.port}`, urls, masters, masterOf, killMaster, waitForState, dir };
}
