/** What a chart shows. Durations are milliseconds; labels are free text (names may hold anything). */
export type ChartSpec =
  /** Leaderboard: one horizontal bar per person, in the given order (rank = position + 1). */
  | { kind: 'bars'; title: string; subtitle: string; rows: { label: string; ms: number }[] }
  /** Doughnut of shares; the caller has already folded the tail into one slice "Andere". */
  | { kind: 'share'; title: string; subtitle: string; slices: { label: string; ms: number }[] }
  /** Duty time per bucket, the current period against the previous one (dashed, muted). */
  | { kind: 'trend'; title: string; subtitle: string; labels: string[]; current: { label: string; ms: number[] }; previous: { label: string; ms: number[] } | null }
  /** One person's duty time per bucket, as vertical bars. */
  | { kind: 'shifts'; title: string; subtitle: string; labels: string[]; ms: number[] };

export type ChartKind = ChartSpec['kind'];

export interface ChartStyle {
  /** Pixels; the PNG has exactly this size. */
  width: number;
  height: number;
  theme: 'dark' | 'light';
  /** The guild's accent colour, #rrggbb (anything else falls back to the default accent). */
  color: string;
  /** The language of the words the drawing adds ("Keine Daten im Zeitraum", "+ 3 weitere"); default German. */
  lang?: 'de' | 'en';
}

/** Largest image accepted: the spec's maxPixels tops out at 4,000,000 pixels. */
export const MAX_PIXELS = 4_000_000;
/** Longest side accepted (Skia and PNG handle more; nothing sensible is drawn on a thinner strip). */
export const MAX_SIDE = 16_384;

/** A style the renderer accepts: integer sizes, at least 1 px, at most MAX_SIDE a side and MAX_PIXELS in all. */
export function checkStyle(style: ChartStyle): string | null {
  const { width, height } = style;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return `chart size must be whole pixels ≥ 1, got ${width}×${height}`;
  if (width > MAX_SIDE || height > MAX_SIDE) return `chart sides are at most ${MAX_SIDE} px, got ${width}×${height}`;
  if (width * height > MAX_PIXELS) return `charts have at most ${MAX_PIXELS} pixels, got ${width}×${height}`;
  if (style.theme !== 'dark' && style.theme !== 'light') return `chart theme must be dark or light, got ${String(style.theme)}`;
  if (style.lang !== undefined && style.lang !== 'de' && style.lang !== 'en') return `chart lang must be de or en, got ${String(style.lang)}`;
  return null;
}
