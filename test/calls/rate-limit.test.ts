import t from 'tap';
import { TokenBuckets } from '../../server/core/rate-limit.ts';

// The token bucket on its own, with a clock the test moves.
let now = 1_000_000;
const clock = () => now;

t.test('a full bucket lets `burst` requests through at once, then refills at perMinute / 60 a second', async (t) => {
  const b = new TokenBuckets(clock);
  const limit = { perMinute: 60, burst: 3 };
  t.same([1, 2, 3].map(() => b.take('k', limit).ok), [true, true, true], 'the burst');
  t.same(b.take('k', limit), { ok: false, retryAfterS: 1 }, 'empty: one token a second');
  now += 999;
  t.equal(b.take('k', limit).ok, false, 'not yet');
  now += 1;
  t.equal(b.take('k', limit).ok, true, 'one token after a second');
  now += 10_000;
  t.same([1, 2, 3, 4].map(() => b.take('k', limit).ok), [true, true, true, false], 'refills to the burst, never above it');
});

t.test('Retry-After is whole seconds until the next token', async (t) => {
  const b = new TokenBuckets(clock);
  const slow = { perMinute: 1, burst: 1 };
  t.equal(b.take('s', slow).ok, true);
  t.same(b.take('s', slow), { ok: false, retryAfterS: 60 });
  now += 30_500;
  t.same(b.take('s', slow), { ok: false, retryAfterS: 30 }, 'rounded up');
  const fast = { perMinute: 6000, burst: 1 };
  t.equal(b.take('f', fast).ok, true);
  t.same(b.take('f', fast), { ok: false, retryAfterS: 1 }, 'at least one second');
});

t.test('keys have their own buckets; a changed limit starts a full bucket', async (t) => {
  const b = new TokenBuckets(clock);
  const limit = { perMinute: 1, burst: 1 };
  t.equal(b.take('a', limit).ok, true);
  t.equal(b.take('a', limit).ok, false);
  t.equal(b.take('b', limit).ok, true, 'another key');
  t.equal(b.take('a', { perMinute: 1, burst: 2 }).ok, true, 'a new limit applies at once');
  b.reset('a');
  t.equal(b.take('a', limit).ok, true, 'reset forgets the bucket');
});

t.test('idle buckets are dropped; the number of buckets is bounded', async (t) => {
  const b = new TokenBuckets(clock, 3);
  const limit = { perMinute: 60, burst: 1 };
  for (const k of ['1', '2', '3', '4']) t.equal(b.take(k, limit).ok, true);
  t.equal(b.take('1', limit).ok, true, 'the oldest bucket was evicted at the bound (a fresh, full one)');
  now += 120_000;
  t.equal(b.take('4', limit).ok, true, 'after a sweep an idle key starts full');
});
