import type { Chart, Plugin } from 'chart.js';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { FONT_FAMILY } from './fonts.ts';
import { font, type Metrics } from './layout.ts';
import { fitText } from './text.ts';
import type { Theme } from './theme.ts';

/** Chart.js draws on @napi-rs/canvas' context, a superset of what the plugins use. */
export const context = (chart: Chart) => chart.ctx as unknown as SKRSContext2D;

/** A line series as the header's legend row shows it: a short stroke in its colour and dash, then its text. */
export interface LegendEntry { text: string; color: string; dash: number[]; lineWidth: number }

export interface Header { title: string; subtitle: string; note: string; legend: LegendEntry[] }

/**
 * The frame of every chart: the theme's background over the whole image (a PNG without it would
 * be transparent, unreadable on Discord's dark theme), title and subtitle at the top left, a note
 * (e.g. "+ 468 weitere") right-aligned on the subtitle line, and the legend row of line charts
 * below. Texts too long are cut with "…"; nothing is drawn outside the image.
 */
export function framePlugin(t: Theme, m: Metrics, h: Header): Plugin {
  return {
    id: 'dtFrame',
    beforeDraw(chart) {
      const ctx = context(chart);
      const { width, height } = chart;
      ctx.save();
      ctx.fillStyle = t.background;
      ctx.fillRect(0, 0, width, height);
      const inner = width - 2 * m.pad;
      ctx.textBaseline = 'top';
      ctx.textAlign = 'left';
      ctx.fillStyle = t.text;
      ctx.font = font(m.title, FONT_FAMILY, true);
      ctx.fillText(fitText(ctx, h.title, inner), m.pad, m.pad * 0.9);
      let y = m.pad * 0.9 + m.title * 1.2 + m.subtitle * 0.25;
      ctx.font = font(m.subtitle, FONT_FAMILY);
      let noteWidth = 0;
      if (h.note) {
        ctx.fillStyle = t.accent;
        ctx.textAlign = 'right';
        const shown = fitText(ctx, h.note, inner);
        ctx.fillText(shown, width - m.pad, y);
        noteWidth = ctx.measureText(shown).width + m.pad;
        ctx.textAlign = 'left';
      }
      if (h.subtitle && inner - noteWidth > 0) {
        ctx.fillStyle = t.muted;
        ctx.fillText(fitText(ctx, h.subtitle, inner - noteWidth), m.pad, y);
      }
      if (h.legend.length > 0) {
        y += (h.subtitle ? m.subtitle * 1.45 : 0) + m.legend * 0.35;
        drawLegendRow(ctx, t, m, h.legend, y, inner);
      }
      ctx.restore();
    },
  };
}

function drawLegendRow(ctx: SKRSContext2D, t: Theme, m: Metrics, entries: LegendEntry[], y: number, inner: number): void {
  const stroke = m.legend * 1.7;
  let x = m.pad;
  ctx.font = font(m.legend, FONT_FAMILY);
  for (const e of entries) {
    const room = m.pad + inner - x - stroke - m.legend * 0.5;
    if (room < m.legend * 2) break;
    ctx.strokeStyle = e.color;
    ctx.lineWidth = e.lineWidth;
    ctx.setLineDash(e.dash);
    ctx.beginPath();
    ctx.moveTo(x, y + m.legend * 0.55);
    ctx.lineTo(x + stroke, y + m.legend * 0.55);
    ctx.stroke();
    ctx.setLineDash([]);
    const text = fitText(ctx, e.text, room);
    ctx.fillStyle = t.text;
    ctx.fillText(text, x + stroke + m.legend * 0.5, y);
    x += stroke + m.legend * 0.5 + ctx.measureText(text).width + m.legend * 1.6;
  }
}

/** "Keine Daten im Zeitraum" (`text`, in the chart's language), centred in the space below the header. */
export function emptyPlugin(t: Theme, m: Metrics, text: string): Plugin {
  return {
    id: 'dtEmpty',
    afterDraw(chart) {
      const ctx = context(chart);
      ctx.save();
      ctx.font = font(m.base * 1.15, FONT_FAMILY);
      ctx.fillStyle = t.muted;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const y = m.header + (chart.height - m.header) / 2;
      ctx.fillText(fitText(ctx, text, chart.width - 2 * m.pad), chart.width / 2, Math.min(y, chart.height - m.base));
      ctx.restore();
    },
  };
}
