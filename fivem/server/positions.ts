/**
 * Unit positions from the game to the board (issue 31). A player's game sends its position
 * (`dispatch-terminal:position`: x, y, z, heading, speed — no callsign) while the server has told it
 * that it sits in a unit; the server takes it for the unit it knows the player occupies (crews.ts),
 * at most one per player and half interval, and sends the latest per unit as one batched PUT every
 * FLUSH_MS (position-batch.ts). The export `sendPositions` is for resources that track vehicles
 * themselves: trusted server code, so it names the callsigns.
 */
import type { GameBridge, PositionIn } from '../../client-sdk/game.ts';
import { positionLimits } from '../../contract/positions.ts';
import { createCrews } from './crews.ts';
import { natives } from './natives.ts';
import type { People } from './people.ts';
import { createPositionBatch, positionOf } from './position-batch.ts';
import { ExportError } from './results.ts';

type Log = (message: string) => void;

/**
 * How often the waiting positions are sent: a player's move reaches the server within half a
 * second, and a board within the next frame (1 s), so units move on the map within 1.5 s.
 */
const FLUSH_MS = 500;
/** How often who occupies which unit is read again. */
const ROSTER_MS = 5_000;
/** One export call takes at most this many positions (sent 500 per request). */
export const MAX_EXPORT_POSITIONS = 10 * positionLimits.perRequest;

/** Starts the stream for players; `batchBridge` sends without the bridge's own retries (the batch backs off itself). */
export function startPlayerPositions(bridge: () => GameBridge, batchBridge: GameBridge, people: People, intervalMs: number, log: Log) {
  const crews = createCrews(bridge, people, log);
  const batch = createPositionBatch({ intervalMs, send: (p) => batchBridge.sendPositions(p), log });
  const lastFrom = new Map<string, number>();

  natives.onNet('dispatch-terminal:position', (raw: unknown) => {
    const player = String(natives.source);
    const unit = crews.unitOf(player);
    if (!unit) return;
    const now = Date.now();
    if (now - (lastFrom.get(player) ?? 0) < intervalMs / 2) return;
    const p = positionOf(unit, raw);
    if (!p) return;
    lastFrom.set(player, now);
    batch.put(p);
  });
  natives.onNet('dispatch-terminal:positionsReady', () => {
    crews.retell(natives.source);
    void crews.refresh();
  });
  natives.on('playerDropped', () => {
    crews.forget(natives.source);
    lastFrom.delete(String(natives.source));
  });

  const ticks = setInterval(() => void batch.tick(), Math.min(FLUSH_MS, intervalMs));
  const roster = setInterval(() => void crews.refresh(), ROSTER_MS);
  void crews.refresh();
  return {
    crews, batch,
    stop() {
      clearInterval(ticks);
      clearInterval(roster);
    },
  };
}

/** The export's list, checked: each entry a table with a callsign and numbers within the contract's bounds; one per unit. */
export function positionsOfExport(list: unknown): PositionIn[] {
  if (!Array.isArray(list) || !list.length) throw new ExportError('positions must be a list of { callsign, x, y, z?, heading?, speed? }');
  if (list.length > MAX_EXPORT_POSITIONS) throw new ExportError(`at most ${MAX_EXPORT_POSITIONS} positions per call`);
  const byUnit = new Map<string, PositionIn>(); // a unit named twice: its last entry wins (the server takes each once)
  list.forEach((entry, i) => {
    const callsign = (entry as Record<string, unknown> | null)?.callsign;
    const p = typeof callsign === 'string' && /^.{1,40}$/su.test(callsign.trim()) ? positionOf(callsign.trim(), entry) : null;
    if (!p) throw new ExportError(`positions[${i + 1}] must be { callsign, x, y } with |x|, |y| up to ${positionLimits.coordinate}`);
    byUnit.delete(p.callsign.toLowerCase());
    byUnit.set(p.callsign.toLowerCase(), p);
  });
  return [...byUnit.values()];
}

/** Sends an export's positions, 500 per request, as one answer. */
export async function sendAll(bridge: GameBridge, positions: PositionIn[]): Promise<{ accepted: number; unknown: string[] }> {
  const out = { accepted: 0, unknown: [] as string[] };
  for (let i = 0; i < positions.length; i += positionLimits.perRequest) {
    const r = await bridge.sendPositions(positions.slice(i, i + positionLimits.perRequest));
    out.accepted += r.accepted;
    out.unknown.push(...r.unknown.filter((c) => !out.unknown.includes(c)));
  }
  return out;
}
