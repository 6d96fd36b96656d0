import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off the wire. */
export interface RawResponse {
  status: number;
  /** The reason phrase of the status line, e.g. `OK`. */
  reason: string;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/**
 * A raw keep-alive HTTP/1.1 connection: requests are written as given (several at once for
 * pipelining), responses read in order, framed by Content-Length (a HEAD response by its headers
 * alone, as a client must). Nothing is smoothed over: bytes that do not parse fail the read.
 */
export class RawConnection {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  private constructor(readonly sock: Socket) {
    sock.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    sock.on('close', () => {
      this.closed = true;
      this.wake();
    });
    sock.on('error', () => {});
  }

  /** Connects to the server on `port`; given a test, the connection is closed when the test ends. */
  static async open(port: number, t?: { teardown(fn: () => void): void }): Promise<RawConnection> {
    const conn = await new Promise<RawConnection>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () => resolve(new RawConnection(sock)));
      sock.once('error', reject);
    });
    t?.teardown(() => conn.close());
    return conn;
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.sock.write(data, (err) => (err ? reject(err) : resolve())));
  }

  /** The bytes received and not yet read as a response. */
  get pending(): Buffer {
    return this.buf;
  }

  /** Reads the next response (for a HEAD request when `head`); rejects when the connection closes first or after `timeoutMs`. */
  async read(opts: { head?: boolean; timeoutMs?: number } = {}): Promise<RawResponse> {
    const deadline = Date.now() + (opts.timeoutMs ?? 5000);
    for (;;) {
      const parsed = this.tryParse(!!opts.head);
      if (parsed) return parsed;
      if (this.closed) throw new Error(`connection closed; unread bytes: ${JSON.stringify(this.buf.toString('latin1').slice(0, 200))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no complete response in time; unread bytes: ${JSON.stringify(this.buf.toString('latin1').slice(0, 200))}`);
      await this.nextEvent(left);
    }
  }

  /** Waits until the server closes the connection (true) or `ms` pass (false). */
  async closedWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed && Date.now() < deadline) await this.nextEvent(deadline - Date.now());
    return this.closed;
  }

  /** Resolves when bytes arrive, the connection closes, or `ms` pass, whichever is first. */
  private nextEvent(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private tryParse(head: boolean): RawResponse | null {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const lines = this.buf.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(lines[0]);
    if (!m) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(lines[0])}`);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i < 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const status = Number(m[1]);
    const length = head || status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
    if (this.buf.length < end + 4 + length) return null;
    const body = Buffer.from(this.buf.subarray(end + 4, end + 4 + length));
    this.buf = this.buf.subarray(end + 4 + length);
    return { status, reason: m[2], headers, body, text: body.toString('utf8') };
  }

  close(): void {
    this.sock.destroy();
  }
}

/** An HTTP/1.1 request as bytes; a JSON `body` gets its Content-Type and Content-Length. */
export function rawRequest(method: string, path: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}): string {
  const payload = o.raw ?? (o.body === undefined ? '' : JSON.stringify(o.body));
  const headers: Record<string, string> = { host: '127.0.0.1', ...o.headers };
  if (o.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  if (payload) headers['content-length'] = String(Buffer.byteLength(payload));
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${payload}`;
}
