import type uWS from 'uWebSockets.js';
import { TRPCError } from '@trpc/server';
import { AppError, reasonOf } from '../core/errors.ts';
import type { Deps } from '../deps.ts';
import { createContext } from '../trpc/context.ts';
import { clip, describeIssues, publicMessage, toTRPCError, type PlaceOf } from '../trpc/errors.ts';
import { callProcedure } from '../trpc/call.ts';
import { parseJsonObject } from './json-body.ts';
import { queryPairs, utf8Text } from './strict-text.ts';
import { contentDisposition, readMultipartFile, type MultipartRead } from './multipart.ts';
import { checkAccess } from '../trpc/init.ts';
import type { Context } from '../trpc/context.ts';
import type { Meta } from '../trpc/meta.ts';
import { copyRequest, hasNoBody, isCrossSite, isJsonContentType, jsonHeaders, readBody, Reply, type HttpReq } from './http.ts';
import type { RestRoute } from './routes.ts';
import { noteGuild } from '../metrics/requests.ts';

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
export function mountRest(app: uWS.TemplatedApp, deps: Deps, routes: RestRoute[]): void {
  for (const route of routes) {
    const constant = constantAnswer(route);
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
  const rest = route.meta.rest!;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  // A multipart route's body streams into its parser from here on (uWS hands the body to onData only now).
  const upload = rest.multipart ? readMultipartFile(reply, http.headers, rest.multipart) : null;
  const body = hasBody && !upload ? await readBody(reply, http.headers, rest.maxBodyBytes ?? deps.config.limits.jsonBodyBytes) : null;
  // Its 400s are answered before uWS parses a request pipelined behind this one: they need no I/O.
  let input: unknown;
  try {
    input = buildInput(route, http, rawParams, body);
  } catch (err) {
    upload?.stop(err); // a refused upload's body is dropped unread from here on
    throw err;
  }
  // A multipart body is not JSON, and a form can be sent cross-site: a session still needs x-guild-id
  // (a header no HTML form can send) and passes the cross-site check, which keep forged uploads out.
  const facts = {
    crossSite: isCrossSite(http.headers, deps.config.publicUrl), jsonBody: upload !== null || isJsonContentType(http.headers), bodyless: hasNoBody(http.headers),
  };
  // Public procedures read no credential, so none is looked up.
  const makeContext = (): Promise<Context> => route.meta.access === 'none'
    ? Promise.resolve({ deps, auth: anonymous, facts })
    : createContext(deps, { authorization: http.headers.authorization, cookie: http.headers.cookie, guildHeader: guildOf(route, http) }, facts);
  // An upload's credential is checked while its body streams in; any other request's after it was read.
  const early = upload ? makeContext() : null;
  if (upload) input = { ...(input as object | undefined), [rest.multipart!.field]: await uploadedFile(early!, route.meta, upload) };
  if (!(await reply.ready())) return; // a request pipelined behind this one closed the connection: run nothing
  const ctx = await (early ?? makeContext());
  noteGuild(reply.res, ctx.auth.principal?.guildId);
  let output: unknown;
  try {
    output = await callProcedure(ctx, route.procedurePath, route.type, input);
  } catch (err) {
    throw withPlaces(err, placesOf(route, http));
  }
  const produces = rest.produces;
  if (produces) {
    const { base64, text, contentType, filename } = output as { base64?: string; text?: string; contentType?: string; filename?: string };
    const headers: Record<string, string> = produces === 'text/html' ? htmlHeaders
      : produces === 'text/plain' ? { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }
      : { 'content-type': produces === 'image/*' ? contentType! : produces, 'cache-control': rest.cache ?? 'public, max-age=300', 'x-content-type-options': 'nosniff' };
    if (filename !== undefined) headers['content-disposition'] = contentDisposition(filename);
    reply.send(200, headers, base64 !== undefined ? Buffer.from(base64, 'base64') : text!);
    return;
  }
  const json = JSON.stringify(output);
  if (constant) constant.body = json;
  reply.send(200, jsonHeaders, json);
}

/**
 * The uploaded file, once its last byte arrived. A caller the procedure would refuse anyway (no or a
 * bad credential, a module switched off, a missing capability or scope) is refused as soon as its
 * credential is checked, and the rest of its body is dropped unread: an unauthorised upload never
 * makes the server hold its bytes. The procedure checks everything again; this only answers sooner.
 */
async function uploadedFile(context: Promise<Context>, meta: Meta, upload: MultipartRead): Promise<{ name: string; data: Buffer }> {
  const early = context.then((ctx) => refuseEarly(ctx, meta)).catch((err) => {
    upload.stop(err); // the upload fails with this error; the rest of its body is dropped
    throw err;
  });
  const [file] = await Promise.all([upload.file, early]);
  return { name: file.name, data: file.data }; // the client's Content-Type of the part decides nothing
}

async function refuseEarly(ctx: Context, meta: Meta): Promise<void> {
  const p = ctx.auth.principal;
  if (!p) throw ctx.auth.failure ?? new AppError('UNAUTHORIZED', 'missing credential: send "Authorization: Bearer <API key>" or a session cookie with x-guild-id', { reason: 'missing_credential' });
  if (p.kind === 'session' && ctx.facts.crossSite) throw new AppError('FORBIDDEN', 'cross-site request refused', { reason: 'csrf' });
  if (meta.module) {
    const mods = ctx.deps.guilds.cachedModules(p.guildId) ?? await ctx.deps.guilds.modules(p.guildId).catch(() => null);
    if (mods && !mods[meta.module]) throw new AppError('NOT_FOUND', `module "${meta.module}" is switched off for this guild`, { reason: 'module_off', params: { module: meta.module } });
  }
  checkAccess(p, meta);
}

/** The guild a session acts in: the x-guild-id header, or on `rest.guildQuery` routes the query parameter `guild`. */
function guildOf(route: RestRoute, http: HttpReq): string | undefined {
  const header = http.headers['x-guild-id'];
  if (header !== undefined || !route.meta.rest!.guildQuery || !http.query) return header;
  return new URLSearchParams(http.query).get('guild') ?? undefined;
}

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
      if (first !== undefined) throw new AppError('BAD_REQUEST', `unknown query parameter ${clip(first, 40)}`);
    }
    for (const [k, v] of queryPairs(http.query)) {
      if (k === '__proto__') throw new AppError('BAD_REQUEST', 'query parameter __proto__ is not allowed');
      if (Object.hasOwn(fields, k)) throw new AppError('BAD_REQUEST', `${clip(k, 40)} is given twice`);
      fields[k] = v;
    }
  }
  if (body && body.length > 0) {
    if (!isJsonContentType(http.headers)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'body must be sent as Content-Type: application/json');
    for (const [k, v] of Object.entries(parseJsonObject(utf8Text(body, 'body')))) {
      if (Object.hasOwn(fields, k)) throw new AppError('BAD_REQUEST', `${clip(k, 40)} is given in the path or query; do not repeat it in the body`);
      fields[k] = v;
    }
    return fields;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * Where each field of a REST input came from, for the messages of a refused input: path
 * parameters, query parameters (GET), the JSON body (other methods). Worked out only for an error.
 */
function placesOf(route: RestRoute, http: HttpReq): PlaceOf {
  let fromQuery: Set<string> | null = null;
  const other = route.method === 'GET' ? 'query' : route.method === 'DELETE' ? 'path' : 'body';
  return (field) => {
    if (field === undefined) return other;
    if (route.params.includes(field)) return 'path';
    fromQuery ??= new Set(http.query ? queryPairs(http.query).map(([k]) => k) : []);
    return fromQuery.has(field) ? 'query' : other;
  };
}

/** A refused input's validation issues as one message naming where each field came from. */
function withPlaces(err: unknown, placeOf: PlaceOf): unknown {
  const issues = err instanceof TRPCError && err.code === 'BAD_REQUEST' ? (err.cause as { issues?: unknown } | undefined)?.issues : undefined;
  return Array.isArray(issues) ? new AppError('BAD_REQUEST', describeIssues(issues, placeOf), { cause: err, reason: 'validation' }) : err;
}

function sendError(deps: Deps, reply: Reply, err: unknown, route?: RestRoute) {
  const error = toTRPCError(err); // a lost database connection outside a procedure (auth routes) is a 503 too
  if (error.code === 'INTERNAL_SERVER_ERROR') {
    deps.log.error('request failed', { route: route?.path, error: String(error.cause ?? error), stack: (error.cause as Error)?.stack });
  }
  reply.error({ code: error.code, message: publicMessage(error), retryAfterS: (error as AppError).retryAfterS, ...reasonOf(error) });
}

export { sendError };
