import type uWS from 'uWebSockets.js';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Deps } from '../deps.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContext } from '../trpc/context.ts';
import { copyRequest, isCrossSite, isJsonContentType, readBody, Reply } from './http.ts';
import { sendError } from './rest.ts';

/** tRPC over HTTP at /trpc through the fetch adapter: the same procedures the REST facade calls. Batches are capped. */
export function mountTrpcHttp(app: uWS.TemplatedApp, deps: Deps): void {
  const handler = (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const reply = new Reply(res);
    const http = copyRequest(req, true);
    (async () => {
      const body = http.method === 'GET' || http.method === 'HEAD' ? null : await readBody(reply, http.headers, deps.config.limits.jsonBodyBytes);
      const url = `http://localhost${http.path}${http.query ? `?${http.query}` : ''}`;
      const request = new Request(url, { method: http.method, headers: http.headers, body: body && body.length ? new Uint8Array(body) : undefined });
      const response = await fetchRequestHandler({
        endpoint: '/trpc',
        req: request,
        router: appRouter,
        allowBatching: true,
        maxBatchSize: deps.config.limits.trpcBatch,
        createContext: () => createContext(
          deps,
          { authorization: http.headers.authorization, cookie: http.headers.cookie, guildHeader: http.headers['x-guild-id'] },
          { crossSite: isCrossSite(http.headers, deps.config.publicUrl), jsonBody: isJsonContentType(http.headers) },
        ),
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('trpc call failed', { path, error: String(error.cause ?? error) });
        },
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        headers[k] = v;
      });
      reply.send(response.status, headers, new Uint8Array(await response.arrayBuffer()));
    })().catch((err) => sendError(deps, reply, err));
  };
  app.get('/trpc/*', handler);
  app.post('/trpc/*', handler);
}
