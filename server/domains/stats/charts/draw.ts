import { createCanvas } from '@napi-rs/canvas';
import {
  ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Filler, Legend,
  LinearScale, LineController, LineElement, PointElement,
} from 'chart.js';
import { chartConfig } from './configs.ts';
import { FONT_FAMILY, registerChartFonts } from './fonts.ts';
import { checkStyle, type ChartSpec, type ChartStyle } from './spec.ts';

let ready = false;

/** Once per thread: the fonts, and only the chart.js parts the four chart kinds use. */
export function setupCharts(): void {
  if (ready) return;
  registerChartFonts();
  Chart.register(BarController, BarElement, DoughnutController, ArcElement, LineController, LineElement, PointElement,
    CategoryScale, LinearScale, Filler, Legend);
  Chart.defaults.font.family = FONT_FAMILY;
  Chart.defaults.animation = false;
  ready = true;
}

/**
 * Draws the chart in the calling thread and encodes it as a PNG of exactly width × height.
 * The chart is destroyed before returning, so nothing of it stays reachable (chart.js keeps
 * every live chart in a registry until destroy()). The canvas' native memory (width × height × 4
 * bytes) is freed by finalizers that run when the event loop turns: a caller drawing many charts
 * in one synchronous loop holds all of them until it yields (the worker yields after each chart).
 */
export function drawChart(spec: ChartSpec, style: ChartStyle): Buffer {
  const invalid = checkStyle(style);
  if (invalid) throw new RangeError(invalid);
  setupCharts();
  const canvas = createCanvas(style.width, style.height);
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, chartConfig(spec, style, canvas.getContext('2d')));
  try {
    return canvas.toBuffer('image/png');
  } finally {
    chart.destroy();
  }
}
