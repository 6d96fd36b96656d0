import { Worker } from 'node:worker_threads';
import { AppError } from '../../../core/errors.ts';
import { checkStyle, type ChartSpec, type ChartStyle } from './spec.ts';
import type { RenderJob, RenderResult } from './worker.ts';

export interface PoolOptions {
  /** Worker threads (each renders one chart at a time). */
  size: number;
  /** Requests that may wait for a free worker; one more is refused with 503 at once. */
  maxWaiting: number;
  /** A render that takes longer is abandoned (503) and its worker replaced. */
  timeoutMs: number;
  /** V8 heap of a worker, MB: a runaway render ends its worker, never the server. */
  heapMb: number;
}

interface Job {
  id: number;
  spec: ChartSpec;
  style: ChartStyle;
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
}

interface Slot { worker: Worker | null; job: Job | null; lastError: Error | null }

/**
 * Renders charts in worker threads, off the event loop. Guarantees:
 * - workers start lazily (on the first render) and are unref()-ed while idle: an idle pool never
 *   keeps the process alive, a pending render does;
 * - each worker renders one job at a time; jobs wait in arrival order, at most `maxWaiting`;
 *   beyond that a render is refused with SERVICE_UNAVAILABLE (503, Retry-After 1) at once;
 * - a worker that dies (crash, out of memory) fails only the job it was rendering, with
 *   INTERNAL_SERVER_ERROR; the waiting jobs go to a fresh worker;
 * - close() fails the waiting and running jobs with SERVICE_UNAVAILABLE and ends the workers; it
 *   may be called any number of times, and a render after it starts a new worker.
 */
export class ChartPool {
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  /** Renders refused because the queue was full. */
  private refused = 0;

  constructor(private readonly script: URL, private readonly opts: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.size) }, () => ({ worker: null, job: null, lastError: null }));
  }

  render(spec: ChartSpec, style: ChartStyle): Promise<Buffer> {
    const invalid = checkStyle(style);
    if (invalid) return Promise.reject(new RangeError(invalid));
    return new Promise<Buffer>((resolve, reject) => {
      const job: Job = { id: this.nextId++, spec, style, resolve, reject };
      const free = this.slots.find((s) => s.job === null);
      if (free) return this.start(free, job);
      if (this.waiting.length >= this.opts.maxWaiting) {
        this.refused++;
        return reject(new AppError('SERVICE_UNAVAILABLE', `chart rendering is busy (${this.waiting.length} charts waiting); retry in a moment`, { retryAfterS: 1 }));
      }
      this.waiting.push(job);
    });
  }

  /** Workers running, charts rendering and waiting, renders refused so far (the metrics). */
  get stats(): { workers: number; rendering: number; waiting: number; refused: number } {
    return {
      workers: this.slots.filter((s) => s.worker).length, rendering: this.slots.filter((s) => s.job).length,
      waiting: this.waiting.length, refused: this.refused,
    };
  }

  async close(): Promise<void> {
    const stopping = () => new AppError('SERVICE_UNAVAILABLE', 'chart rendering is shutting down', { retryAfterS: 1 });
    for (const job of this.waiting.splice(0)) job.reject(stopping());
    const ending: Promise<number>[] = [];
    for (const slot of this.slots) {
      const { worker, job } = slot;
      slot.worker = null;
      slot.job = null;
      if (job) this.settle(job, stopping());
      if (worker) ending.push(worker.terminate());
    }
    await Promise.all(ending);
  }

  private start(slot: Slot, job: Job): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.job = job;
    worker.ref(); // a pending render keeps the process alive until it is answered
    job.timer = setTimeout(() => this.abandon(slot, job), this.opts.timeoutMs);
    try {
      worker.postMessage({ id: job.id, spec: job.spec, style: job.style } satisfies RenderJob);
    } catch (err) { // a spec that cannot be cloned (functions, symbols): the caller's mistake, the worker is fine
      slot.job = null;
      this.settle(job, new TypeError(`chart spec cannot be sent to the renderer: ${(err as Error).message}`));
      this.next(slot);
    }
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(this.script, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb },
    });
    slot.worker = worker;
    slot.lastError = null;
    worker.on('message', (answer: RenderResult) => {
      const job = slot.job;
      if (slot.worker !== worker || !job || job.id !== answer.id) return;
      slot.job = null;
      if (answer.ok) this.settle(job, null, Buffer.from(answer.png));
      else this.settle(job, new AppError('INTERNAL_SERVER_ERROR', `chart rendering failed: ${answer.message}`));
      this.next(slot);
    });
    worker.on('error', (err) => { if (slot.worker === worker) slot.lastError = err; });
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return; // replaced or closed on purpose: its job is settled already
      slot.worker = null;
      const job = slot.job;
      slot.job = null;
      if (job) {
        const why = slot.lastError?.message ?? `exit code ${code}`;
        this.settle(job, new AppError('INTERNAL_SERVER_ERROR', `chart rendering failed: the renderer stopped (${why})`, { cause: slot.lastError ?? undefined }));
      }
      this.next(slot);
    });
    return worker;
  }

  /** The job took too long: it fails, and its worker (maybe stuck) is replaced. */
  private abandon(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    const worker = slot.worker;
    slot.worker = null;
    slot.job = null;
    this.settle(job, new AppError('SERVICE_UNAVAILABLE', `chart rendering took longer than ${this.opts.timeoutMs / 1000} s`, { retryAfterS: 5 }));
    void worker?.terminate();
    this.next(slot);
  }

  private next(slot: Slot): void {
    const job = this.waiting.shift();
    if (job) this.start(slot, job);
    else slot.worker?.unref();
  }

  private settle(job: Job, err: Error | null, png?: Buffer): void {
    clearTimeout(job.timer);
    if (err) job.reject(err);
    else job.resolve(png!);
  }
}
