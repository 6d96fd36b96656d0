import { AppError } from '../../core/errors.ts';
import { TokenBuckets } from '../../core/rate-limit.ts';
import type { Deps } from '../../deps.ts';
import type { Principal, SessionPrincipal } from '../../auth/principal.ts';
import type { LiveSocket } from '../../hub/fanout.ts';
import { checkAccess } from '../../trpc/init.ts';
import type { Meta } from '../../trpc/meta.ts';
import { sessionRights } from '../live/rights.ts';
import { staleAfterMs as mapStaleAfterMs } from '../map/store.ts';
import type { Actor } from '../../store/tx.ts';
import { positionLimits, type PositionIn, type PositionsFrame, type UnitPosition } from '../../../contract/positions.ts';

/** The guild's stale threshold (ms): its map settings', default 60 s. */
export function staleAfterMs(deps: Deps, guildId: string): Promise<number> {
  return mapStaleAfterMs(deps.sql, guildId);
}

/** One set of buckets per running server (tests run several in one process). */
const putBuckets = new WeakMap<Deps, TokenBuckets>();
const putLimit = { perMinute: positionLimits.putsPerMinute, burst: positionLimits.putBurst };

/** Per API key (or account): 429 with Retry-After past 10 PUTs a second, so one runaway script cannot flood the ingest. */
function checkPutRate(deps: Deps, guildId: string, actor: Actor): void {
  let buckets = putBuckets.get(deps);
  if (!buckets) putBuckets.set(deps, (buckets = new TokenBuckets()));
  buckets.takeOrRefuse(guildId, actor, putLimit,
    `send at most ${putLimit.perMinute} position updates a minute, up to ${positionLimits.perRequest} positions in each`);
}

/**
 * `PUT /integrations/ingame/positions`: the positions of the units the guild has (callsigns in any
 * case, stored under the unit's own) are taken as received now; the others are named in `unknown`.
 * Nothing is written to PostgreSQL here: positions live in memory and go to the other nodes.
 */
export async function acceptPositions(deps: Deps, guildId: string, input: { positions: PositionIn[] }, actor: Actor) {
  checkPutRate(deps, guildId, actor);
  const hub = await deps.hub.guild(guildId);
  const units = new Map(Object.keys(hub.states.units).map((callsign) => [callsign.toLowerCase(), callsign]));
  const at = Date.now();
  const known: UnitPosition[] = [];
  const unknown: string[] = [];
  for (const p of input.positions) {
    const callsign = units.get(p.callsign.toLowerCase());
    if (!callsign) unknown.push(p.callsign);
    else known.push({ callsign, x: p.x, y: p.y, z: p.z ?? 0, heading: p.heading ?? 0, speed: p.speed ?? 0, at });
  }
  if (known.length) deps.positions.accept(guildId, known);
  return { accepted: known.length, unknown };
}

/** The guild's last known positions by callsign, with their age and whether they are stale, for GET /units. */
export async function positionsByCallsign(deps: Deps, guildId: string) {
  const [g, staleMs] = await Promise.all([deps.positions.guild(guildId), staleAfterMs(deps, guildId)]);
  const now = Date.now();
  return new Map(g.all().map((p) => [p.callsign, {
    x: p.x, y: p.y, z: p.z, heading: p.heading, speed: p.speed, at: new Date(p.at),
    ageSeconds: Math.max(0, Math.round((now - p.at) / 100) / 10), stale: now - p.at > staleMs,
  }]));
}

/** Positions fresh enough for "nearest first" (not stale), by callsign. */
export async function freshPositions(deps: Deps, guildId: string): Promise<Map<string, { x: number; y: number }>> {
  const all = await positionsByCallsign(deps, guildId);
  return new Map([...all].filter(([, p]) => !p.stale).map(([c, p]) => [c, { x: p.x, y: p.y }]));
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * `live.positions`: a full frame, then at most one frame per interval with the units that moved.
 * On the uWS socket the frames go out through the coalescing delivery and this generator yields
 * nothing; elsewhere it yields them itself. A signed-in member who loses what `meta` needs gets
 * FORBIDDEN, which ends it.
 */
export async function* watchPositions(
  ctx: { deps: Deps; guildId: string; principal: Principal; ws?: LiveSocket }, meta: Meta, intervalMs: number, signal: AbortSignal | undefined,
): AsyncGenerator<PositionsFrame> {
  const { deps, principal: p } = ctx;
  await deps.hub.guild(ctx.guildId); // follows the guild: other nodes' positions arrive here from now on
  const [positions, staleMs] = await Promise.all([deps.positions.guild(ctx.guildId), staleAfterMs(deps, ctx.guildId)]);
  let revoke: (err: Error) => void = () => {};
  const revoked = new Promise<Error>((resolve) => (revoke = resolve));
  const unwatch = p.kind === 'session' ? followAccess(deps, p, meta, revoke) : () => {};
  try {
    if (ctx.ws) {
      const detach = deps.positionDelivery.attach(ctx.guildId, positions, ctx.ws, intervalMs, staleMs);
      try {
        const err = await Promise.race([aborted(signal), revoked]);
        if (err) throw err;
      } finally {
        detach();
      }
      return;
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let failure: Error | null = null;
    void revoked.then((err) => {
      failure = err;
      stop.abort();
    });
    try {
      yield* deps.positionDelivery.pull(ctx.guildId, positions, intervalMs, staleMs, stop.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (failure) throw failure;
  } finally {
    unwatch();
  }
}

function followAccess(deps: Deps, p: SessionPrincipal, meta: Meta, end: (err: Error) => void): () => void {
  const rights = sessionRights(deps);
  return rights.watch(p, rights.generation(p.guildId), (next) => {
    if (!next) return end(new AppError('FORBIDDEN', 'you are no longer a member of this guild'));
    try {
      checkAccess(next, meta);
    } catch (err) {
      end(err as Error);
    }
  });
}
