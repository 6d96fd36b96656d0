import type { ArcElement, BarElement, Plugin } from 'chart.js';
import { FONT_FAMILY } from './fonts.ts';
import { formatDuration, formatPercent } from './format.ts';
import { font, type Metrics } from './layout.ts';
import { context } from './frame.ts';
import { textOn, type Theme } from './theme.ts';


/**
 * Each bar's duration as text (`texts[i]`, '' for none): after the end of a horizontal bar
 * (inside it, in a contrasting colour, when there is no room after it), or above a vertical one.
 * Vertical bars are labelled all or none: when one text is wider than its bar's slot, none is
 * drawn (a few labelled bars among many read as a pattern). A text that fits nowhere is left out.
 */
export function barValuesPlugin(t: Theme, texts: string[], size: number, horizontal: boolean, barColor: string): Plugin {
  return {
    id: 'dtBarValues',
    afterDatasetsDraw(chart) {
      const ctx = context(chart);
      const area = chart.chartArea;
      const bars = chart.getDatasetMeta(0).data as unknown as BarElement[];
      const gap = size * 0.4;
      ctx.save();
      ctx.font = font(size, FONT_FAMILY);
      ctx.textBaseline = 'middle';
      const slot = bars.length > 0 ? area.width / bars.length : 0;
      const crowded = !horizontal && texts.some((text) => ctx.measureText(text).width > slot * 0.98);
      (crowded ? [] : bars).forEach((bar, i) => {
        const text = texts[i] ?? '';
        if (!text) return;
        const w = ctx.measureText(text).width;
        const { x, y, base } = bar.getProps(['x', 'y', 'base'], true) as unknown as { x: number; y: number; base: number };
        if (horizontal) {
          if (x + gap + w <= area.right + size) {
            ctx.fillStyle = t.text; ctx.textAlign = 'left'; ctx.fillText(text, x + gap, y);
          } else if (x - base >= w + 2 * gap) {
            ctx.fillStyle = textOn(barColor); ctx.textAlign = 'right'; ctx.fillText(text, x - gap, y);
          }
          return;
        }
        ctx.textAlign = 'center';
        if (y - gap - size >= area.top - size * 0.5) {
          ctx.fillStyle = t.text; ctx.fillText(text, x, y - gap - size / 2);
        } else if (base - y >= size + 2 * gap) {
          ctx.fillStyle = textOn(barColor); ctx.fillText(text, x, y + gap + size / 2);
        }
      });
      ctx.restore();
    },
  };
}

/** The total in the doughnut's hole, and each slice's percentage on slices big enough to hold it. */
export function doughnutPlugin(t: Theme, m: Metrics, ms: number[], colors: string[]): Plugin {
  const total = ms.reduce((a, b) => a + b, 0);
  return {
    id: 'dtDoughnut',
    afterDatasetsDraw(chart) {
      const ctx = context(chart);
      const arcs = chart.getDatasetMeta(0).data as unknown as ArcElement[];
      if (arcs.length === 0) return;
      const { x, y, innerRadius, outerRadius } = arcs[0].getProps(['x', 'y', 'innerRadius', 'outerRadius'], true) as unknown as
        { x: number; y: number; innerRadius: number; outerRadius: number };
      ctx.save();
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const totalText = formatDuration(total);
      let size = Math.min(m.base * 1.5, innerRadius * 0.42);
      ctx.font = font(size, FONT_FAMILY, true);
      const fits = ctx.measureText(totalText).width;
      if (fits > innerRadius * 1.7) size *= (innerRadius * 1.7) / fits;
      if (size >= m.floor * 0.8) {
        ctx.font = font(size, FONT_FAMILY, true);
        ctx.fillStyle = t.text;
        ctx.fillText(totalText, x, y + size * 0.45);
        ctx.font = font(size * 0.7, FONT_FAMILY);
        ctx.fillStyle = t.muted;
        ctx.fillText('Gesamt', x, y - size * 0.65);
      }
      const thickness = outerRadius - innerRadius;
      const labelSize = Math.min(m.base * 0.85, thickness * 0.34);
      ctx.font = font(labelSize, FONT_FAMILY, true);
      arcs.forEach((arc, i) => {
        const share = total > 0 ? ms[i] / total : 0;
        const { startAngle, endAngle } = arc.getProps(['startAngle', 'endAngle'], true) as unknown as { startAngle: number; endAngle: number };
        const text = formatPercent(share);
        const mid = (startAngle + endAngle) / 2, r = (innerRadius + outerRadius) / 2;
        const chord = (endAngle - startAngle) * r;
        if (labelSize < m.floor * 0.8 || chord < ctx.measureText(text).width * 1.15 || chord < labelSize * 1.6) return;
        ctx.fillStyle = textOn(colors[i]);
        ctx.fillText(text, x + Math.cos(mid) * r, y + Math.sin(mid) * r);
      });
      ctx.restore();
    },
  };
}

/** Leaderboard ranks ("1.", "2." …) in a muted column left of the names, right-aligned at `right`. */
export function ranksPlugin(t: Theme, size: number, right: number): Plugin {
  return {
    id: 'dtRanks',
    afterDatasetsDraw(chart) {
      const ctx = context(chart);
      ctx.save();
      ctx.font = font(size, FONT_FAMILY);
      ctx.fillStyle = t.muted;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      (chart.getDatasetMeta(0).data as unknown as BarElement[]).forEach((bar, i) => {
        ctx.fillText(`${i + 1}.`, right, (bar.getProps(['y'], true) as unknown as { y: number }).y);
      });
      ctx.restore();
    },
  };
}
