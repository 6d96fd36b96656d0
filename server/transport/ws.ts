import type uWS from 'uWebSockets.js';
import { TRPCError } from '@trpc/server';
import {
  getErrorShape, getTRPCErrorFromUnknown, isAsyncIterable, isTrackedEnvelope,
  parseConnectionParamsFromUnknown, parseTRPCMessage, transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import';
import type { Deps } from '../deps.ts';
import type { Principal } from '../auth/principal.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContext, type Context } from '../trpc/context.ts';
import { invokeProcedure, procedureAt } from '../trpc/invoke.ts';
import { isCrossSite } from './http.ts';
import { validCredentials } from '../auth/store.ts';

interface SocketData {
  cookie?: string;
  /** The URL asked for a connectionParams frame first (`?connectionParams=1`). */
  wantsParams: boolean;
  open: boolean;
  ctx: Promise<Context> | null;
  principalKey?: string;
  subs: Map<string, AbortController>;
  window: { start: number; count: number };
}
type Socket = uWS.WebSocket<SocketData>;

const config = appRouter._def._config;
/** Inputs as the transformer wrote them; a missing or malformed one is a client error, not a crash. */
const inputTransformer = {
  ...config.transformer,
  input: {
    ...config.transformer.input,
    deserialize: (value: unknown) => {
      if (value === undefined) return undefined;
      try {
        return config.transformer.input.deserialize(value);
      } catch {
        throw new TRPCError({ code: 'PARSE_ERROR', message: 'input is not in the transformer\'s format ({"json": …})' });
      }
    },
  },
};
const RECONNECT = JSON.stringify({ id: null, method: 'reconnect' });

/** Close codes: 1008 policy (limits), 4401 credential revoked, 1012 restart. */
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
 * credential, backpressure) close the socket with a reason; the server keeps running.
 */
export function mountWebSocket(app: uWS.TemplatedApp, deps: Deps) {
  const { limits } = deps.config;
  const sockets = new Set<Socket>();
  const byPrincipal = new Map<string, Set<Socket>>();

  deps.bus.onInvalidate((inv) => {
    const key = inv.kind === 'apiKey' ? `k:${inv.id}` : inv.kind === 'session' ? `s:${inv.id}` : null;
    for (const ws of (key && byPrincipal.get(key)) || []) closeWith(ws, 4401, 'credential revoked');
  });

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

  async function connect(ws: Socket, params: Record<string, string | undefined> | null): Promise<Context> {
    const d = ws.getUserData();
    const ctx = await createContext(
      deps,
      { cookie: d.cookie, authorization: params?.authorization, guildHeader: params?.guildId },
      { crossSite: false, jsonBody: true }, // Origin was checked at the upgrade; frames are JSON
    );
    const p = ctx.auth.principal;
    if (p && d.open) {
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

  function sendError(ws: Socket, id: string | number | null, cause: unknown, type: 'query' | 'mutation' | 'subscription' | 'unknown', path?: string, ctx?: Context) {
    const error = cause instanceof TRPCError ? cause : getTRPCErrorFromUnknown(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('ws call failed', { path, error: String(error.cause ?? error) });
    send(ws, { id, error: getErrorShape({ config, error, type, path, input: undefined, ctx }) });
  }

  async function handle(ws: Socket, raw: unknown, batchIndex: number) {
    const d = ws.getUserData();
    let msg;
    try {
      msg = parseTRPCMessage(raw, inputTransformer);
    } catch (err) {
      sendError(ws, (raw as { id?: string | number })?.id ?? null, err, 'unknown');
      return;
    }
    const { id } = msg;
    if (id === null || id === undefined) return sendError(ws, null, new TRPCError({ code: 'PARSE_ERROR', message: '`id` is required' }), 'unknown');
    const idKey = JSON.stringify(id);
    if (msg.method === 'subscription.stop') {
      d.subs.get(idKey)?.abort();
      return;
    }
    const { path, lastEventId } = msg.params;
    let input = msg.params.input;
    if (lastEventId !== undefined) input = input && typeof input === 'object' ? { ...(input as object), lastEventId } : { lastEventId };
    const type = msg.method;
    if (type === 'subscription' && d.subs.has(idKey)) return sendError(ws, id, new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` }), type, path);

    const abort = new AbortController();
    if (type === 'subscription') d.subs.set(idKey, abort);
    let ctx: Context | undefined;
    try {
      const connCtx = await (d.ctx ?? Promise.reject(new TRPCError({ code: 'UNAUTHORIZED', message: 'connectionParams expected first' })));
      ctx = connCtx;
      if (!d.open) return;
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
    }
  }

  app.ws<SocketData>('/trpc', {
    maxPayloadLength: limits.wsMaxPayloadBytes,
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
      if (list.length > limits.trpcBatch) return sendError(ws, null, new TRPCError({ code: 'BAD_REQUEST', message: `at most ${limits.trpcBatch} calls per frame` }), 'unknown');
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
    /** Tells every client to reconnect (tRPC's `reconnect` notice), then closes the sockets. */
    shutdown() {
      clearInterval(revalidate);
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
