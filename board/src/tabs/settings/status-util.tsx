import { statuses, textOn, type UnitStatus } from '../../app/catalogue.ts';

/** A status as units show it: its code (and label) on its colour. */
export function Chip({ code, label, color }: { code: string; label?: string; color: string }) {
  return <span class="status-chip" style={{ background: color, color: textOn(color) }}><b>{code}</b>{label ? ` ${label}` : ''}</span>;
}

/**
 * Puts a saved (or drops a deleted) status into the board's catalogue at once, in the server's
 * order (position, code); the `statuses` notice that follows reloads the truth.
 */
export function applyLocally(code: string, saved: UnitStatus | null): void {
  const rest = statuses.peek().filter((s) => s.code !== code);
  statuses.value = (saved ? [...rest, saved] : rest).sort((a, b) => a.position - b.position || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** An emptied number field means "keep the position" (new codes: at the end). */
export const positionOrNone = (n: number) => (Number.isFinite(n) ? n : undefined);
