/**
 * The latest position per unit, sent as one batched PUT per tick (split at 500, contract/positions.ts).
 * Bounded by design: one entry per callsign (the latest wins), so a server that is down never
 * builds a queue; a failed batch is dropped, not resent (a moving unit sends a newer position, a
 * parked one its keep-alive), and entries older than `maxAgeMs` are never sent (the server stamps
 * a position when it receives it, so an old one would look fresh). After a failure the next send
 * waits longer: the server's Retry-After, else the interval doubled per failure up to 60 s.
 */
import { positionLimits, type PositionIn } from '../../contract/positions.ts';

export interface PositionsAnswer { accepted: number; unknown: string[] }

export interface BatchOptions {
  intervalMs: number;
  send(positions: PositionIn[]): Promise<PositionsAnswer>;
  log(message: string): void;
  now?: () => number;
  /** Positions older than this at a tick are dropped (default 15 s). */
  maxAgeMs?: number;
}

export const MAX_BACKOFF_MS = 60_000;

export function createPositionBatch(o: BatchOptions) {
  const now = o.now ?? Date.now;
  const maxAgeMs = o.maxAgeMs ?? 15_000;
  const latest = new Map<string, { p: PositionIn; at: number }>();
  const unknownSaid = new Set<string>();
  let busy = false;
  let failures = 0;
  let notBefore = 0;
  let lastError: string | null = null;

  function failed(err: unknown) {
    failures++;
    const e = err as { status?: number; retryAfterS?: number; message?: string };
    const waitMs = e.retryAfterS !== undefined ? e.retryAfterS * 1000 : Math.min(MAX_BACKOFF_MS, o.intervalMs * 2 ** failures);
    notBefore = now() + waitMs;
    const message = `${e.status ?? 0} ${e.message ?? String(err)}`;
    if (message !== lastError) o.log(`positions not sent: ${message} (next try in ${Math.round(waitMs / 1000)} s)`);
    lastError = message;
  }

  return {
    put(p: PositionIn) {
      latest.set(p.callsign, { p, at: now() });
    },
    /** Positions waiting for the next tick (at most one per unit). */
    get pending() { return latest.size; },
    /** Sends made to fail in a row (0 while the server takes them). */
    get failures() { return failures; },
    /** One tick: sends what waits, unless a send is under way or the batch backs off. */
    async tick(): Promise<void> {
      if (busy || latest.size === 0 || now() < notBefore) return;
      const t = now();
      const taken = [...latest.values()].filter((e) => t - e.at <= maxAgeMs).map((e) => e.p);
      latest.clear();
      if (!taken.length) return;
      busy = true;
      try {
        for (let i = 0; i < taken.length; i += positionLimits.perRequest) {
          const answer = await o.send(taken.slice(i, i + positionLimits.perRequest));
          for (const c of answer.unknown ?? []) {
            if (unknownSaid.has(c)) continue;
            unknownSaid.add(c);
            o.log(`positions: the board has no unit ${JSON.stringify(c)}`);
          }
        }
        if (lastError) o.log('positions are sent again');
        failures = 0;
        lastError = null;
      } catch (err) {
        failed(err);
      } finally {
        busy = false;
      }
    },
  };
}

export type PositionBatch = ReturnType<typeof createPositionBatch>;

/**
 * A position as sent by a client or an export, checked against the contract's bounds: null when it
 * is not one. The heading is brought into 0–360, the speed into 0 up to the limit (GTA gives a
 * negative heading now and then, and a falling car can be faster than a plausible speed).
 */
export function positionOf(callsign: string, raw: unknown): PositionIn | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const x = num(r.x);
  const y = num(r.y);
  if (x === null || y === null || Math.abs(x) > positionLimits.coordinate || Math.abs(y) > positionLimits.coordinate) return null;
  const out: PositionIn = { callsign, x: round(x), y: round(y) };
  const z = num(r.z);
  if (z !== null && Math.abs(z) <= positionLimits.height) out.z = round(z);
  const heading = num(r.heading);
  if (heading !== null) out.heading = round(((heading % 360) + 360) % 360) % 360;
  const speed = num(r.speed);
  if (speed !== null) out.speed = round(Math.min(positionLimits.speed, Math.max(0, speed)));
  return out;
}

const round = (v: number) => Math.round(v * 100) / 100;
