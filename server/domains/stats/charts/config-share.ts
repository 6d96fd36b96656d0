import type { ChartConfiguration, LegendItem } from 'chart.js';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { baseOptions, frame, type Frame } from './config-common.ts';
import { FONT_FAMILY } from './fonts.ts';
import { formatDuration, formatPercent } from './format.ts';
import { font } from './layout.ts';
import { doughnutPlugin } from './plugins.ts';
import type { ChartSpec } from './spec.ts';
import { drawableLabel, fitText } from './text.ts';
import { paletteFor } from './theme.ts';

type Share = Extract<ChartSpec, { kind: 'share' }>;

/**
 * Shares as a doughnut: the total in the hole, percentages on the slices that hold them, and a
 * legend (beside the doughnut on wide images, below it on tall ones) naming each slice with its
 * duration and share.
 */
export function shareConfig(f: Frame<Share>): ChartConfiguration {
  const { m, t, measure, width, height } = f;
  const slices = f.spec.slices.map((s) => ({ label: s.label, ms: Math.max(0, Number(s.ms) || 0) }));
  const total = slices.reduce((a, s) => a + s.ms, 0);
  // the slice the caller folds the tail into ("Andere"/"Others") is drawn in the neutral grey, not a person's colour
  const others = f.words.others;
  const palette = paletteFor(t, slices.filter((s) => s.label !== others).length);
  let next = 0;
  const colors = slices.map((s) => (s.label === others ? t.neutral : palette[next++]));

  const beside = width >= height * 1.15;
  const legendFont = m.small;
  const box = legendFont * 0.9;
  const legendRoom = (beside ? width * 0.5 - m.pad : width - 2 * m.pad) - box - legendFont * 1.5;
  measure.font = font(legendFont, FONT_FAMILY);
  const texts = legendTexts(measure, slices, total, legendRoom, legendFont * 6);

  const options = baseOptions(f);
  const config: ChartConfiguration<'doughnut'> = {
    type: 'doughnut',
    data: {
      labels: texts,
      datasets: [{
        data: slices.map((s) => s.ms),
        backgroundColor: colors,
        borderColor: t.background,
        borderWidth: Math.max(1, m.base * 0.14),
      }],
    },
    options: {
      ...options,
      cutout: '58%',
      plugins: {
        ...options.plugins,
        legend: {
          display: true,
          position: beside ? 'right' as const : 'bottom' as const,
          align: 'center',
          maxWidth: beside ? width * 0.5 : undefined,
          labels: {
            color: t.text,
            font: { size: legendFont },
            boxWidth: box,
            boxHeight: box,
            usePointStyle: true,
            pointStyle: 'circle',
            padding: legendFont * 0.7,
            generateLabels: (): LegendItem[] => texts.map((text, i) => ({
              text, fillStyle: colors[i], strokeStyle: colors[i], lineWidth: 0, hidden: false, index: i, fontColor: t.text, pointStyle: 'circle',
            })),
          },
        },
      },
    },
    plugins: [frame(f), doughnutPlugin(t, m, slices.map((s) => s.ms), colors)],
  };
  return config as unknown as ChartConfiguration;
}

/**
 * Each slice's legend text in the richest form where every name keeps `minName` px:
 * "Name  12 h 30 min · 34 %", else "Name · 34 %", else the name alone (cut with "…").
 * The name comes first: a duration without a name says nothing.
 */
function legendTexts(ctx: SKRSContext2D, slices: { label: string; ms: number }[], total: number, room: number, minName: number): string[] {
  const names = slices.map((s) => drawableLabel(s.label));
  const forms: ((ms: number) => string)[] = [
    (ms) => `  ${formatDuration(ms)} · ${formatPercent(ms / total)}`,
    (ms) => ` · ${formatPercent(ms / total)}`,
    () => '',
  ];
  for (const form of forms) {
    const suffixes = slices.map((s) => form(s.ms));
    const widest = Math.max(0, ...suffixes.map((x) => ctx.measureText(x).width));
    if (room - widest >= minName || form === forms[forms.length - 1]) {
      return names.map((name, i) => fitText(ctx, name, room - ctx.measureText(suffixes[i]).width) + suffixes[i]);
    }
  }
  return names;
}
