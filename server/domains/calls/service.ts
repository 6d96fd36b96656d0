import { AppError } from '../../core/errors.ts';
import { TokenBuckets, type RateLimit } from '../../core/rate-limit.ts';
import { TtlCache } from '../../core/ttl-cache.ts';
import type { Deps } from '../../deps.ts';
import { inGuildTx, type Actor } from '../../store/tx.ts';
import { openIncident } from '../incidents/service.ts';
import { callLimits, type ReportCallInput } from './schema.ts';
import * as store from './store.ts';

/** Generous on purpose: a mass-casualty scene (dozens of reports at once) must pass. */
export const DEFAULT_CALL_RATE_LIMIT: RateLimit = { perMinute: 120, burst: 60 };

interface Who { actor: Actor; by: store.ActorName }

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

/** Per API key (or session) token bucket; 429 with Retry-After when it is empty. */
async function checkRate(deps: Deps, guildId: string, actor: Actor): Promise<void> {
  const limit = await guildLimit(deps, guildId);
  const decision = limiterOf(deps).buckets.take(`${guildId}:${actor.kind}:${actor.id}`, limit);
  if (!decision.ok) {
    throw new AppError('TOO_MANY_REQUESTS',
      `rate limit: this ${actor.kind === 'key' ? 'API key' : 'account'} may report at most ${limit.perMinute} calls a minute (bursts of ${limit.burst}); retry in ${decision.retryAfterS} s`,
      { retryAfterS: decision.retryAfterS });
  }
}

// `calls` state: externalId -> open call (liveCall: the API object, times as epoch ms);
// `overview.openCalls` counts them.
export async function reportCall(deps: Deps, guildId: string, input: ReportCallInput, actor: Actor) {
  await checkRate(deps, guildId, actor);
  const kind = input.kind ?? null;
  const report: store.CallReport = {
    externalId: input.externalId,
    kind,
    // Left out: 2 for a new call, unchanged for an update; a panic is urgent unless it says otherwise.
    priority: input.priority ?? (kind === 'panik' ? 1 : null),
    title: input.title,
    message: input.message ?? null,
    location: input.location ?? null,
    caller: input.caller ?? null,
    source: input.source ?? null,
  };
  return inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    await store.lockCallReports(tx.sql, guildId);
    const result = await store.upsertOpenCall(tx.sql, guildId, report, callLimits.openCalls);
    if (!result) {
      throw new AppError('TOO_MANY_REQUESTS', `open-call limit: ${callLimits.openCalls} calls are open in this guild; resolve or take calls before reporting new ones`);
    }
    tx.emit('calls', { op: 'upsert', key: result.call.externalId, value: store.liveCall(result.call) });
    if (result.inserted) tx.emit('overview', { op: 'add', field: 'openCalls', by: 1 });
    return result.call;
  });
}

export async function resolveCall(deps: Deps, guildId: string, externalId: string, resolution: string, actor: Actor) {
  return inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    const call = await store.resolveOpenCall(tx.sql, guildId, externalId, resolution);
    if (!call) throw new AppError('NOT_FOUND', `no open call with externalId ${externalId}`);
    tx.emit('calls', { op: 'remove', key: externalId });
    tx.emit('overview', { op: 'add', field: 'openCalls', by: -1 });
    tx.audit('calls.resolve', actor, { externalId, callId: call.id, resolution });
    return call;
  });
}

/**
 * A dispatcher takes an open call: it becomes `taken`, and an incident sheet is made of it (its
 * title as keyword unless one is given, its location and priority). The row lock of the UPDATE
 * decides concurrent takes: exactly one wins, the others see the call taken (409).
 */
export async function takeCall(deps: Deps, guildId: string, externalId: string, keyword: string | undefined, who: Who) {
  return inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    const call = await store.takeOpenCall(tx.sql, guildId, externalId, who.by);
    if (!call) {
      const last = await store.latestCall(tx.sql, guildId, externalId);
      if (!last) throw new AppError('NOT_FOUND', `no call with externalId ${externalId}`);
      throw new AppError('CONFLICT', last.status === 'taken'
        ? `call ${externalId} was already taken${last.incidentNumber ? ` (incident sheet ${last.incidentNumber})` : ''}`
        : `call ${externalId} is ${last.status}, not open`);
    }
    const incident = await openIncident(tx, {
      keyword: keyword ?? call.title, location: call.location, priority: call.priority, callId: call.id,
    }, who.by, `Meldung ${externalId} übernommen: ${call.title}`);
    await store.linkCallIncident(tx.sql, guildId, call.id, incident.number);
    tx.emit('calls', { op: 'remove', key: externalId });
    tx.emit('overview', { op: 'add', field: 'openCalls', by: -1 });
    tx.audit('calls.take', who.actor, { externalId, callId: call.id, incidentNumber: incident.number });
    return { call: { ...call, incidentNumber: incident.number }, incident };
  });
}

export async function listOpenCalls(deps: Deps, guildId: string) {
  const calls = await store.openCalls(deps.sql, guildId);
  return { count: calls.length, calls };
}

export async function getCallRateLimit(deps: Deps, guildId: string) {
  const stored = await store.callRateLimit(deps.sql, guildId);
  return { ...(stored ?? DEFAULT_CALL_RATE_LIMIT), isDefault: !stored };
}

export async function setCallRateLimit(deps: Deps, guildId: string, limit: RateLimit, actor: Actor) {
  await inGuildTx(deps.sql, deps.bus, guildId, async (tx) => {
    await store.setCallRateLimit(tx.sql, guildId, limit);
    tx.emit('settings', { op: 'callRateLimit', perMinute: limit.perMinute, burst: limit.burst });
    tx.audit('calls.rate_limit_set', actor, limit);
  });
  limiterOf(deps).limits.delete(guildId); // this node at once; other nodes within the cache's 5 s
  return { ...limit, isDefault: false };
}
