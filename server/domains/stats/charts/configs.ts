import type { ChartConfiguration } from 'chart.js';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { baseOptions, frame, type Frame } from './config-common.ts';
import { metricsFor } from './layout.ts';
import { emptyPlugin } from './frame.ts';
import type { ChartSpec, ChartStyle } from './spec.ts';
import { themeFor } from './theme.ts';
import { chartWords } from './words.ts';
import { barsConfig } from './config-bars.ts';
import { shareConfig } from './config-share.ts';
import { shiftsConfig, trendConfig } from './config-series.ts';

/**
 * The complete chart.js configuration of a chart (data, options, plugins): drawing it on a
 * canvas of style.width × style.height gives the chart. `measure` is any 2D context (the target
 * canvas' own) used to fit labels. The same configuration serves the renderer and the benchmark's
 * direct reference.
 */
export function chartConfig(spec: ChartSpec, style: ChartStyle, measure: SKRSContext2D): ChartConfiguration {
  const t = themeFor(style.theme, style.color);
  const m = metricsFor(style.width, style.height, Boolean(spec.subtitle), spec.kind === 'trend' && !isEmpty(spec));
  const f = { spec, width: style.width, height: style.height, t, m, measure, words: chartWords[style.lang ?? 'de'] };
  if (isEmpty(spec)) return emptyConfig(f);
  switch (spec.kind) {
    case 'bars': return barsConfig(f as Frame<typeof spec>);
    case 'share': return shareConfig(f as Frame<typeof spec>);
    case 'trend': return trendConfig(f as Frame<typeof spec>);
    case 'shifts': return shiftsConfig(f as Frame<typeof spec>);
  }
}

/** Nothing to draw: no rows, no buckets, or shares that add up to nothing (a doughnut of zeros is no doughnut). */
function isEmpty(spec: ChartSpec): boolean {
  switch (spec.kind) {
    case 'bars': return spec.rows.length === 0;
    case 'share': return !spec.slices.some((s) => s.ms > 0);
    case 'trend': return spec.labels.length === 0;
    case 'shifts': return spec.labels.length === 0;
  }
}

function emptyConfig(f: Frame): ChartConfiguration {
  return {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: { ...baseOptions(f), scales: { x: { display: false }, y: { display: false } } },
    plugins: [frame(f), emptyPlugin(f.t, f.m, f.words.empty)],
  };
}
