import type { ChartConfiguration, LegendItem } from 'chart.js';
import { baseOptions, frame, type Frame } from './config-common.ts';
import { FONT_FAMILY } from './fonts.ts';
import { formatDuration, formatPercent } from './format.ts';
import { font } from './layout.ts';
import { doughnutPlugin } from './plugins.ts';
import type { ChartSpec } from './spec.ts';
import { drawableLabel, fitText } from './text.ts';
import { paletteFor } from './theme.ts';

type Share = Extract<ChartSpec, { kind: 'share' }>;

/** The slice the caller folds the tail into; it is drawn in the neutral grey, not a person's colour. */
const OTHERS = 'Andere';

/**
 * Shares as a doughnut: the total in the hole, percentages on the slices that hold them, and a
 * legend (beside the doughnut on wide images, below it on tall ones) naming each slice with its
 * duration and share.
 */
export function shareConfig(f: Frame<Share>): ChartConfiguration {
  const { m, t, measure, width, height } = f;
  const slices = f.spec.slices.map((s) => ({ label: s.label, ms: Math.max(0, Number(s.ms) || 0) }));
  const total = slices.reduce((a, s) => a + s.ms, 0);
  const palette = paletteFor(t, slices.filter((s) => s.label !== OTHERS).length);
  let next = 0;
  const colors = slices.map((s) => (s.label === OTHERS ? t.neutral : palette[next++]));

  const beside = width >= height * 1.15;
  const legendFont = m.base * 0.85;
  const box = legendFont * 0.9;
  const legendRoom = beside ? width * 0.5 - m.pad : width - 2 * m.pad;
  measure.font = font(legendFont, FONT_FAMILY);
  const texts = slices.map((s) => {
    const suffix = `  ${formatDuration(s.ms)} · ${formatPercent(s.ms / total)}`;
    const nameRoom = legendRoom - box - legendFont * 1.5 - measure.measureText(suffix).width;
    return (nameRoom > legendFont * 2 ? fitText(measure, drawableLabel(s.label), nameRoom) : '') + suffix;
  });

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
          position: beside ? 'right' : 'bottom',
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
