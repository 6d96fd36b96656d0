/**
 * Font sizes and spacing of a chart, scaled with its size: a chart reads the same at 200×250 and
 * at 2000×2000 (Discord shows both at about the same width), and below ~10 px of text nothing
 * stays legible, so fonts stop shrinking there unless the image itself is thinner than that.
 */
export interface Metrics {
  /** Body text (ticks, legends), px. */
  base: number;
  title: number;
  subtitle: number;
  /** Smallest text drawn at all, px. */
  floor: number;
  /** Secondary text (ticks, legends, durations on bars), px: a little below body text, never below ~the floor. */
  small: number;
  /** Outer padding and the gap unit, px. */
  pad: number;
  /** Legend text of line charts, px. */
  legend: number;
  /** Height taken by title, subtitle and legend row at the top, px (plot starts below). */
  header: number;
}

export function metricsFor(width: number, height: number, hasSubtitle: boolean, hasLegendRow: boolean): Metrics {
  const floor = clamp(Math.min(width, height) / 8, 5, 10);
  const base = clamp(Math.min(width, height * 1.6) / 46, floor, 64);
  const title = base * 1.4;
  const subtitle = base * 0.95;
  const pad = clamp(base * 1.1, 2, 70);
  const small = Math.max(base * 0.85, floor * 0.9);
  const legend = small;
  const header = pad * 0.9 + title * 1.2 + (hasSubtitle ? subtitle * 1.45 : 0) + (hasLegendRow ? legend * 1.9 : 0) + pad * 0.95;
  return { base, title, subtitle, floor, small, pad, legend, header };
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** A canvas font string in the chart family. */
export function font(size: number, family: string, bold = false): string {
  return `${bold ? 'bold ' : ''}${Math.round(size * 10) / 10}px "${family}"`;
}
