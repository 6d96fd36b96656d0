import type uWS from 'uWebSockets.js';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContext } from '../trpc/context.ts';
import { copyRequest, isCrossSite, isJsonContentType, readBody, Reply, type HttpReq } from './http.ts';
import { sendError } from './rest.ts';
import { queryPairs, utf8Text } from './strict-text.ts';
import { noteGuild } from '../metrics/requests.ts';

/**
 * tRPC over HTTP at /trpc through the fetch adapter: the same procedures the REST facade calls.
 * Batches are capped. HEAD runs the GET (queries only) and answers its status and headers without the body.
 * The query and a JSON body must be UTF-8 (the adapter would turn what is not into U+FFFD): a
 * refused one fails every call of the request with 400 naming the problem, in tRPC's error shape.
 */
export function mountTrpcHttp(app: uWS.TemplatedApp, deps: Deps): void {
  const door = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const reply = new Reply(res, head);
    const http = copyRequest(req, true);
    (async () => {
      const method = head ? 'GET' : http.method;
      const body = method === 'GET' ? null : await readBody(reply, http.headers, deps.config.limits.jsonBodyBytes);
      if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: run nothing
      const refused = notUtf8(http, body);
      const url = `http://localhost${http.path}${http.query ? `?${http.query}` : ''}`;
      const request = new Request(url, { method, headers: http.headers, body: !refused && body && body.length ? new Uint8Array(body) : undefined });
      const response = await fetchRequestHandler({
        endpoint: '/trpc',
        req: request,
        router: appRouter,
        allowBatching: true,
        maxBatchSize: deps.config.limits.trpcBatch,
        // A context that cannot be made fails each call with its error (after a 404 or 405 of the call's own).
        createContext: () => refused ? Promise.reject(refused) : createContext(
          deps,
          { authorization: http.headers.authorization, cookie: http.headers.cookie, guildHeader: http.headers['x-guild-id'] },
          { crossSite: isCrossSite(http.headers, deps.config.publicUrl), jsonBody: isJsonContentType(http.headers) },
        ).then((ctx) => {
          noteGuild(res, ctx.auth.principal?.guildId);
          return ctx;
        }),
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error('trpc call failed', { path, error: String(error.cause ?? error), stack: (error.cause ?? error).stack });
        },
        // A 503 (database unavailable) or 429 says when to retry, as on the REST door.
        responseMeta: ({ errors }) => {
          const retryAfterS = Math.max(0, ...errors.map((e) => (e as AppError).retryAfterS ?? 0));
          return retryAfterS ? { headers: { 'retry-after': String(retryAfterS) } } : {};
        },
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding') headers[k] = v; // uWS frames the body itself
      });
      reply.send(response.status, headers, new Uint8Array(await response.arrayBuffer()));
    })().catch((err) => sendError(deps, reply, err));
  };
  app.get('/trpc/*', door(false));
  app.head('/trpc/*', door(true));
  app.post('/trpc/*', door(false));
}

/** The error for a query or JSON body that is not UTF-8 text, or null when they are. */
function notUtf8(http: HttpReq, body: Buffer | null): AppError | null {
  try {
    if (http.query) queryPairs(http.query);
    if (body?.length && isJsonContentType(http.headers)) utf8Text(body, 'body');
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}
