import { TokenBuckets, type RateLimit } from '../../core/rate-limit.ts';
import { TtlCache } from '../../core/ttl-cache.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import * as store from './store.ts';

/** Generous on purpose: a mass-casualty scene (dozens of reports at once) must pass. */
export const DEFAULT_CALL_RATE_LIMIT: RateLimit = { perMinute: 120, burst: 60 };

/** One set of buckets per running server (tests run several in one process). */
const limiters = new WeakMap<Deps, { buckets: TokenBuckets; limits: TtlCache<RateLimit> }>();
function limiterOf(deps: Deps) {
  let l = limiters.get(deps);
  if (!l) limiters.set(deps, (l = { buckets: new TokenBuckets(), limits: new TtlCache<RateLimit>(5_000) }));
  return l;
}

async function guildLimit(deps: Deps, guildId: string): Promise<RateLimit> {
  const { limits } = limiterOf(deps);
  let limit = limits.get(guildId);
  if (!limit) {
    limit = (await store.callRateLimit(deps.sql, guildId)) ?? DEFAULT_CALL_RATE_LIMIT;
    limits.set(guildId, limit);
  }
  return limit;
}

/** Per API key (or session) token bucket of call reports; 429 with Retry-After when it is empty. */
export async function checkReportRate(deps: Deps, guildId: string, actor: Actor): Promise<void> {
  const limit = await guildLimit(deps, guildId);
  limiterOf(deps).buckets.takeOrRefuse(guildId, actor, limit, `report at most ${limit.perMinute} calls a minute`);
}

export async function getCallRateLimit(deps: Deps, guildId: string) {
  const stored = await store.callRateLimit(deps.sql, guildId);
  return { ...(stored ?? DEFAULT_CALL_RATE_LIMIT), isDefault: !stored };
}

export async function setCallRateLimit(deps: Deps, guildId: string, limit: RateLimit, actor: Actor) {
  await inGuildTx(deps.db, deps.bus, guildId, async (tx) => {
    await store.setCallRateLimit(tx.sql, guildId, limit);
    tx.emit('settings', { op: 'callRateLimit', perMinute: limit.perMinute, burst: limit.burst });
    tx.audit('calls.rate_limit_set', actor, limit);
  });
  limiterOf(deps).limits.delete(guildId); // this node at once; other nodes within the cache's 5 s
  return { ...limit, isDefault: false };
}
