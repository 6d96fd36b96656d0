/**
 * The server side of `bench fanout` for three contenders (argv[2]), each the real server
 * (startServer: REST, auth, PostgreSQL, the bus) with its boards served by:
 *   hub      — the server itself: uWS, our tRPC WebSocket protocol, serialize-once fan-out;
 *   stock    — tRPC's own `applyWSSHandler` on a `ws` WebSocketServer (second port) with a board
 *              procedure written the way a tRPC user writes one (lib/fanout-stock.ts);
 *   portable — the same appRouter behind `applyWSSHandler` (second port): live.watch takes the
 *              server's portable path (hub listener, mailbox, frames serialized per subscriber).
 * With BENCH_GUILD set (one guild), events enter through the bus with the guild's epoch and
 * seq = head + 1 (memory bus, no HTTP, no PostgreSQL), so every contender serves the same stream.
 * Without it (many guilds), events come from the REST writes the load generator sends.
 * Reports `{port, path, restPort}` on stdout, then is driven over IPC (see fanout-control.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { streamHeads } from '../../server/hub/snapshot.ts';
import { appRouter } from '../../server/trpc/app-router.ts';
import { createContext } from '../../server/trpc/context.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';
import { serveFanoutControl, type EventSource } from '../lib/fanout-control.ts';
import { eventDeltas } from '../lib/fanout-events.ts';
import { stockBoard } from '../lib/fanout-stock.ts';

const mode = process.argv[2];
if (mode !== 'hub' && mode !== 'stock' && mode !== 'portable') throw new Error(`usage: fanout-server.ts hub|stock|portable (got ${mode})`);
const guildId = process.env.BENCH_GUILD;

// One load generator on loopback opens boards 200 at a time: more unauthenticated sockets from one address than a server allows by default.
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'warn', DEMO: '0', WS_PENDING_MAX: '100000', WS_PENDING_PER_ADDRESS: '100000' });
const server = await startServer({ config });
const { deps } = server;

let port = server.port;
let closeWss = async () => {};
if (mode !== 'hub') {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const stock = mode === 'stock' ? stockBoard(deps) : null;
  const handler = stock
    ? applyWSSHandler({ wss, router: stock.router, createContext: ({ info }) => stock.createContext(info.connectionParams?.authorization) })
    : applyWSSHandler({
      wss,
      router: appRouter,
      createContext: ({ info }) => createContext(deps, { authorization: info.connectionParams?.authorization }, { crossSite: false, jsonBody: true }),
    });
  port = (wss.address() as AddressInfo).port;
  closeWss = async () => {
    handler.broadcastReconnectNotification();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    stock?.close();
  };
}

serveFanoutControl(guildId ? await injector(guildId) : null);

/**
 * Publishes the bench's events into the guild's stream. The hub and the portable path hold the
 * guild's hub, which must have applied each event at once (the memory bus is synchronous); the
 * stock board keeps no hub, so the position is read once and counted on here.
 */
async function injector(guild: string): Promise<EventSource> {
  if (mode === 'stock') {
    const head = (await streamHeads(deps.sql, [guild])).get(guild);
    if (!head) throw new Error(`guild ${guild} has no event stream`);
    let seq = head.seq;
    return {
      publish(i, t) {
        deps.bus.publish([{ guildId: guild, epoch: head.epoch, seq: ++seq, at: Date.now(), deltas: eventDeltas(i, t) }]);
        return seq;
      },
    };
  }
  const hub = await deps.hub.guild(guild);
  return {
    publish(i, t) {
      const seq = hub.head + 1;
      deps.bus.publish([{ guildId: guild, epoch: hub.epoch, seq, at: Date.now(), deltas: eventDeltas(i, t) }]);
      if (hub.head !== seq) throw new Error(`event ${seq} was not applied (hub head ${hub.head}, epoch ${hub.epoch})`);
      return seq;
    },
  };
}

report({ port, path: '/trpc?connectionParams=1', restPort: server.port });
stopOnSignalOrOrphan(async () => {
  await closeWss();
  await server.close();
});
