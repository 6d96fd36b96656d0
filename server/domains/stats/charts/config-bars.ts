import type { ChartConfiguration } from 'chart.js';
import { baseOptions, frame, maxOf, valueScale, type Frame } from './config-common.ts';
import { FONT_FAMILY } from './fonts.ts';
import { axisUnitFor } from './format.ts';
import { clamp, font } from './layout.ts';
import { barValuesPlugin, ranksPlugin } from './plugins.ts';
import type { ChartSpec } from './spec.ts';
import { drawableLabel, fitText } from './text.ts';
import { valueTexts, widest } from './value-labels.ts';

type Bars = Extract<ChartSpec, { kind: 'bars' }>;

/** Rows are this many times their font size tall: bars with air between them. */
const ROW_PER_FONT = 1.5;

/**
 * The leaderboard: one horizontal bar per person, ranked (muted rank column, then the name),
 * with the duration after each bar.
 * Rows shrink down to the smallest legible font; rows that still do not fit are left out and
 * counted as "+ N weitere" on the subtitle line (the first ones, the best, are the ones shown).
 */
export function barsConfig(f: Frame<Bars>): ChartConfiguration {
  const { m, t, measure, width, height } = f;
  const tickSize = m.small;
  const axisHeight = tickSize * 1.3 + m.pad * 0.45;
  const plotHeight = Math.max(1, height - m.header - m.pad * 0.8 - axisHeight);
  const maxRowFont = m.base * 0.92;
  const minRowFont = Math.max(m.floor, m.base * 0.6);
  const fit = Math.max(1, Math.floor(plotHeight / (minRowFont * ROW_PER_FONT)));
  const rows = f.spec.rows.slice(0, fit).map((r) => ({ label: r.label, ms: Math.max(0, Number(r.ms) || 0) }));
  const hidden = f.spec.rows.length - rows.length;
  const rowFont = clamp(plotHeight / rows.length / ROW_PER_FONT, minRowFont, maxRowFont);

  measure.font = font(rowFont, FONT_FAMILY);
  const rankWidth = measure.measureText(`${rows.length}.`).width + rowFont * 0.5;
  const labelRoom = width * (width < 500 ? 0.36 : 0.28);
  const labels = rows.map((r) => fitText(measure, drawableLabel(r.label), labelRoom));
  const labelWidth = maxOf(labels.map((l) => measure.measureText(l).width));

  const maxMs = maxOf(rows.map((r) => r.ms));
  const unit = axisUnitFor(maxMs);
  const values = rows.map((r) => r.ms * unit.perMs);
  // The durations after the bars in the longest form that leaves the bars at least 55 % of the
  // plot, and room after the longest bar for its text.
  measure.font = font(rowFont * 0.92, FONT_FAMILY);
  const plotWidth = width - 2 * m.pad - rankWidth - labelWidth - m.pad * 0.5;
  const texts = valueTexts(measure, rows.map((r) => r.ms), plotWidth * 0.45 - rowFont, false);
  const valueWidth = widest(measure, texts) + rowFont;
  const maxValue = maxOf(values);
  const suggestedMax = maxValue > 0 && valueWidth > rowFont ? maxValue * plotWidth / (plotWidth - valueWidth) : undefined;

  const options = baseOptions(f);
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [{
        data: values,
        backgroundColor: t.accent,
        borderRadius: Math.max(1, rowFont * 0.22),
        barPercentage: 0.8,
        categoryPercentage: 0.9,
        maxBarThickness: m.base * 1.6,
      }],
    },
    options: {
      ...options,
      indexAxis: 'y',
      layout: { padding: { ...options.layout.padding, left: m.pad + rankWidth } },
      scales: {
        x: { ...valueScale(f, unit, tickSize), suggestedMax, grace: 0 },
        y: {
          type: 'category',
          grid: { display: false },
          border: { color: t.axis },
          ticks: { color: t.text, font: { size: rowFont }, crossAlign: 'far', autoSkip: false, padding: m.pad * 0.4 },
        },
      },
    },
    plugins: [frame(f, { note: hidden > 0 ? f.words.more(hidden) : '' }), barValuesPlugin(t, texts, rowFont * 0.92, true, t.accent),
      ranksPlugin(t, rowFont, m.pad + rankWidth - rowFont * 0.5)],
  };
}
