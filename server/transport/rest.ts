import type uWS from 'uWebSockets.js';
import { AppError } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { createContext } from '../trpc/context.ts';
import { publicMessage, toTRPCError } from '../trpc/errors.ts';
import { invokeProcedure } from '../trpc/invoke.ts';
import { parseJsonObject } from './json-body.ts';
import { copyRequest, isCrossSite, isJsonContentType, jsonHeaders, readBody, Reply, type HttpReq } from './http.ts';
import type { RestRoute } from './routes.ts';

const lower = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'del' } as const;
const anonymous = { principal: null, failure: null } as const;
/** Our pages load nothing from elsewhere; the policy makes sure of it. */
const htmlHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * Mounts every REST route: request -> input (path params, query, JSON body) -> the procedure -> JSON.
 * A GET route answers HEAD too: the same status and headers, without the body.
 */
export function mountRest(app: uWS.TemplatedApp, deps: Deps, routes: RestRoute[], opts: { constantAnswers?: boolean } = {}): void {
  for (const route of routes) {
    const constant = opts.constantAnswers === false ? null : constantAnswer(route);
    const door = (head: boolean) => (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
      // Answered inside uWS's callback: no promise, no microtask hop, the write is corked by uWS.
      if (constant?.body !== undefined && !req.getQuery()) {
        res.writeStatus('200 OK').writeHeader('content-type', jsonHeaders['content-type']);
        if (head) res.writeHeader('content-length', String(Buffer.byteLength(constant.body))).endWithoutBody();
        else res.end(constant.body);
        return;
      }
      const reply = new Reply(res, head);
      const http = copyRequest(req);
      const params = route.params.map((_, i) => req.getParameter(i) ?? '');
      handle(deps, route, reply, http, params, constant).catch((err) => sendError(deps, reply, err, route));
    };
    for (const pattern of route.patterns) {
      app[lower[route.method]](pattern, door(false));
      if (route.method === 'GET') app.head(pattern, door(true));
    }
  }
}

/** Holder of a `rest.constant` route's body, filled by its first successful answer. */
type ConstantAnswer = { body?: string };

function constantAnswer(route: RestRoute): ConstantAnswer | null {
  const rest = route.meta.rest!;
  if (!rest.constant) return null;
  if (route.method !== 'GET' || route.meta.access !== 'none' || rest.produces || route.params.length > 0 || route.procedure._def.inputs.length > 0) {
    throw new Error(`${route.path}: rest.constant is for public, inputless GET routes with a JSON answer`);
  }
  return {};
}

async function handle(deps: Deps, route: RestRoute, reply: Reply, http: HttpReq, rawParams: string[], constant: ConstantAnswer | null) {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const body = hasBody ? await readBody(reply, http.headers, deps.config.limits.jsonBodyBytes) : null;
  // Its 400s are answered before uWS parses a request pipelined behind this one: they need no I/O.
  const input = buildInput(route, http, rawParams, body);
  if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: run nothing
  const facts = { crossSite: isCrossSite(http.headers, deps.config.publicUrl), jsonBody: isJsonContentType(http.headers) };
  // Public procedures read no credential, so none is looked up.
  const ctx = route.meta.access === 'none'
    ? { deps, auth: anonymous, facts }
    : await createContext(deps, { authorization: http.headers.authorization, cookie: http.headers.cookie, guildHeader: guildOf(route, http) }, facts);
  const output = await invokeProcedure(route.procedure, {
    ctx, path: route.procedurePath, type: route.type, getRawInput: rawInput(input), signal: undefined, batchIndex: 0,
  });
  const rest = route.meta.rest!;
  const produces = rest.produces;
  if (produces) {
    const { base64, text, contentType } = output as { base64?: string; text?: string; contentType?: string };
    const headers: Record<string, string> = produces === 'text/html' ? htmlHeaders
      : produces === 'text/plain' ? { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }
      : { 'content-type': produces === 'image/*' ? contentType! : produces, 'cache-control': rest.cache ?? 'public, max-age=300', 'x-content-type-options': 'nosniff' };
    reply.send(200, headers, base64 !== undefined ? Buffer.from(base64, 'base64') : text!);
    return;
  }
  const json = JSON.stringify(output);
  if (constant) constant.body = json;
  reply.send(200, jsonHeaders, json);
}

/** The guild a session acts in: the x-guild-id header, or on `rest.guildQuery` routes the query parameter `guild`. */
function guildOf(route: RestRoute, http: HttpReq): string | undefined {
  const header = http.headers['x-guild-id'];
  if (header !== undefined || !route.meta.rest!.guildQuery || !http.query) return header;
  return new URLSearchParams(http.query).get('guild') ?? undefined;
}

/**
 * The procedure's `getRawInput`. Made by this function, not written inline: tsx keeps function
 * names, so an inline arrow in the options object cost an `Object.defineProperty` on every request.
 */
const rawInput = (input: unknown) => () => Promise.resolve(input);

function buildInput(route: RestRoute, http: HttpReq, rawParams: string[], body: Buffer | null): unknown {
  const fields: Record<string, unknown> = {};
  route.params.forEach((name, i) => {
    const suffix = route.paramSuffixes[i];
    if (suffix && !rawParams[i].endsWith(suffix)) throw new AppError('NOT_FOUND', `no route ${route.path.replace(`{${name}}${suffix}`, rawParams[i])}`);
    try {
      fields[name] = decodeURIComponent(suffix ? rawParams[i].slice(0, -suffix.length) : rawParams[i]);
    } catch {
      throw new AppError('BAD_REQUEST', `path parameter ${name} is not valid URL encoding`);
    }
  });
  if (http.query) {
    if (route.method !== 'GET') throw new AppError('BAD_REQUEST', 'query parameters are not accepted here; send fields in the JSON body');
    if (route.procedure._def.inputs.length === 0) {
      const first = new URLSearchParams(http.query).keys().next().value;
      if (first !== undefined) throw new AppError('BAD_REQUEST', `unknown query parameter ${first}`);
    }
    for (const [k, v] of queryPairs(http.query)) {
      if (k === '__proto__') throw new AppError('BAD_REQUEST', 'query parameter __proto__ is not allowed');
      if (Object.hasOwn(fields, k)) throw new AppError('BAD_REQUEST', `${k} is given twice`);
      fields[k] = v;
    }
  }
  if (body && body.length > 0) {
    if (!isJsonContentType(http.headers)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'body must be sent as Content-Type: application/json');
    for (const [k, v] of Object.entries(parseJsonObject(body.toString('utf8')))) {
      if (Object.hasOwn(fields, k)) throw new AppError('BAD_REQUEST', `${k} is given in the path or query; do not repeat it in the body`);
      fields[k] = v;
    }
    return fields;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * The query's name/value pairs, decoded as URLSearchParams does ('+' is a space) but strictly: a
 * value that is not UTF-8 (a lone surrogate's bytes, a stray %FF) is a 400 naming the parameter,
 * not text silently changed to U+FFFD.
 */
function queryPairs(query: string): [string, string][] {
  const decode = (s: string, name: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new AppError('BAD_REQUEST', `${name} must be valid Unicode (the query holds bytes that are not UTF-8, e.g. a lone surrogate)`);
    }
  };
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq), 'a query parameter name');
    pairs.push([name, eq < 0 ? '' : decode(part.slice(eq + 1), name)]);
  }
  return pairs;
}

function sendError(deps: Deps, reply: Reply, err: unknown, route?: RestRoute) {
  const error = toTRPCError(err); // a lost database connection outside a procedure (auth routes) is a 503 too
  if (error.code === 'INTERNAL_SERVER_ERROR') {
    deps.log.error('request failed', { route: route?.path, error: String(error.cause ?? error), stack: (error.cause as Error)?.stack });
  }
  reply.error({ code: error.code, message: publicMessage(error), retryAfterS: (error as AppError).retryAfterS });
}

export { sendError };
