/**
 * A tiny HTTP sender that works where there is no global fetch (FiveM's server runtime is Node 16):
 * global fetch (or the one passed) when present, else node:http / node:https. Dependency-free.
 * It never throws for an HTTP status (4xx/5xx come back as a response); it throws a RequestError
 * for a network failure or the timeout, so callers can tell "the server said no" from "no answer".
 */
import * as http from 'node:http';
import * as https from 'node:https';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Whole request, until the body is read (default 10 000 ms). */
  timeoutMs?: number;
  /** Use this fetch instead of the global one (tests, polyfills). `null` forces node:http. */
  fetch?: typeof fetch | null;
}

export interface HttpResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The body as text (UTF-8). */
  body: string;
}

/** No HTTP answer: `timeout` (no full answer within timeoutMs) or `network` (refused, reset, DNS …). */
export class RequestError extends Error {
  constructor(readonly code: 'timeout' | 'network', message: string) {
    super(message);
    this.name = 'RequestError';
  }
}

export async function request(url: string, opts: RequestOptions = {}): Promise<HttpResponse> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const f = opts.fetch === undefined ? (globalThis as { fetch?: typeof fetch }).fetch : opts.fetch;
  return f ? viaFetch(f, url, opts, timeoutMs) : viaNode(url, opts, timeoutMs);
}

async function viaFetch(f: typeof fetch, url: string, opts: RequestOptions, timeoutMs: number): Promise<HttpResponse> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const res = await f(url, { method: opts.method ?? 'GET', headers: opts.headers, body: opts.body as BodyInit | undefined, signal: ctl.signal });
    const body = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => { headers[k.toLowerCase()] = v; });
    return { status: res.status, headers, body };
  } catch (err) {
    if (ctl.signal.aborted) throw new RequestError('timeout', `no answer from ${url} within ${timeoutMs} ms`);
    const cause = (err as { cause?: { message?: string } })?.cause?.message; // undici hides ECONNREFUSED here
    throw new RequestError('network', `${url}: ${cause ?? (err as Error)?.message ?? String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

function viaNode(url: string, opts: RequestOptions, timeoutMs: number): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try { target = new URL(url); } catch { return reject(new RequestError('network', `not a URL: ${url}`)); }
    const mod = target.protocol === 'https:' ? https : http;
    const headers: Record<string, string | number> = { ...opts.headers };
    const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
    if (body) headers['content-length'] = body.byteLength;
    let done = false;
    const fail = (err: RequestError) => { if (!done) { done = true; clearTimeout(timer); req.destroy(); reject(err); } };
    const timer = setTimeout(() => fail(new RequestError('timeout', `no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
    const req = mod.request(target, { method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => fail(new RequestError('network', `${url}: ${err.message}`)));
      res.on('end', () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', (err) => fail(new RequestError('network', `${url}: ${err.message}`)));
    req.end(body);
  });
}
