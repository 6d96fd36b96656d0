import { AppError } from '../core/errors.ts';

/**
 * Values pushed by a hub listener, pulled one by one by a subscription's generator, until its
 * signal aborts. Bounded: past `max` queued values the drain fails with a retryable error (the
 * client resumes from its last id), so a stalled subscriber never grows memory. `latestOnly`
 * keeps just the newest value (state, not deltas).
 */
export class Mailbox<T> {
  private items: T[] = [];
  private wake: (() => void) | null = null;
  private failure: AppError | null = null;

  constructor(private readonly opts: { max?: number; latestOnly?: boolean } = {}) {}

  push(value: T): void {
    if (this.opts.latestOnly) this.items = [value];
    else if (this.items.length >= (this.opts.max ?? Infinity)) this.failure ??= new AppError('INTERNAL_SERVER_ERROR', 'subscriber too slow; resume from the last event id');
    else this.items.push(value);
    this.wake?.();
  }

  async *drain(signal: AbortSignal | undefined): AsyncGenerator<T> {
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      while (!signal?.aborted) {
        if (this.failure) throw this.failure;
        if (this.items.length) {
          yield this.items.shift()!;
          continue;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
