/**
 * One node of `bench scale`: the real composition root (startServer) on BENCH_DATABASE_URL and the
 * bench's Redis (BENCH_REDIS_URL), on a free port, with /metrics behind BENCH_METRICS_TOKEN.
 * argv[2] picks the bus: `guild` is the product's own (REDIS_URL: a channel per guild), `broadcast`
 * the reference passed in through startServer's `bus` option (bench/lib/broadcast-bus.ts: one
 * channel every node receives). Quiet: warnings and errors only, on stderr. Answers `mem` over IPC:
 * the live heap after a full GC (needs --expose-gc) and RSS, bytes.
 */
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer } from '../../server/main.ts';
import { createBroadcastBus } from '../lib/broadcast-bus.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';
import { serveIpc } from '../lib/ipc.ts';
import { settledMemory } from '../lib/memory.ts';

const mode = process.argv[2];
if (mode !== 'guild' && mode !== 'broadcast') throw new Error(`usage: scale-server.ts guild|broadcast (got ${mode})`);
const redisUrl = process.env.BENCH_REDIS_URL;
if (!redisUrl) throw new Error('BENCH_REDIS_URL is not set');

// One load generator on loopback opens the boards 200 at a time: more unauthenticated sockets from one address than a server allows by default.
const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, REDIS_URL: redisUrl, LOG_LEVEL: 'warn', DEMO: '0',
  METRICS_TOKEN: process.env.BENCH_METRICS_TOKEN, WS_PENDING_MAX: '100000', WS_PENDING_PER_ADDRESS: '100000',
});
const bus = mode === 'broadcast' ? await createBroadcastBus(redisUrl, createLog(config.logLevel)) : undefined;
const server = await startServer({ config, bus });
serveIpc({
  mem: async () => {
    const { heapUsed, rss } = await settledMemory();
    return { heapUsed, rss };
  },
});
report({ port: server.port });
stopOnSignalOrOrphan(() => server.close());
