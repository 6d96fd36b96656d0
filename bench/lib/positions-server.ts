/**
 * One node of `bench positions`: the real composition root (startServer, as `npm start` builds it)
 * on BENCH_DATABASE_URL, on a free port, with Redis between nodes when BENCH_REDIS_URL is set.
 * argv[2]: `coalesced` — the product as it is (boards read `live.positions`); `per-put` /
 * `per-position` — the per-event reference: the same server with its in-process bus wrapped by
 * positions-event-bus.ts, so each accepted PUT (or each position in it) is also an event that the
 * hub's fan-out sends to every `live.watch` board. Quiet: warnings and errors only, on stderr.
 * Reports `{port}` on stdout; answers `stats` and `heapAfterGc` (MB, started with --expose-gc) over IPC.
 */
import { loadConfig } from '../../server/config.ts';
import { createMemoryBus } from '../../server/hub/bus.ts';
import { startServer } from '../../server/main.ts';
import { report, stopOnSignalOrOrphan } from './child.ts';
import { serveIpc } from './ipc.ts';
import { settledMemory } from './memory.ts';
import { perEventBus } from './positions-event-bus.ts';

const mode = process.argv[2];
if (mode !== 'coalesced' && mode !== 'per-put' && mode !== 'per-position') throw new Error(`usage: positions-server.ts coalesced|per-put|per-position (got ${mode})`);
const redisUrl = process.env.BENCH_REDIS_URL;
if (mode !== 'coalesced' && redisUrl) throw new Error('the per-event reference runs on one node');

// One load generator on loopback opens the boards 200 at a time: more unauthenticated sockets from one address than a server allows by default.
const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'warn', DEMO: '0',
  WS_PENDING_MAX: '100000', WS_PENDING_PER_ADDRESS: '100000', ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
});
const reference = mode === 'coalesced' ? null : perEventBus(createMemoryBus(), mode === 'per-put' ? 'put' : 'position');
const server = await startServer({ config, bus: reference?.bus });
reference?.useHub((guildId) => server.deps.hub.guild(guildId));
serveIpc({
  // What the server holds on to (heap after full GCs, MB): flat over the window means no growth.
  heapAfterGc: async () => {
    const m = await settledMemory();
    return (m.heapUsed + m.external) / 2 ** 20;
  },
  stats: () => ({
    delivery: server.deps.positionDelivery.stats,
    positions: server.deps.positions.stats,
    referenceEvents: reference?.events ?? 0,
    fanoutDeliveries: server.deps.fanout?.deliveries ?? 0,
  }),
});
report({ port: server.port });
stopOnSignalOrOrphan(() => server.close());
