import type { Plugin } from 'chart.js';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY } from './fonts.ts';
import { formatTick, type AxisUnit } from './format.ts';
import type { Metrics } from './layout.ts';
import { framePlugin, type LegendEntry } from './frame.ts';
import type { ChartSpec } from './spec.ts';
import { drawableLabel } from './text.ts';
import type { Theme } from './theme.ts';
import type { ChartLang, chartWords } from './words.ts';

/** What every chart kind's builder gets: the spec, the size, colours, metrics and a context to measure text with. */
export interface Frame<S extends ChartSpec = ChartSpec> {
  spec: S;
  width: number;
  height: number;
  t: Theme;
  m: Metrics;
  measure: SKRSContext2D;
  /** The drawing's own words in the chart's language. */
  words: (typeof chartWords)[ChartLang];
}

/** The largest of the values, 0 for none (a loop: spreading a long series into Math.max overflows the stack). */
export function maxOf(values: number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The frame plugin (background, title, subtitle, note, legend row) of a chart. */
export function frame(f: Frame, extra: { note?: string; legend?: LegendEntry[] } = {}): Plugin {
  const subtitle = drawableLabel(f.spec.subtitle, '');
  return framePlugin(f.t, f.m, { title: drawableLabel(f.spec.title, ''), subtitle, note: extra.note ?? '', legend: extra.legend ?? [] });
}

/** Options every chart shares: static (no animation, events or tooltips), 1:1 pixels, room for the header. */
export function baseOptions(f: Frame) {
  const { m, t } = f;
  return {
    animation: false as const,
    responsive: false,
    maintainAspectRatio: false,
    devicePixelRatio: 1,
    events: [],
    color: t.muted,
    font: { family: FONT_FAMILY, size: m.base },
    layout: { padding: { top: m.header, left: m.pad, right: m.pad, bottom: m.pad * 0.8 } },
    plugins: { legend: { display: false }, tooltip: { enabled: false }, title: { display: false } },
  };
}

/** A value axis of durations in `unit`, starting at 0, whole steps ("0 h", "10 h"). */
export function valueScale(f: Frame, unit: AxisUnit, size: number) {
  return {
    type: 'linear' as const,
    beginAtZero: true,
    grace: '5%',
    grid: { color: f.t.grid, drawTicks: false },
    border: { display: false },
    ticks: {
      color: f.t.muted,
      font: { size },
      padding: f.m.pad * 0.45,
      precision: 0,
      maxTicksLimit: 8,
      callback: (v: number | string) => formatTick(Number(v), unit),
    },
  };
}

/** A category axis of bucket labels (hours, days, months), thinned out when they do not fit. */
export function bucketScale(f: Frame, size: number) {
  return {
    type: 'category' as const,
    grid: { display: false },
    border: { color: f.t.axis },
    ticks: { color: f.t.muted, font: { size }, padding: f.m.pad * 0.35, maxRotation: 0, autoSkip: true, autoSkipPadding: size * 0.8 },
  };
}
