import type { ChartConfiguration, ScriptableContext } from 'chart.js';
import { baseOptions, bucketScale, frame, maxOf, valueScale, type Frame } from './config-common.ts';
import { FONT_FAMILY } from './fonts.ts';
import { axisUnitFor, formatDuration, formatTick } from './format.ts';
import { font } from './layout.ts';
import { valueTexts } from './value-labels.ts';
import { barValuesPlugin } from './plugins.ts';
import type { ChartSpec } from './spec.ts';
import { drawableLabel } from './text.ts';
import { withAlpha } from './theme.ts';
import type { LegendEntry } from './frame.ts';

type Trend = Extract<ChartSpec, { kind: 'trend' }>;
type Shifts = Extract<ChartSpec, { kind: 'shifts' }>;

/** A duration list as the chart reads it: finite, never negative. */
const clean = (ms: number[]) => ms.map((v) => Math.max(0, Number(v) || 0));
const sum = (ms: number[]) => ms.reduce((a, b) => a + b, 0);

/**
 * Duty time per bucket as lines: the current period in the accent colour over a soft fill, the
 * previous one dashed and grey behind it; the header's legend row names both with their totals.
 */
export function trendConfig(f: Frame<Trend>): ChartConfiguration {
  const { m, t, spec } = f;
  const buckets = spec.labels.length; // values past the last label have no place on the axis
  const current = clean(spec.current.ms).slice(0, buckets);
  const previous = spec.previous ? clean(spec.previous.ms).slice(0, buckets) : null;
  const unit = axisUnitFor(Math.max(maxOf(current), maxOf(previous ?? [])));
  const tickSize = m.small;
  const line = Math.max(1.5, m.base * (spec.labels.length > 60 ? 0.1 : 0.17)); // dense series: thinner lines stay apart
  const points = spec.labels.length <= 31 ? Math.max(1.5, m.base * 0.22) : 0;
  const dash = [m.base * 0.45, m.base * 0.3];
  const legend: LegendEntry[] = [{ text: `${drawableLabel(spec.current.label)} · ${formatDuration(sum(current))}`, color: t.accent, dash: [], lineWidth: line }];
  if (spec.previous && previous) legend.push({ text: `${drawableLabel(spec.previous.label)} · ${formatDuration(sum(previous))}`, color: t.neutral, dash, lineWidth: line * 0.8 });
  /** The area under the current line fades out towards the axis (a flat fill reads muddy on dark). */
  const fade = ({ chart }: ScriptableContext<'line'>) => {
    const area = chart.chartArea;
    if (!area) return withAlpha(t.accent, 0.15);
    const gradient = chart.ctx.createLinearGradient(0, area.top, 0, area.bottom);
    gradient.addColorStop(0, withAlpha(t.accent, 0.32));
    gradient.addColorStop(1, withAlpha(t.accent, 0.02));
    return gradient;
  };

  const config: ChartConfiguration<'line'> = {
    type: 'line',
    data: {
      labels: spec.labels.map((l) => drawableLabel(l)),
      datasets: [
        {
          data: current.map((v) => v * unit.perMs), order: 0,
          borderColor: t.accent, backgroundColor: fade, fill: 'origin', borderWidth: line,
          pointRadius: points, pointBackgroundColor: t.accent, pointBorderWidth: 0, cubicInterpolationMode: 'monotone',
        },
        ...(previous ? [{
          data: previous.map((v) => v * unit.perMs), order: 1,
          borderColor: t.neutral, borderDash: dash, borderWidth: line * 0.8, fill: false,
          pointRadius: 0, cubicInterpolationMode: 'monotone' as const,
        }] : []),
      ],
    },
    options: { ...baseOptions(f), scales: { x: bucketScale(f, tickSize), y: valueScale(f, unit, tickSize) } },
    plugins: [frame(f, { legend })],
  };
  return config as unknown as ChartConfiguration;
}

/** One person's duty time per bucket as vertical bars, with the durations above them when they fit. */
export function shiftsConfig(f: Frame<Shifts>): ChartConfiguration {
  const { m, t, spec, measure, width } = f;
  const ms = clean(spec.ms).slice(0, spec.labels.length);
  const unit = axisUnitFor(maxOf(ms));
  const tickSize = m.small;
  const valueSize = Math.max(m.base * 0.72, m.floor * 0.85);
  // A bar's slot, estimated before layout from the widest tick of the value axis.
  measure.font = font(tickSize, FONT_FAMILY);
  const axisWidth = measure.measureText(formatTick(Math.ceil(maxOf(ms) * unit.perMs * 1.2), unit)).width + m.pad * 0.45;
  const slot = (width - 2 * m.pad - axisWidth) / Math.max(1, spec.labels.length);
  measure.font = font(valueSize, FONT_FAMILY);
  const texts = valueTexts(measure, ms, slot * 0.95, true);
  const options = baseOptions(f);
  return {
    type: 'bar',
    data: {
      labels: spec.labels.map((l) => drawableLabel(l)),
      datasets: [{
        data: ms.map((v) => v * unit.perMs),
        backgroundColor: t.accent,
        borderRadius: Math.max(1, m.base * 0.2),
        barPercentage: 0.82,
        categoryPercentage: 0.88,
        maxBarThickness: m.base * 4,
      }],
    },
    options: { ...options, scales: { x: bucketScale(f, tickSize), y: { ...valueScale(f, unit, tickSize), grace: '12%' } } },
    plugins: [frame(f), barValuesPlugin(t, texts, valueSize, false, t.accent)],
  };
}
