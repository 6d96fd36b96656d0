import type uWS from 'uWebSockets.js';
import { jsonHeaders } from './http.ts';

/*
 * Request framing (RFC 9112 §6): where a request's body ends, hence where the next request on the
 * connection starts. When a proxy in front and this server read it differently, a request hidden in
 * another's body runs (request smuggling). What this uWS build does, found by probing it:
 * - of several Content-Length headers it reads the first; an empty one is a body of 0 bytes;
 * - any non-empty Transfer-Encoding is decoded as chunked ("gzip, chunked", "identity", "xchunked",
 *   two "chunked" headers alike);
 * - it closes the connection without an answer when Transfer-Encoding and Content-Length are both
 *   given (no handler runs) or a Content-Length is not all digits ("11, 51", "+11": after the handler);
 * - header lines it cannot parse (obs-fold, a space before the colon, "Content_Length", bare LF)
 *   reach no handler: the connection waits for uWS's timeout.
 * The rule here: at most one Content-Length, all digits; or one Transfer-Encoding, exactly
 * "chunked" (the one coding uWS decodes, and that RFC 9112 requires), never both. Anything else
 * is refused before any handler runs.
 */

/** What is wrong with how this request says where its body ends, or null when it says it one way only. */
export function framingProblem(req: uWS.HttpRequest): string | null {
  const lengths: string[] = [];
  const codings: string[] = [];
  req.forEach((name, value) => {
    if (name === 'content-length') lengths.push(value);
    else if (name === 'transfer-encoding') codings.push(value);
  });
  if (lengths.length === 0 && codings.length === 0) return null;
  if (lengths.length > 1) return `Content-Length is given ${lengths.length} times; send it once`;
  if (codings.length > 1) return `Transfer-Encoding is given ${codings.length} times; send it once, as "chunked"`;
  if (lengths.length && codings.length) return 'send either Content-Length or Transfer-Encoding: chunked, not both';
  if (lengths.length && !/^[0-9]+$/.test(lengths[0])) return `Content-Length must be a number of bytes (digits only), not ${shown(lengths[0])}`;
  if (codings.length && codings[0].trim().toLowerCase() !== 'chunked') {
    return `Transfer-Encoding ${shown(codings[0])} is not supported: send Content-Length, or Transfer-Encoding: chunked alone`;
  }
  return null;
}

/** A header value as a message quotes it: in quotes, at most 40 characters. */
const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);

/**
 * Answers a request whose framing is refused: 400 `{error}`, then the connection is closed, and not
 * one byte after this request's headers is parsed as a request. The answer waits one turn of the
 * event loop with the connection paused (uWS reads nothing more from the socket meanwhile): should
 * the bytes uWS read together with this request hold another request, uWS closes the connection
 * itself on it (a request while an answer is pending) before any handler sees it, and this request
 * gets no answer, only the close. Nothing of the request runs either way.
 */
export function refuseFraming(res: uWS.HttpResponse, req: uWS.HttpRequest, problem: string): void {
  const head = req.getCaseSensitiveMethod().toUpperCase() === 'HEAD';
  let gone = false;
  res.onAborted(() => {
    gone = true;
  });
  res.pause();
  setImmediate(() => {
    if (gone) return;
    // closeConnection: uWS adds "Connection: close" and closes the socket once the answer is written
    // (endWithoutBody does not close in this build: a HEAD gets the answer with an empty body).
    res.cork(() => res.writeStatus('400 Bad Request').writeHeader('content-type', jsonHeaders['content-type'])
      .end(head ? '' : JSON.stringify({ error: problem, reason: 'bad_request' }), true)); // reason: contract/errors.ts
  });
}

type Handler = (res: uWS.HttpResponse, req: uWS.HttpRequest) => void | Promise<void>;
type Upgrade = NonNullable<uWS.WebSocketBehavior<unknown>['upgrade']>;
const methods = ['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'connect', 'trace', 'any'] as const;

/**
 * Makes every route registered on `app` from now on (any method, and WebSocket upgrades) run the
 * framing check before its handler: one place every door passes through, whoever mounts it.
 */
export function checkFramingFirst(app: uWS.TemplatedApp): uWS.TemplatedApp {
  for (const method of methods) {
    const register = app[method].bind(app) as (pattern: uWS.RecognizedString, handler: Handler) => uWS.TemplatedApp;
    app[method] = (pattern, handler) => register(pattern, (res, req) => {
      const problem = framingProblem(req);
      if (problem === null) return handler(res, req);
      refuseFraming(res, req, problem);
    });
  }
  const registerWs = app.ws.bind(app);
  app.ws = (pattern, behavior) => {
    const upgrade: Upgrade = behavior.upgrade
      ?? ((res, req, context) => res.upgrade({}, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context));
    return registerWs(pattern, {
      ...behavior,
      upgrade: (res, req, context) => {
        const problem = framingProblem(req);
        if (problem === null) return upgrade(res, req, context);
        refuseFraming(res, req, problem);
      },
    });
  };
  return app;
}
