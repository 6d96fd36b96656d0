import type uWS from 'uWebSockets.js';
import { AppError, statusOf } from '../core/errors.ts';
import { reasonOfStatus } from '../../contract/errors.ts';

/** What a handler may read of a request: copied out of uWS's stack-allocated request at once. */
export interface HttpReq {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
}

/** The request headers any handler reads; nothing else is copied. */
const wanted = ['authorization', 'cookie', 'x-guild-id', 'content-type', 'content-length', 'transfer-encoding', 'origin', 'sec-fetch-site', 'host'] as const;

/** Copies the request; `allHeaders` for doors that hand every header on (the tRPC fetch adapter). */
export function copyRequest(req: uWS.HttpRequest, allHeaders = false): HttpReq {
  const headers: Record<string, string> = {};
  if (allHeaders) {
    req.forEach((k, v) => {
      headers[k] = k in headers ? `${headers[k]}, ${v}` : v;
    });
  } else {
    for (const name of wanted) {
      const value = req.getHeader(name);
      if (value !== '') headers[name] = value;
    }
  }
  return { method: req.getCaseSensitiveMethod().toUpperCase(), path: req.getUrl(), query: req.getQuery() ?? '', headers };
}

export const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' } as const;

/**
 * A response that knows whether the client went away; every write is corked and skipped when aborted.
 *
 * Pipelining: uWS refuses a request that arrives while an earlier answer on its connection is still
 * pending: it closes the connection at once, and the earlier request is aborted unanswered. An
 * asynchronous door therefore awaits `ready()` once it has read its request and before it does
 * anything: the connection is held (uWS stops reading the socket, so a request the client sends
 * meanwhile waits in the kernel and is parsed after this answer, in order), and `ready()` resolves
 * after uWS has parsed everything it read together with the request; false when a request
 * pipelined in that same read has closed the connection, so nothing runs whose answer could not
 * be delivered.
 *
 * HEAD: a reply made for a HEAD request writes the status and headers of the answer, with the
 * Content-Length the body would have, and no body.
 */
export class Reply {
  aborted = false;
  private held = false;
  private goneListeners: (() => void)[] = [];
  constructor(readonly res: uWS.HttpResponse, readonly head = false) {
    res.onAborted(() => {
      this.aborted = true;
      for (const listener of this.goneListeners.splice(0)) listener();
    });
  }

  /** Calls `listener` if the connection closes before the answer is written (a body reader stops waiting then). */
  whenGone(listener: () => void): void {
    this.goneListeners.push(listener);
  }

  /** The request is read: read nothing more from the connection until this answer is written. */
  hold(): void {
    if (this.held || this.aborted) return;
    this.held = true;
    this.res.pause();
  }

  /**
   * Holds the connection and resolves once uWS has parsed what it read with this request: true
   * when the request may run, false when the connection closed meanwhile (run nothing then).
   */
  async ready(): Promise<boolean> {
    this.hold();
    await afterRead();
    return !this.aborted;
  }

  send(status: number, headers: Record<string, string>, body: string | Uint8Array): void {
    if (this.aborted) return;
    this.aborted = true; // one response per request
    this.res.cork(() => {
      if (this.held) this.res.resume();
      this.res.writeStatus(statusLine(status));
      for (const [k, v] of Object.entries(headers)) this.res.writeHeader(k, v);
      if (!this.head) this.res.end(body);
      else {
        // endWithoutBody(length) of this uWS build leaves the response pending (the next request on
        // the connection would close it), so the length goes in as a header of our own.
        this.res.writeHeader('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
        this.res.endWithoutBody();
      }
    });
  }

  /** An error body `{ error }` written here gets the general `reason` of its status too (contract/errors.ts). */
  json(status: number, value: unknown, headers: Record<string, string> = {}): void {
    const body = status >= 400 && isBareError(value) ? { ...value, reason: reasonOfStatus(status) } : value;
    this.send(status, { ...jsonHeaders, ...headers }, JSON.stringify(body));
  }

  /** `{ error, reason, params? }`: `reason` as given, else the general one of the status (contract/errors.ts). */
  error(err: AppError | { code: string; message: string; retryAfterS?: number; reason?: string; params?: Readonly<Record<string, string>> }): void {
    const headers: Record<string, string> = {};
    if (err.retryAfterS) headers['retry-after'] = String(err.retryAfterS);
    const status = statusOf(err.code);
    this.json(status, { error: err.message, reason: err.reason ?? reasonOfStatus(status), ...(err.params ? { params: err.params } : {}) }, headers);
  }
}

function isBareError(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string' && !('reason' in value);
}

/**
 * Resolves after uWS has parsed the rest of what it read with the current request (setImmediate
 * runs after the poll phase that delivered it). Microtasks and nextTicks do not: uWS runs them
 * between one request's handler and the parsing of the next.
 */
function afterRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Reads the body, counting bytes as they arrive and giving up at `limit` (413) without buffering
 * more. uWS neuters each chunk after the callback, so chunks are copied. Holds the connection once
 * the body is complete (see Reply). Settles whatever happens: when the connection closes before
 * the body is complete (the client left, uWS refused a malformed chunk) it rejects, so the handler
 * waiting for it ends instead of waiting forever.
 */
export function readBody(reply: Reply, headers: Record<string, string>, limit: number): Promise<Buffer> {
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    reply.whenGone(() => {
      if (done) return;
      done = true;
      reject(new AppError('BAD_REQUEST', 'the connection closed before the body was complete'));
    });
    reply.res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > limit) {
        done = true;
        reject(new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limit} bytes`));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        reply.hold();
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      }
    });
  });
}

const reasons: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 302: 'Found', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
  429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable',
};
export function statusLine(status: number): string {
  return `${status} ${reasons[status] ?? 'Status'}`;
}

/** Origin of the public URL and of the Host header: a browser request from elsewhere is cross-site. */
export function isCrossSite(headers: Record<string, string>, publicUrl: string): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  if (origin === new URL(publicUrl).origin) return false;
  return !(headers.host && (origin === `http://${headers.host}` || origin === `https://${headers.host}`));
}

export function isJsonContentType(headers: Record<string, string>): boolean {
  const ct = headers['content-type'];
  return ct !== undefined && /^application\/json\s*(;|$)/i.test(ct);
}

/**
 * The request carries no body at all: no Content-Length (or 0) and no Transfer-Encoding (a chunked
 * body, even an empty one, is a body). Read after the framing check, which leaves at most one
 * Content-Length of digits.
 */
export function hasNoBody(headers: Record<string, string>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0);
}
