import { connect, type Socket } from 'node:net';

/**
 * A lean keep-alive HTTP/1.1 load generator: N connections over raw sockets, one request in flight
 * per connection, requests pre-built as bytes, responses framed by Content-Length only.
 * Far cheaper per request than fetch/undici, so the server, not the client, should saturate first.
 */

export type Phase = 'warmup' | 'measure' | 'drain';

/** One connection's script. */
export interface Conversation {
  /** Bytes of the next request; null ends this connection. In `drain`, return null as soon as the script is at a clean point. */
  next(phase: Phase): Buffer | null;
  /** The status of the response to the last request. */
  answered(status: number, phase: Phase): void;
}

export interface LoadResult {
  /** Length of the measure phase, ms. */
  measuredMs: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/**
 * Warm-up, then measure (`onMeasure(start|end)` is called at both edges, for CPU sampling), then
 * drain: each conversation finishes its unit of work and its connection closes.
 */
export function runHttpLoad(opts: {
  port: number;
  connections: number;
  conversation: (index: number) => Conversation;
  warmupMs: number;
  durationMs: number;
  onMeasure?: (edge: 'start' | 'end') => void;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let phase: Phase = 'warmup';
    let open = 0;
    let failed = false;
    let measureStart = 0;
    let measuredMs = 0;
    const sockets: Socket[] = [];
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      for (const s of sockets) s.destroy();
      reject(err);
    };
    const finishOne = () => {
      if (--open === 0 && !failed) resolve({ measuredMs });
    };

    for (let i = 0; i < opts.connections; i++) {
      const talk = opts.conversation(i);
      const socket = connect({ port: opts.port, host: '127.0.0.1', noDelay: true });
      sockets.push(socket);
      open++;
      let pending: Buffer | null = null;
      let closing = false;
      const send = () => {
        const req = talk.next(phase);
        if (req === null) {
          closing = true;
          socket.end();
          return;
        }
        socket.write(req);
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        let buf: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
        pending = null;
        let answered = 0;
        for (;;) {
          const headEnd = buf.indexOf(HEADER_END);
          if (headEnd < 0) break;
          const m = CONTENT_LENGTH.exec(buf.toString('latin1', 0, headEnd));
          if (!m) return fail(new Error(`response without Content-Length: ${JSON.stringify(buf.toString('latin1', 0, headEnd))}`));
          const total = headEnd + 4 + Number(m[1]);
          if (buf.length < total) break;
          const status = (buf[9] - 48) * 100 + (buf[10] - 48) * 10 + (buf[11] - 48);
          talk.answered(status, phase);
          answered++;
          if (buf.length === total) {
            buf = Buffer.alloc(0);
            break;
          }
          buf = buf.subarray(total);
        }
        if (buf.length > 0) pending = buf;
        if (answered > 0) send();
      });
      socket.on('error', (err) => fail(new Error(`connection ${i}: ${err.message}`)));
      socket.on('close', () => {
        if (!closing && !failed) return fail(new Error(`connection ${i} closed by the server`));
        finishOne();
      });
    }

    setTimeout(() => {
      phase = 'measure';
      opts.onMeasure?.('start');
      measureStart = performance.now();
      setTimeout(() => {
        measuredMs = performance.now() - measureStart;
        phase = 'drain';
        opts.onMeasure?.('end');
      }, opts.durationMs);
    }, opts.warmupMs);
  });
}

/** Latency samples (ms) of the measure phase; percentiles at the end. */
export class Latencies {
  private samples = new Float64Array(1 << 16);
  private n = 0;
  add(ms: number): void {
    if (this.n === this.samples.length) {
      const bigger = new Float64Array(this.samples.length * 2);
      bigger.set(this.samples);
      this.samples = bigger;
    }
    this.samples[this.n++] = ms;
  }
  merge(other: Latencies): void {
    for (let i = 0; i < other.n; i++) this.add(other.samples[i]);
  }
  percentiles(): { p50: number; p99: number } {
    const sorted = this.samples.slice(0, this.n).sort();
    const at = (q: number) => (this.n ? sorted[Math.min(this.n - 1, Math.floor(q * this.n))] : NaN);
    return { p50: at(0.5), p99: at(0.99) };
  }
}
