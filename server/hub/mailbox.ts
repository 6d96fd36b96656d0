import { AppError } from '../core/errors.ts';

/**
 * Values pushed by a hub listener, pulled one by one by a subscription's generator, until its
 * signal aborts or a failure ends it (after the values queued before it). Bounded: past `max`
 * queued values the drain fails with a retryable error (the client resumes from its last id), so a
 * stalled subscriber never grows memory. `latestBy` keeps just the newest value of each kind
 * (state, not deltas).
 */
export class Mailbox<T> {
  private items: T[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(private readonly opts: { max?: number; latestBy?: (value: T) => string } = {}) {}

  push(value: T): void {
    if (this.failure) return;
    const kindOf = this.opts.latestBy;
    if (kindOf) {
      const kind = kindOf(value);
      this.items = this.items.filter((item) => kindOf(item) !== kind);
      this.items.push(value);
    } else if (this.items.length >= (this.opts.max ?? Infinity)) this.failure = new AppError('INTERNAL_SERVER_ERROR', 'subscriber too slow; resume from the last event id');
    else this.items.push(value);
    this.wake?.();
  }

  /** Ends the drain with `err` once the values queued so far are taken. */
  fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }

  async *drain(signal: AbortSignal | undefined): AsyncGenerator<T> {
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      while (!signal?.aborted) {
        if (this.items.length) {
          yield this.items.shift()!;
          continue;
        }
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
