import { effect, signal } from '@preact/signals';
import { liveTrpc } from '../../live/board-live.ts';
import { positionLimits, type PositionsFrame, type UnitPosition } from '../../../../contract/positions.ts';

/** A unit's position as the map keeps it: `seenAt` is the board's clock for when the server received it. */
export interface ShownPosition { x: number; y: number; heading: number; speed: number; seenAt: number }

/**
 * The units' positions while a map is shown: one `live.positions` subscription on the board's
 * WebSocket, opened by the first map and closed with the last. Positions live in a plain Map (200 units at 1 Hz must not re-render anything); `frames`
 * counts frames applied and `changed` holds the callsigns of the last one, for the map to move
 * exactly those markers.
 */
export const positions = new Map<string, ShownPosition>();
export const frames = signal(0);
export let changed: readonly string[] = [];
export let fullFrame = false;
/** The guild's stale threshold (ms) as the last frame said. */
export const staleAfterMs = signal<number>(positionLimits.staleAfterMs);
/** Whether the subscription is refused or failed (no right, a server without the route). */
export const positionsError = signal<string | null>(null);

/** Applies one frame (exported for tests and the benchmark's reasoning; the subscription calls it). */
export function applyFrame(frame: PositionsFrame, now = Date.now()): void {
  // The server's clock may differ from ours: an age is the frame's `at` minus the position's `at`.
  const toLocal = (p: UnitPosition) => now - Math.max(0, frame.at - p.at);
  if (frame.full) positions.clear();
  for (const p of frame.positions) positions.set(p.callsign, { x: p.x, y: p.y, heading: p.heading, speed: p.speed, seenAt: toLocal(p) });
  for (const c of frame.removed) positions.delete(c);
  changed = frame.full ? [...positions.keys()] : [...frame.positions.map((p) => p.callsign), ...frame.removed];
  fullFrame = frame.full;
  if (frame.staleAfterMs > 0) staleAfterMs.value = frame.staleAfterMs;
  frames.value++;
}

let users = 0;
let stopFollowing: (() => void) | null = null;
let sub: { unsubscribe(): void } | null = null;

/** A map is shown: subscribe (the first one). Returns the release; the last release unsubscribes. */
export function usePositionsStream(): () => void {
  users++;
  if (users === 1) open();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users--;
    if (users === 0) close();
  };
}

/**
 * Subscribes on the board's own WebSocket (no second connection), and again whenever the board
 * opens a new one (the guild or the watched topics changed); tRPC re-subscribes after a reconnect
 * by itself, and the server then starts with a full frame.
 */
function open(): void {
  positionsError.value = null;
  stopFollowing = effect(() => {
    const trpc = liveTrpc.value;
    sub?.unsubscribe();
    sub = null;
    if (!trpc) return;
    sub = trpc.live.positions.subscribe({}, {
      onData: (frame) => {
        if ((frame as PositionsFrame | undefined)?.kind === 'positions') applyFrame(frame as PositionsFrame);
      },
      onError: (err) => void (positionsError.value = err instanceof Error ? err.message : String(err)),
    });
  });
}

function close(): void {
  stopFollowing?.();
  stopFollowing = null;
  sub?.unsubscribe();
  sub = null;
  positions.clear();
  changed = [];
  frames.value++;
}

/** Test and benchmark hook: is a positions subscription open? */
export function streaming(): boolean {
  return sub !== null;
}
