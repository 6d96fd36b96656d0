import { randomBytes } from 'node:crypto';
import type uWS from '../transport/uws.ts';
import type { Log } from '../core/log.ts';
import type { Door, Metrics } from './metrics.ts';

/** One request as the access log and the metrics see it. */
interface RequestRecord {
  id: string;
  door: Door;
  method: string;
  route: string;
  started: number;
  status: number;
  /** The guild of the verified credential, when a door learned it. */
  guildId: string | null;
  done: boolean;
}

const RECORD = Symbol('request');
/** An incoming X-Request-Id is kept when it looks like an id (a proxy's or a client's); anything else gets ours. */
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Ids of this process: a random prefix and a counter (unique without a random draw per request). */
const node = randomBytes(4).toString('hex');
let sequence = 0;

/** `X-Request-Id` of the request, or a new one. */
export function requestId(incoming: string): string {
  return SANE_ID.test(incoming) ? incoming : `${node}-${(++sequence).toString(36)}`;
}

/** The guild the request acts in, once its credential is verified: it goes into the access log line. */
export function noteGuild(res: object, guildId: string | null | undefined): void {
  const record = (res as { [RECORD]?: RequestRecord })[RECORD];
  if (record && guildId) record.guildId = guildId;
}

/** `/api/v1/units/:callsign` → `/api/v1/units/{callsign}`: the route label, never the URL asked for. */
export function templateOf(pattern: string): string {
  return pattern.replace(/:(\w+)/g, '{$1}');
}

/** The route label of a /trpc request: its procedure when it names one this server has, else a fixed word. */
export function trpcRoute(url: string, procedures: ReadonlySet<string>): string {
  const paths = url.slice('/trpc/'.length);
  if (paths.includes(',')) return '(batch)';
  return procedures.has(paths) ? paths : '(unknown)';
}

/** The procedure paths of `router`: the only ones that become labels (anything else a client names is `(unknown)`). */
export function knownProcedures(router: { _def: { procedures: object } }): ReadonlySet<string> {
  return new Set(Object.keys(router._def.procedures));
}

/** Close codes the server or a well-behaved client uses keep their number as label; anything else is `other`. */
const closeCodes = new Set([1000, 1001, 1005, 1006, 1007, 1008, 1009, 1011, 1012, 4401, 4408]);
export function wsCloseLabel(code: number): string {
  return closeCodes.has(code) ? String(code) : 'other';
}

export interface RequestObserver {
  metrics: Metrics;
  log: Log;
  /** Which door a route pattern belongs to. */
  doorOf(pattern: string): Door;
  procedures: ReadonlySet<string>;
}

type Handler = (res: uWS.HttpResponse, req: uWS.HttpRequest) => void | Promise<void>;
type Upgrade = NonNullable<uWS.WebSocketBehavior<unknown>['upgrade']>;
const methods = ['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'connect', 'trace', 'any'] as const;

/**
 * Makes every route registered on `app` from now on (any method, and WebSocket upgrades) count its
 * request and write its access log line when it is answered (or the client left first: 499), and
 * answer `X-Request-Id`. One place every door passes through, as the framing check is.
 */
export function observeRequests(app: uWS.TemplatedApp, observer: RequestObserver): uWS.TemplatedApp {
  for (const method of methods) {
    const register = app[method].bind(app) as (pattern: uWS.RecognizedString, handler: Handler) => uWS.TemplatedApp;
    app[method] = (pattern, handler) => {
      const text = String(pattern);
      const door = observer.doorOf(text);
      // The catch-all answers unknown URLs: they never become labels.
      const route = text === '/*' ? '(unmatched)' : text === '/trpc/*' ? null : templateOf(text);
      return register(pattern, (res, req) => {
        const record = start(req, door, route ?? trpcRoute(req.getUrl(), observer.procedures));
        instrument(res, record, observer);
        return handler(res, req);
      });
    };
  }
  const registerWs = app.ws.bind(app);
  app.ws = (pattern, behavior) => {
    const upgrade = behavior.upgrade as Upgrade | undefined;
    if (!upgrade) return registerWs(pattern, behavior);
    const route = templateOf(String(pattern));
    return registerWs(pattern, {
      ...behavior,
      upgrade: (res, req, context) => {
        instrument(res, start(req, 'ws', route), observer);
        return upgrade(res, req, context);
      },
    });
  };
  return app;
}

function start(req: uWS.HttpRequest, door: Door, route: string): RequestRecord {
  return {
    id: requestId(req.getHeader('x-request-id')), door, method: req.getCaseSensitiveMethod().toUpperCase(), route,
    started: performance.now(), status: 0, guildId: null, done: false,
  };
}

/** uWS's own methods of a response, taken before they are shadowed. */
type Natives = Pick<uWS.HttpResponse, 'writeStatus' | 'writeHeader' | 'end' | 'endWithoutBody' | 'upgrade' | 'onAborted'>;
type Observed = uWS.HttpResponse & { [RECORD]: RequestRecord & { natives: Natives; observer: RequestObserver } };

/**
 * Hooks the response's writing methods (own properties shadowing uWS's, for this request only;
 * the same functions for every request, so nothing is allocated for them): the status is taken
 * from `writeStatus`, `X-Request-Id` is written after it (or before the body when no status was
 * written: uWS then answers 200), and the request is finished when the answer ends, the connection
 * is upgraded, or the client left before (499).
 */
function instrument(res: uWS.HttpResponse, record: RequestRecord, observer: RequestObserver): void {
  const { writeStatus, writeHeader, end, endWithoutBody, upgrade, onAborted } = res;
  (res as Observed)[RECORD] = Object.assign(record, { natives: { writeStatus, writeHeader, end, endWithoutBody, upgrade, onAborted }, observer });
  res.writeStatus = observedWriteStatus;
  res.end = observedEnd;
  res.endWithoutBody = observedEndWithoutBody;
  res.onAborted = observedOnAborted;
  if (record.door === 'ws') res.upgrade = observedUpgrade;
}

function observedWriteStatus(this: Observed, status: uWS.RecognizedString): uWS.HttpResponse {
  const r = this[RECORD];
  r.status = parseInt(String(status), 10) || 200;
  r.natives.writeStatus.call(this, status);
  r.natives.writeHeader.call(this, 'x-request-id', r.id);
  return this;
}

/** Arguments are handed on as given: uWS tells an argument left out from one passed as undefined. */
function observedEnd(this: Observed, ...args: Parameters<uWS.HttpResponse['end']>): uWS.HttpResponse {
  const r = this[RECORD];
  if (r.status === 0) answeredWithoutStatus(this, r);
  const out = r.natives.end.apply(this, args);
  finish(r);
  return out;
}

function observedEndWithoutBody(this: Observed, ...args: Parameters<uWS.HttpResponse['endWithoutBody']>): uWS.HttpResponse {
  const r = this[RECORD];
  if (r.status === 0) answeredWithoutStatus(this, r);
  const out = r.natives.endWithoutBody.apply(this, args);
  finish(r);
  return out;
}

function observedUpgrade(this: Observed, ...args: Parameters<uWS.HttpResponse['upgrade']>): void {
  const r = this[RECORD];
  (r.natives.upgrade as (...a: unknown[]) => void).apply(this, args);
  r.status = 101;
  finish(r);
}

function observedOnAborted(this: Observed, handler: () => void): uWS.HttpResponse {
  const r = this[RECORD];
  return r.natives.onAborted.call(this, () => {
    if (!r.done) r.status = 499;
    finish(r);
    handler();
  });
}

/** uWS writes "200 OK" itself when a header or the body comes first. */
function answeredWithoutStatus(res: Observed, r: Observed[typeof RECORD]): void {
  r.status = 200;
  r.natives.writeHeader.call(res, 'x-request-id', r.id);
}

function finish(r: Observed[typeof RECORD]): void {
  if (r.done) return;
  r.done = true;
  finished(r, r.observer);
}

function finished(record: RequestRecord, { metrics, log }: RequestObserver): void {
  const seconds = (performance.now() - record.started) / 1000;
  metrics.request(record.door, record.method, record.route, record.status, seconds);
  (log.access ?? log.info)('request', {
    requestId: record.id, door: record.door, method: record.method, route: record.route, status: record.status,
    ms: Math.round(seconds * 10_000) / 10, guildId: record.guildId,
  });
}
