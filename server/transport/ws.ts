import type uWS from 'uWebSockets.js';
import { TRPCError } from '@trpc/server';
import {
  getErrorShape, getTRPCErrorFromUnknown, isAsyncIterable, isTrackedEnvelope,
  parseConnectionParamsFromUnknown, transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import';
import type { Deps } from '../deps.ts';
import type { Credentials, Principal } from '../auth/principal.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContext, type Context } from '../trpc/context.ts';
import { invokeProcedure, procedureAt } from '../trpc/invoke.ts';
import { isCrossSite } from './http.ts';
import { validCredentials } from '../auth/store.ts';
import { idOf, parseClientMessage } from './ws-messages.ts';

interface SocketData {
  cookie?: string;
  /** The URL asked for a connectionParams frame first (`?connectionParams=1`). */
  wantsParams: boolean;
  open: boolean;
  ctx: Promise<Context> | null;
  /** What `ctx` was made from, to make it again (a session whose rights changed; a database that did not answer). */
  credentials?: Credentials;
  principalKey?: string;
  /** The guild of a session principal (whose rights can change while the socket is open). */
  sessionGuild?: string;
  /** `ctx` may be out of date (the member's rights changed, the database did not answer): make it again before the next call. */
  stale?: boolean;
  subs: Map<string, AbortController>;
  window: { start: number; count: number };
}
type Socket = uWS.WebSocket<SocketData>;

const config = appRouter._def._config;
const RECONNECT = JSON.stringify({ id: null, method: 'reconnect' });

/**
 * Open subscriptions (every procedure, live or not) a socket and a credential may hold on this
 * node; a board needs one or two. Over the limit a subscribe is answered TOO_MANY_REQUESTS and the
 * socket stays open.
 */
const subscriptionLimits = { perSocket: 16, perCredential: 64 };
/**
 * Frames up to this size are read and, when over `limits.wsMaxPayloadBytes`, answered by closing
 * with 1009; larger ones uWS cuts off itself without a close frame (1006), before buffering them.
 */
const HARD_FRAME_LIMIT = 1024 * 1024;

/** Close codes: 1008 policy (limits), 1009 frame too big, 4401 credential revoked, 1012 restart. */
function closeWith(ws: Socket, code: number, reason: string) {
  const d = ws.getUserData();
  if (!d.open) return;
  d.open = false;
  ws.end(code, reason);
}

/**
 * tRPC v11's WebSocket protocol on uWS (the stock `wsLink` works unchanged): queries, mutations and
 * subscriptions on one socket, batches, `subscription.stop`, text PING/PONG, connectionParams,
 * `reconnect` on shutdown. Live subscriptions attach to the hub's serialize-once fan-out; other
 * subscriptions run like the stock adapter. Limits (frame size, message rate, sockets per
 * credential, backpressure) close the socket with a reason; subscriptions over their limits and
 * client mistakes are answered with a 4xx error (logged at debug) on an open socket; the server
 * keeps running.
 */
export function mountWebSocket(app: uWS.TemplatedApp, deps: Deps) {
  const { limits } = deps.config;
  const sockets = new Set<Socket>();
  const byPrincipal = new Map<string, Set<Socket>>();
  /** Open subscriptions per credential (principal key), across its sockets on this node. */
  const subsByPrincipal = new Map<string, number>();

  deps.bus.onInvalidate((inv) => {
    if (inv.kind === 'guild') return refreshRights(inv.id);
    const key = inv.kind === 'apiKey' ? `k:${inv.id}` : `s:${inv.id}`;
    for (const ws of byPrincipal.get(key) ?? []) closeWith(ws, 4401, 'credential revoked');
  });
  deps.bus.onResync(() => refreshRights(null));

  /**
   * A member's rank, capabilities or admin flag may have changed (guild `null`: any guild): the
   * next call on each of its sockets authenticates again and runs with the rights as they are then.
   * Open live subscriptions are re-checked by the live domain itself (domains/live/rights.ts).
   */
  function refreshRights(guildId: string | null) {
    for (const ws of sockets) {
      const d = ws.getUserData();
      if (d.sessionGuild && (guildId === null || d.sessionGuild === guildId)) d.stale = true;
    }
  }

  /** The socket's context, authenticated again first when it is stale (rights changed, or the database did not answer). */
  function currentContext(ws: Socket): Promise<Context> | null {
    const d = ws.getUserData();
    if (d.stale && d.credentials && d.ctx) {
      d.stale = false;
      const before = d.ctx;
      d.ctx = authenticate(ws, d.credentials).catch((err) => {
        deps.log.warn('socket rights refresh failed; keeping the previous ones', { error: String(err) });
        return before;
      });
    }
    return d.ctx;
  }

  // The boards' degraded signal: every live subscription hears when PostgreSQL stops or starts answering.
  deps.fanout?.setDatabaseUp(deps.dbHealth.up);
  const offHealth = deps.dbHealth.onChange((up) => deps.fanout?.setDatabaseUp(up));

  // Long-lived sockets re-check their credential: an expired session or a key deleted while the bus
  // was down closes the socket within a minute; open boards keep their session alive.
  const revalidate = setInterval(() => {
    const keys = [...byPrincipal.keys()];
    if (!keys.length) return;
    const hashes = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(2));
    validCredentials(deps.sql, hashes('k:'), hashes('s:')).then((valid) => {
      for (const key of keys) if (!valid.has(key)) for (const ws of byPrincipal.get(key) ?? []) closeWith(ws, 4401, 'credential expired or revoked');
    }).catch((err) => deps.log.warn('socket credential check failed', { error: String(err) }));
  }, limits.wsRevalidateMs);
  revalidate.unref();

  function principalKey(p: Principal) {
    return p.kind === 'key' ? `k:${p.keyHash}` : `s:${p.sessionHash}`;
  }

  function connect(ws: Socket, params: Record<string, string | undefined> | null): Promise<Context> {
    return authenticate(ws, { cookie: ws.getUserData().cookie, authorization: params?.authorization, guildHeader: params?.guildId });
  }

  /**
   * The socket's context for these credentials. The first principal it proves is the socket's for
   * good (counted against the sockets per credential). A session's credentials are kept to
   * authenticate again when its rights change; any credentials are kept, and tried again at the
   * next call, when the database did not answer (a socket opened during an outage must not stay
   * refused after it).
   */
  async function authenticate(ws: Socket, credentials: Credentials): Promise<Context> {
    const d = ws.getUserData();
    // Origin was checked at the upgrade; frames are JSON
    const ctx = await createContext(deps, credentials, { crossSite: false, jsonBody: true });
    const p = ctx.auth.principal;
    if (!p) {
      if (ctx.auth.failure?.code === 'SERVICE_UNAVAILABLE') {
        d.credentials = credentials;
        d.stale = true;
      }
      return ctx;
    }
    if (p.kind === 'session') {
      d.sessionGuild = p.guildId;
      d.credentials = credentials;
    }
    if (d.open && !d.principalKey) {
      const key = principalKey(p);
      const set = byPrincipal.get(key) ?? new Set();
      if (set.size >= limits.wsSocketsPerPrincipal) closeWith(ws, 1008, `too many sockets for this credential (max ${limits.wsSocketsPerPrincipal})`);
      else {
        set.add(ws);
        byPrincipal.set(key, set);
        d.principalKey = key;
      }
    }
    return ctx;
  }

  function send(ws: Socket, msg: unknown) {
    const d = ws.getUserData();
    if (!d.open) return;
    const text = JSON.stringify(transformTRPCResponse(config, msg as never));
    ws.cork(() => {
      if (ws.send(text, false) === 2) closeWith(ws, 1008, 'backpressure limit');
    });
  }

  /**
   * Answers a failed call. Only server faults (500) are logged as errors: anything a client got
   * wrong (4xx) is its own business, and a flood of bad frames must not flood the log.
   */
  function sendError(ws: Socket, id: string | number | null, cause: unknown, type: 'query' | 'mutation' | 'subscription' | 'unknown', path?: string, ctx?: Context) {
    const error = cause instanceof TRPCError ? cause : getTRPCErrorFromUnknown(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('ws call failed', { path, error: String(error.cause ?? error) });
    else deps.log.debug('ws call refused', { path, code: error.code, error: error.message });
    send(ws, { id, error: getErrorShape({ config, error, type, path, input: undefined, ctx }) });
  }

  async function handle(ws: Socket, raw: unknown, batchIndex: number) {
    const d = ws.getUserData();
    let msg;
    try {
      msg = parseClientMessage(raw, config.transformer);
    } catch (err) {
      sendError(ws, idOf(raw), err, 'unknown');
      return;
    }
    const { id } = msg;
    const idKey = JSON.stringify(id);
    if (msg.method === 'subscription.stop') {
      d.subs.get(idKey)?.abort();
      return;
    }
    const { path, lastEventId } = msg.params;
    let input = msg.params.input;
    if (lastEventId !== undefined) input = input && typeof input === 'object' ? { ...(input as object), lastEventId } : { lastEventId };
    const type = msg.method;
    if (type === 'subscription') {
      if (d.subs.has(idKey)) return sendError(ws, id, new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` }), type, path);
      if (d.subs.size >= subscriptionLimits.perSocket) {
        return sendError(ws, id, new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `at most ${subscriptionLimits.perSocket} open subscriptions per socket: stop one first` }), type, path);
      }
    }

    const abort = new AbortController();
    if (type === 'subscription') d.subs.set(idKey, abort);
    let ctx: Context | undefined;
    let counted: string | undefined;
    try {
      const connCtx = await (currentContext(ws) ?? Promise.reject(new TRPCError({ code: 'UNAUTHORIZED', message: 'connectionParams expected first' })));
      ctx = connCtx;
      if (!d.open || abort.signal.aborted) return;
      if (type === 'subscription' && d.principalKey) {
        const n = subsByPrincipal.get(d.principalKey) ?? 0;
        if (n >= subscriptionLimits.perCredential) {
          throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `at most ${subscriptionLimits.perCredential} open subscriptions per API key or session: stop one first` });
        }
        subsByPrincipal.set((counted = d.principalKey), n + 1);
      }
      const callCtx: Context = type === 'subscription' ? { ...connCtx, ws: { ws: ws as never, subIdJson: idKey, isOpen: () => d.open } } : connCtx;
      const result = await invokeProcedure(procedureAt(path, type), { path, getRawInput: async () => input, ctx: callCtx, type, signal: abort.signal, batchIndex });
      if (type !== 'subscription') {
        send(ws, { id, result: { type: 'data', data: result } });
        return;
      }
      if (!isAsyncIterable(result)) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `subscription ${path} did not return an async iterable` });
      send(ws, { id, result: { type: 'started' } });
      const iterator = result[Symbol.asyncIterator]();
      const aborted = new Promise<null>((resolve) => abort.signal.addEventListener('abort', () => resolve(null), { once: true }));
      for (;;) {
        const next = await Promise.race([iterator.next(), aborted]);
        if (next === null) {
          void iterator.return?.().catch(() => {});
          break;
        }
        if (next.done) break;
        const value = next.value;
        if (isTrackedEnvelope(value)) {
          const [trackedId, data] = value;
          send(ws, { id, result: { type: 'data', id: trackedId, data: { id: trackedId, data } } });
        } else send(ws, { id, result: { type: 'data', data: value } });
      }
      send(ws, { id, result: { type: 'stopped' } });
    } catch (err) {
      sendError(ws, id, err, type, path, ctx);
    } finally {
      if (type === 'subscription' && d.subs.get(idKey) === abort) d.subs.delete(idKey);
      if (counted) {
        const n = subsByPrincipal.get(counted)! - 1;
        if (n > 0) subsByPrincipal.set(counted, n);
        else subsByPrincipal.delete(counted);
      }
    }
  }

  app.ws<SocketData>('/trpc', {
    maxPayloadLength: Math.max(HARD_FRAME_LIMIT, limits.wsMaxPayloadBytes),
    maxBackpressure: limits.wsMaxBackpressureBytes,
    closeOnBackpressureLimit: 1, // typed as a number in this build; non-zero = close instead of dropping silently
    idleTimeout: 120,
    sendPingsAutomatically: true,

    upgrade(res, req, context) {
      const cookie = req.getHeader('cookie') || undefined;
      const headers = { origin: req.getHeader('origin'), host: req.getHeader('host'), 'sec-fetch-site': req.getHeader('sec-fetch-site') };
      const query = new URLSearchParams(req.getQuery() ?? '');
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      // Browsers send cookies on cross-site upgrades (CSWSH): a cookie is honoured only from our own origin.
      if (cookie && (headers.origin || headers['sec-fetch-site']) && isCrossSite(headers, deps.config.publicUrl)) {
        res.cork(() => res.writeStatus('403 Forbidden').writeHeader('content-type', 'application/json').end('{"error":"cross-site WebSocket refused"}'));
        return;
      }
      res.upgrade<SocketData>(
        { cookie, wantsParams: query.get('connectionParams') === '1', open: true, ctx: null, subs: new Map(), window: { start: Date.now(), count: 0 } },
        key, protocol, extensions, context,
      );
    },

    open(ws) {
      sockets.add(ws);
      const d = ws.getUserData();
      if (!d.wantsParams) d.ctx = connect(ws, null);
    },

    message(ws, data) {
      const d = ws.getUserData();
      if (data.byteLength > limits.wsMaxPayloadBytes) return closeWith(ws, 1009, `frame too big (at most ${limits.wsMaxPayloadBytes} bytes)`);
      const now = Date.now();
      if (now - d.window.start > 10_000) d.window = { start: now, count: 0 };
      if (++d.window.count > limits.wsMessagesPer10s) return closeWith(ws, 1008, `message rate limit (${limits.wsMessagesPer10s} per 10 s)`);
      const text = Buffer.from(data).toString('utf8'); // copied now: uWS frees `data` on return
      if (text === 'PING') {
        ws.send('PONG', false);
        return;
      }
      if (text === 'PONG') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return sendError(ws, null, new TRPCError({ code: 'PARSE_ERROR', message: 'frame is not valid JSON' }), 'unknown');
      }
      if (d.wantsParams && !d.ctx) {
        const frame = parsed as { method?: unknown; data?: unknown };
        if (frame?.method !== 'connectionParams') return closeWith(ws, 1008, 'expected a connectionParams frame first');
        try {
          const params = parseConnectionParamsFromUnknown(frame.data);
          d.ctx = connect(ws, params);
        } catch (err) {
          sendError(ws, null, err, 'unknown');
          closeWith(ws, 1008, 'invalid connectionParams');
        }
        return;
      }
      const list = Array.isArray(parsed) ? parsed : [parsed];
      if (list.length > limits.trpcBatch) {
        // Each call of the batch gets the error, as tRPC's own adapter answers it: a client must not wait forever.
        const error = new TRPCError({ code: 'BAD_REQUEST', message: `at most ${limits.trpcBatch} calls per frame` });
        const ids = list.filter((m) => (m as { method?: unknown })?.method !== 'subscription.stop').map(idOf).filter((id) => id !== null);
        for (const id of ids.length ? ids : [null]) sendError(ws, id, error, 'unknown');
        return;
      }
      list.forEach((m, i) => void handle(ws, m, i));
    },

    close(ws) {
      const d = ws.getUserData();
      d.open = false;
      sockets.delete(ws);
      for (const ac of d.subs.values()) ac.abort();
      if (d.principalKey) {
        const set = byPrincipal.get(d.principalKey);
        set?.delete(ws);
        if (set?.size === 0) byPrincipal.delete(d.principalKey);
      }
    },
  });

  return {
    get connections() {
      return sockets.size;
    },
    /** What the endpoint holds; every count is 0 once every socket is closed. */
    get stats() {
      let subscriptions = 0;
      for (const ws of sockets) subscriptions += ws.getUserData().subs.size;
      let counted = 0;
      for (const n of subsByPrincipal.values()) counted += n;
      return { sockets: sockets.size, subscriptions, credentials: byPrincipal.size, subscriptionsByCredential: counted };
    },
    /** Tells every client to reconnect (tRPC's `reconnect` notice), then closes the sockets. */
    shutdown() {
      clearInterval(revalidate);
      offHealth();
      for (const ws of [...sockets]) {
        const d = ws.getUserData();
        if (!d.open) continue;
        ws.cork(() => ws.send(RECONNECT, false));
        closeWith(ws, 1012, 'server restarting');
      }
    },
  };
}

export type WebSocketEndpoint = ReturnType<typeof mountWebSocket>;
