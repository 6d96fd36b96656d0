import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import type { Log } from '../../server/core/log.ts';

/** A Log that keeps every line (`message {data}`), and prints them too with LOG_LEVEL=debug. */
export function recordingLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const echo = process.env.LOG_LEVEL === 'debug';
  const write = (lvl: string) => (msg: string, data?: object) => {
    const line = `${msg}${data ? ` ${JSON.stringify(data)}` : ''}`;
    lines.push(line);
    if (echo) process.stderr.write(`${lvl} ${line}\n`);
  };
  return { lines, debug: () => {}, info: write('info'), warn: write('warn'), error: write('error') };
}

/**
 * The live processes of the PostgreSQL cluster in `clusterDir` (any path to it: it is resolved):
 * every process whose command line names it (the postmaster) or whose working directory it is
 * (PostgreSQL's children and backends chdir into it). Zombies, which no longer run, are not counted.
 */
export function clusterProcesses(clusterDir: string): number[] {
  let dir: string;
  try {
    dir = realpathSync(clusterDir);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // exited meanwhile, or not ours to read
      }
      if (cwd === dir || (cmdline[0].endsWith('postgres') && cmdline.includes(dir))) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** SIGKILLs every process of the cluster in `clusterDir` (teardown: no test leaves a PostgreSQL behind). */
export function killCluster(clusterDir: string): void {
  for (const pid of clusterProcesses(clusterDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Polls `check` every 50 ms until it is true (resolves with the ms it took) or `ms` have passed (resolves null). */
export async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number | null> {
  const began = Date.now();
  for (;;) {
    if (await check()) return Date.now() - began;
    if (Date.now() - began > ms) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface PgRelay {
  /** `url` with its host and port replaced by the relay's. */
  urlFor(url: string): string;
  /** Connections the relay carries now. */
  readonly open: number;
  /**
   * true: new connections are closed at once, as by a PostgreSQL that refuses them (a smart shutdown
   * of an external database: the sessions it has keep working); false: let through again.
   */
  refuseNew: boolean;
  close(): Promise<void>;
}

/** A TCP relay on 127.0.0.1 in front of PostgreSQL on `port`, closed by the test's teardown. */
export async function pgRelay(t: { teardown(fn: () => unknown): void }, port: number): Promise<PgRelay> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    if (relay.refuseNew) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = (server.address() as AddressInfo).port;
  const relay: PgRelay = {
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(own);
      return u.toString();
    },
    get open() {
      return pairs.size;
    },
    refuseNew: false,
    close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  t.teardown(() => relay.close());
  return relay;
}
