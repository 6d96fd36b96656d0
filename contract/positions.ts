/**
 * Unit positions from the game (issue 31): what PUT /integrations/ingame/positions takes and what
 * the coalesced `live.positions` subscription delivers. Positions are ephemeral: held in memory per
 * guild, fanned out between nodes, persisted at most every `persistEveryMs` so a restart shows
 * the last known place. No imports: the board and the SDK read it too.
 */
export const positionLimits = {
  /** Positions in one PUT. */
  perRequest: 500,
  /** |x| and |y| at most this (game units, metres in GTA V); the same bound as call coordinates. */
  coordinate: 100_000,
  /** |z| at most this. */
  height: 10_000,
  /** Speed in m/s, 0 up to this. */
  speed: 1_000,
  /** The subscription's frame interval: default, least and most (ms). */
  intervalMs: 1_000, minIntervalMs: 250, maxIntervalMs: 10_000,
  /** A position older than this is stale (greyed on the map, not used for "nearest first"), unless the guild's map settings say otherwise. */
  staleAfterMs: 60_000,
  /** PUTs per API key (or account) a minute, and the burst: 10 a second, five times what the resource sends. */
  putsPerMinute: 600, putBurst: 20,
  /** How often a node writes the last known positions it received to PostgreSQL. */
  persistEveryMs: 30_000,
} as const;

/** One position as the game sends it. `heading`: degrees 0–360 as GTA's GetEntityHeading gives it; `speed`: m/s. */
export interface PositionIn { callsign: string; x: number; y: number; z?: number; heading?: number; speed?: number }

/** A unit's last known position; `at`: epoch ms when a server received it. */
export interface UnitPosition { callsign: string; x: number; y: number; z: number; heading: number; speed: number; at: number }

/**
 * A frame of `live.positions`. The first frame of a subscription is `full` (every known position,
 * stale ones too); each later one holds only the units whose position changed since this
 * subscription's previous frame (latest wins), and `removed` the callsigns whose unit is gone.
 * At most one frame per interval; none when nothing changed.
 */
export interface PositionsFrame {
  kind: 'positions';
  full: boolean;
  /** Epoch ms when the frame was made (server clock): a board computes a position's age as `at - position.at` plus its own time since. */
  at: number;
  positions: UnitPosition[];
  removed: string[];
  /** The guild's stale threshold (ms). */
  staleAfterMs: number;
}
