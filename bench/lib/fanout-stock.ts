import { EventEmitter, on } from 'node:events';
import { initTRPC, TRPCError, tracked } from '@trpc/server';
import superjson from 'superjson';
import { z } from 'zod';
import type { Deps } from '../../server/deps.ts';
import { loadGuildSnapshot } from '../../server/hub/snapshot.ts';
import { topics as allTopics, type GuildEvent, type Topic } from '../../contract/topics.ts';

/**
 * The honest reference of `bench fanout` ("stock"): a live board written the way a tRPC user
 * writes one, on tRPC's own `applyWSSHandler` and `ws` — none of the hub's machinery. The server's
 * events (what it publishes after each commit) go into one EventEmitter, one event name per guild;
 * each subscription listens with `events.on` (the tRPC docs' pattern), reads its snapshot from
 * PostgreSQL, then builds, for each event, its own delta frame of its topics and yields
 * `tracked(id, frame)`, which the adapter serializes with superjson per subscriber. The frames hold
 * exactly what the hub sends a board: `{kind, seq, prev, at, topics}`, tracked "<epoch>.<seq>".
 * No resume from `lastEventId`, no rights per topic, no status frames: less work than the hub does.
 */

/** What a connection proved: the guild of its API key (from connectionParams), or nothing. */
export interface StockContext { guildId: string | null }

const WatchInput = z.object({ topics: z.array(z.enum(allTopics)).min(1), lastEventId: z.string().nullish() });

export function stockBoard(deps: Deps) {
  const t = initTRPC.context<StockContext>().create({ transformer: superjson });
  const guildEvents = new EventEmitter();
  guildEvents.setMaxListeners(0); // one listener per board
  const offBus = deps.bus.onEvents((events) => {
    for (const ev of events) guildEvents.emit(ev.guildId, ev);
  });

  const member = t.procedure.use(({ ctx, next }) => {
    if (!ctx.guildId) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'send an API key in connectionParams' });
    return next({ ctx: { guildId: ctx.guildId } });
  });

  const router = t.router({
    live: t.router({
      watch: member.input(WatchInput).subscription(async function* ({ ctx, input, signal }) {
        // Listening before the snapshot is read: an event committed meanwhile waits in the iterator.
        const events = on(guildEvents, ctx.guildId, { signal });
        const snap = await loadGuildSnapshot(deps.db, ctx.guildId);
        const state: Partial<Record<Topic, unknown>> = {};
        for (const topic of input.topics) state[topic] = (snap.states as Record<string, unknown>)[topic] ?? {};
        yield tracked(`${snap.epoch}.${snap.seq}`, { kind: 'snapshot' as const, seq: snap.seq, prev: null, at: Date.now(), topics: state });
        let prev = snap.seq;
        for await (const [ev] of events as AsyncIterableIterator<[GuildEvent]>) {
          if (ev.seq <= prev) continue; // already in the snapshot
          let picked: Partial<Record<Topic, unknown[]>> | null = null;
          for (const topic of input.topics) if (ev.deltas[topic]) (picked ??= {})[topic] = ev.deltas[topic];
          if (!picked) continue;
          yield tracked(`${ev.epoch}.${ev.seq}`, { kind: 'delta' as const, seq: ev.seq, prev, at: ev.at, topics: picked });
          prev = ev.seq;
        }
      }),
    }),
  });

  return {
    router,
    /** The connection's guild: the API key in connectionParams, checked once per connection. */
    async createContext(authorization: string | undefined): Promise<StockContext> {
      const auth = await deps.auth.authenticate({ authorization });
      return { guildId: auth.principal?.guildId ?? null };
    },
    close: offBus,
  };
}
