import { AppError } from './errors.ts';

/** How fast a bucket refills (`perMinute` tokens a minute) and how many tokens it holds at most (`burst`). */
export interface RateLimit { perMinute: number; burst: number }

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

/** Whom a per-caller limit counts: an API key or a signed-in account (an `Actor`). */
export interface RateCaller { kind: string; id: string }

interface Bucket { tokens: number; at: number; limit: RateLimit }

/**
 * In-memory token buckets, one per caller key (an API key id, a user id …). A bucket starts full
 * with `burst` tokens and refills continuously at `perMinute / 60` tokens a second; each request
 * takes one. Per process: with several nodes each node limits on its own. A bucket whose limit
 * changed starts over, full, with the new limit. Idle buckets are dropped once they would be full.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now, private readonly maxBuckets = 100_000) {}

  take(key: string, limit: RateLimit): RateDecision {
    const now = this.now();
    this.sweep(now);
    let b = this.buckets.get(key);
    if (!b || b.limit.perMinute !== limit.perMinute || b.limit.burst !== limit.burst) {
      b = { tokens: limit.burst, at: now, limit: { ...limit } };
      if (this.buckets.size >= this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
      this.buckets.set(key, b);
    }
    const perMs = limit.perMinute / 60_000;
    b.tokens = Math.min(limit.burst, b.tokens + (now - b.at) * perMs);
    b.at = now;
    if (b.tokens >= 1 - 1e-9) { // float dust from the refill must not cost a whole token
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
  }

  /**
   * Takes one of `caller`'s tokens in `guildId`, or throws 429 with Retry-After:
   * "rate limit: this API key may <what> (bursts of N); retry in S s".
   */
  takeOrRefuse(guildId: string, caller: RateCaller, limit: RateLimit, what: string): void {
    const decision = this.take(`${guildId}:${caller.kind}:${caller.id}`, limit);
    if (decision.ok) return;
    throw new AppError('TOO_MANY_REQUESTS',
      `rate limit: this ${caller.kind === 'key' ? 'API key' : 'account'} may ${what} (bursts of ${limit.burst}); retry in ${decision.retryAfterS} s`,
      { retryAfterS: decision.retryAfterS });
  }

  /** Forgets every bucket whose key starts with `prefix` (a guild's limit changed). */
  reset(prefix: string): void {
    for (const key of this.buckets.keys()) if (key.startsWith(prefix)) this.buckets.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * (b.limit.perMinute / 60_000) >= b.limit.burst) this.buckets.delete(key);
    }
  }
}
