import type uWS from 'uWebSockets.js';
import { getErrorShape, getTRPCErrorFromUnknown, isTrackedEnvelope, transformTRPCResponse, TRPCError } from '@trpc/server';
import { isAsyncIterable, parseConnectionParamsFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { Deps } from '../deps.ts';
import { appRouter } from '../trpc/app-router.ts';
import type { Context } from '../trpc/context.ts';
import { callProcedure } from '../trpc/call.ts';
import { isCrossSite } from './http.ts';
import { frameText, idOf, parseClientMessage } from './ws-messages.ts';
import { CredentialRevoked, createSocketCredentials } from './ws-credentials.ts';
import { canonicalIp, clientAddress, createPendingSockets } from './ws-pending.ts';
import { closeWith, type Socket, type SocketData } from './ws-socket.ts';
import { statusOf } from '../core/errors.ts';
import { reasonOfStatus } from '../../contract/errors.ts';
import { knownProcedures, wsCloseLabel } from '../metrics/requests.ts';

const config = appRouter._def._config;
const procedures = knownProcedures(appRouter);
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

/**
 * tRPC v11's WebSocket protocol on uWS (the stock `wsLink` works unchanged): queries, mutations and
 * subscriptions on one socket, batches, `subscription.stop`, text PING/PONG, connectionParams,
 * `reconnect` on shutdown. Live subscriptions attach to the hub's serialize-once fan-out; other
 * subscriptions run like the stock adapter. A socket must prove a principal within
 * `wsAuthTimeoutMs` (else 4408), and sockets that have not yet are capped per client address and
 * in total at the upgrade (ws-pending.ts); every call checks the credential again
 * (ws-credentials.ts). Limits (frame size, message rate, sockets per credential, backpressure)
 * close the socket with a reason; subscriptions over their limits and client mistakes are answered
 * with a 4xx error (logged at debug) on an open socket; the server keeps running.
 */
export function mountWebSocket(app: uWS.TemplatedApp, deps: Deps) {
  const { limits } = deps.config;
  const sockets = new Set<Socket>();
  /** Open subscriptions per credential (principal key), across its sockets on this node. */
  const subsByPrincipal = new Map<string, number>();
  const trustedProxies = new Set(deps.config.trustedProxies.map(canonicalIp));
  const pending = createPendingSockets<Socket>(
    { timeoutMs: limits.wsAuthTimeoutMs, max: limits.wsPendingMax, perAddress: limits.wsPendingPerAddress },
    (ws) => closeWith(ws, 4408, `not authenticated within ${pending.seconds} s${ws.getUserData().dbUnavailable ? ' (database unavailable): reconnect' : ''}`),
  );
  const credentials = createSocketCredentials(deps, (ws) => pending.settle(ws));
  /** Sends refused at the backpressure limit, and closes by code label (for the metrics). */
  let slowConsumers = 0;
  const closes = new Map<string, number>();

  /** One call over a socket answered (data, started, or an error): counted, and logged at debug. */
  function recordCall(type: string, path: unknown, status: number, started: number, ctx?: Context) {
    const route = typeof path === 'string' && procedures.has(path) ? path : '(unknown)';
    const seconds = (performance.now() - started) / 1000;
    deps.metrics.request('ws', type, route, status, seconds);
    deps.log.debug('ws call', { door: 'ws', method: type, route, status, ms: Math.round(seconds * 10_000) / 10, guildId: ctx?.auth.principal?.guildId ?? null });
  }

  // The boards' degraded signal: every live subscription hears when PostgreSQL stops or starts answering.
  deps.fanout?.setDatabaseUp(deps.dbHealth.up);
  const offHealth = deps.dbHealth.onChange((up) => deps.fanout?.setDatabaseUp(up));

  /** Refuses an upgrade with `{error}` and closes the connection (its file descriptor is what a flood is after). */
  function refuse(res: uWS.HttpResponse, status: string, error: string, headers: Record<string, string> = {}) {
    res.cork(() => {
      res.writeStatus(status).writeHeader('content-type', 'application/json');
      for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
      res.end(JSON.stringify({ error, reason: reasonOfStatus(Number.parseInt(status, 10)) }), true);
    });
  }

  function send(ws: Socket, msg: unknown) {
    const d = ws.getUserData();
    if (!d.open) return;
    const text = JSON.stringify(transformTRPCResponse(config, msg as never));
    ws.cork(() => {
      if (ws.send(text, false) !== 2) return;
      slowConsumers++;
      closeWith(ws, 1008, 'backpressure limit');
    });
  }

  /**
   * Answers a failed call. Only server faults (500) are logged as errors: anything a client got
   * wrong (4xx) is its own business, and a flood of bad frames must not flood the log.
   */
  function sendError(ws: Socket, id: string | number | null, cause: unknown, type: 'query' | 'mutation' | 'subscription' | 'unknown', path?: string, ctx?: Context, started: number | null = performance.now()) {
    const error = cause instanceof TRPCError ? cause : getTRPCErrorFromUnknown(cause);
    if (started !== null) recordCall(type, path, statusOf(error.code), started, ctx); // null: the call was counted when it started
    if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('ws call failed', { path, error: String(error.cause ?? error), stack: ((error.cause as Error | undefined) ?? error).stack });
    else deps.log.debug('ws call refused', { path, code: error.code, error: error.message });
    send(ws, { id, error: getErrorShape({ config, error, type, path, input: undefined, ctx }) });
  }

  async function handle(ws: Socket, raw: unknown) {
    const started = performance.now();
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
      if (d.subs.has(idKey)) return sendError(ws, id, new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` }), type, path, undefined, started);
      if (d.subs.size >= subscriptionLimits.perSocket) {
        return sendError(ws, id, new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `at most ${subscriptionLimits.perSocket} open subscriptions per socket: stop one first` }), type, path, undefined, started);
      }
    }

    const abort = new AbortController();
    if (type === 'subscription') d.subs.set(idKey, abort);
    let ctx: Context | undefined;
    let counted: string | undefined;
    let recorded = false;
    try {
      const connCtx = await credentials.callContext(ws);
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
      const result = await callProcedure(callCtx, path, type, input, abort.signal);
      if (type !== 'subscription') {
        send(ws, { id, result: { type: 'data', data: result } });
        recordCall(type, path, 200, started, ctx);
        return;
      }
      if (!isAsyncIterable(result)) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `subscription ${path} did not return an async iterable` });
      send(ws, { id, result: { type: 'started' } });
      recordCall(type, path, 200, started, ctx);
      recorded = true;
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
      sendError(ws, id, err, type, path, ctx, recorded ? null : started);
      if (err instanceof CredentialRevoked) credentials.revoked(ws);
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
      const address = clientAddress(Buffer.from(res.getRemoteAddressAsText()).toString(), req.getHeader('x-forwarded-for'), trustedProxies);
      // Browsers send cookies on cross-site upgrades (CSWSH): a cookie is honoured only from our own origin.
      if (cookie && (headers.origin || headers['sec-fetch-site']) && isCrossSite(headers, deps.config.publicUrl)) return refuse(res, '403 Forbidden', 'cross-site WebSocket refused');
      // Every socket starts unauthenticated (even one with a cookie: it is checked after the upgrade).
      const refusal = pending.refusal(address);
      if (refusal) {
        return refuse(res, refusal.status === 429 ? '429 Too Many Requests' : '503 Service Unavailable', refusal.message, { 'retry-after': String(pending.seconds) });
      }
      res.upgrade<SocketData>(
        { cookie, address, wantsParams: query.get('connectionParams') === '1', open: true, subs: new Map(), window: { start: Date.now(), count: 0 } },
        key, protocol, extensions, context,
      );
    },

    open(ws) {
      sockets.add(ws);
      const d = ws.getUserData();
      pending.add(ws, d.address);
      if (!d.wantsParams) credentials.connect(ws, { cookie: d.cookie });
    },

    message(ws, data) {
      const d = ws.getUserData();
      if (data.byteLength > limits.wsMaxPayloadBytes) return closeWith(ws, 1009, `frame too big (at most ${limits.wsMaxPayloadBytes} bytes)`);
      const now = Date.now();
      if (now - d.window.start > 10_000) d.window = { start: now, count: 0 };
      if (++d.window.count > limits.wsMessagesPer10s) return closeWith(ws, 1008, `message rate limit (${limits.wsMessagesPer10s} per 10 s)`);
      const text = frameText(data);
      if (text === null) return closeWith(ws, 1007, 'frame is not valid UTF-8');
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
      if (d.wantsParams && !d.credentials) {
        const frame = parsed as { method?: unknown; data?: unknown };
        if (frame?.method !== 'connectionParams') return closeWith(ws, 1008, 'expected a connectionParams frame first');
        try {
          const params = parseConnectionParamsFromUnknown(frame.data);
          credentials.connect(ws, { cookie: d.cookie, authorization: params?.authorization, guildHeader: params?.guildId });
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
      for (const m of list) void handle(ws, m);
    },

    close(ws, code) {
      const label = wsCloseLabel(code);
      closes.set(label, (closes.get(label) ?? 0) + 1);
      const d = ws.getUserData();
      d.open = false;
      sockets.delete(ws);
      for (const ac of d.subs.values()) ac.abort();
      pending.settle(ws);
      credentials.closed(ws);
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
      return { sockets: sockets.size, pending: pending.size, subscriptions, credentials: credentials.count, subscriptionsByCredential: counted };
    },
    /** Counts kept for the metrics: sends refused at the backpressure limit, closes by code label. */
    get counts(): { slowConsumers: number; closes: ReadonlyMap<string, number> } {
      return { slowConsumers, closes };
    },
    /** Tells every client to reconnect (tRPC's `reconnect` notice), then closes the sockets. */
    shutdown() {
      credentials.stop();
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
