/**
 * The server side of `bench fanout` for two contenders (argv[2]):
 *   hub   — the real server (startServer): uWS, our tRPC WebSocket protocol, serialize-once fan-out;
 *   stock — the same started server's deps and the same appRouter behind @trpc/server's stock
 *           `applyWSSHandler` on a `ws` WebSocketServer (second port; live.watch takes the portable
 *           path because ctx.ws is absent).
 * Events enter through the bus the hub listens to (memory bus, no HTTP, no PostgreSQL), with the
 * hub's epoch and seq = head + 1, so both contenders serve exactly the same stream.
 * Reports `{port, path}` on stdout, then is driven over IPC (see fanout-control.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { appRouter } from '../../server/trpc/app-router.ts';
import { createContext } from '../../server/trpc/context.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';
import { serveFanoutControl } from '../lib/fanout-control.ts';
import { eventDeltas } from '../lib/fanout-events.ts';

const mode = process.argv[2];
if (mode !== 'hub' && mode !== 'stock') throw new Error(`usage: fanout-server.ts hub|stock (got ${mode})`);
const guildId = process.env.BENCH_GUILD;
if (!guildId) throw new Error('BENCH_GUILD is not set');

// One load generator on loopback opens boards 200 at a time: more unauthenticated sockets from one address than a server allows by default.
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'warn', DEMO: '0', WS_PENDING_MAX: '100000', WS_PENDING_PER_ADDRESS: '100000' });
const server = await startServer({ config });
const hub = await server.deps.hub.guild(guildId);

let port = server.port;
let closeStock = async () => {};
if (mode === 'stock') {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const handler = applyWSSHandler({
    wss,
    router: appRouter,
    createContext: ({ info }) => createContext(server.deps, { authorization: info.connectionParams?.authorization }, { crossSite: false, jsonBody: true }),
  });
  port = (wss.address() as AddressInfo).port;
  closeStock = async () => {
    handler.broadcastReconnectNotification();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}

serveFanoutControl({
  publish(i, t) {
    const seq = hub.head + 1;
    server.deps.bus.publish([{ guildId, epoch: hub.epoch, seq, at: Date.now(), deltas: eventDeltas(i, t) }]);
    // The memory bus delivers synchronously: an event not applied now means the bench fed it wrong.
    if (hub.head !== seq) throw new Error(`event ${seq} was not applied (hub head ${hub.head}, epoch ${hub.epoch})`);
    return seq;
  },
});

report({ port, path: '/trpc?connectionParams=1' });
stopOnSignalOrOrphan(async () => {
  await closeStock();
  await server.close();
});
