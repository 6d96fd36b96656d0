import uWS from './uws.ts';
import type { Deps } from '../deps.ts';
import { appRouter } from '../trpc/app-router.ts';
import { mountAuthRoutes } from './auth-routes.ts';
import { mountDiscordLogin } from './discord-login.ts';
import { Reply } from './http.ts';
import { mountRest } from './rest.ts';
import { restRoutes, type RestRoute } from './routes.ts';
import { mountBoardAssets, mountRootRedirect } from './static.ts';
import { mountTrpcHttp } from './trpc-http.ts';
import { checkFramingFirst } from './framing.ts';
import { clip } from '../trpc/errors.ts';
import { mountWebSocket, type WebSocketEndpoint } from './ws.ts';
import { createFanout } from '../hub/fanout.ts';
import { knownProcedures, observeRequests } from '../metrics/requests.ts';
import { mountMetrics } from '../metrics/route.ts';

/** uWebSockets.js silently falls back to a slow JS server when its binary cannot load; we refuse that. */
export function assertNativeUws(): void {
  if (!String(uWS.App).includes('[native code]')) {
    throw new Error('uWebSockets.js native binary did not load (Node 16/18/20 on linux/darwin/win32 x64/arm64 only); refusing the JS fallback');
  }
}

export function createApp(deps: Deps): { app: uWS.TemplatedApp; routes: RestRoute[]; ws: WebSocketEndpoint } {
  assertNativeUws();
  const routes = restRoutes(appRouter);
  const restPatterns = new Set(routes.flatMap((r) => r.patterns));
  // Every route mounted below, any method and the WebSocket upgrade, checks the request's framing
  // first, and is counted and logged when answered (metrics/requests.ts).
  const app = observeRequests(checkFramingFirst(uWS.App()), {
    metrics: deps.metrics, log: deps.log, procedures: knownProcedures(appRouter),
    doorOf: (pattern) => (pattern === '/trpc' ? 'ws' : pattern === '/trpc/*' ? 'trpc_http' : restPatterns.has(pattern) ? 'rest' : 'http'),
  });
  deps.fanout = createFanout(app);
  const ws = mountWebSocket(app, deps);
  mountRest(app, deps, routes);
  mountTrpcHttp(app, deps);
  mountAuthRoutes(app, deps);
  mountDiscordLogin(app, deps);
  mountRootRedirect(app);
  mountBoardAssets(app);
  mountMetrics(app, deps.metrics, deps.config.metricsToken, deps.log);
  // Anything else, any method: 404 with the one error shape (for HEAD without the body, as for any HEAD).
  app.any('/*', (res, req) => {
    const path = req.getUrl();
    const method = req.getCaseSensitiveMethod().toUpperCase();
    new Reply(res, method === 'HEAD').json(404, { error: `no route ${method} ${clip(path, 200)}` });
  });
  return { app, routes, ws };
}

/** The binding exports it at the top; its types declare it in an enum `ListenOptions` that does not exist at run time. */
const { LIBUS_LISTEN_EXCLUSIVE_PORT } = uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number };

/**
 * Listens on host:port, exclusively: uWS sets SO_REUSEPORT unless told not to, and a second server
 * started by mistake on the same port would silently take half the requests.
 */
export function listen(app: uWS.TemplatedApp, host: string, port: number): Promise<{ port: number; close: () => void }> {
  const listenExclusive = app.listen as unknown as (host: string, port: number, options: number, cb: (token: uWS.us_listen_socket | false) => void) => void;
  return new Promise((resolve, reject) => {
    listenExclusive.call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, (token) => {
      if (!token) return reject(new Error(`cannot listen on ${host}:${port}: is another server running there?`));
      resolve({ port: uWS.us_socket_local_port(token), close: () => uWS.us_listen_socket_close(token) });
    });
  });
}
