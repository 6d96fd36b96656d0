/**
 * Chart PNG render time per chart kind: ours (renderChart — a worker thread, the spec sent over,
 * the PNG transferred back) against the reference, the identical chart.js configuration drawn
 * directly on a @napi-rs/canvas in this process (new Chart(...) + toBuffer('image/png')).
 * Target: ours ≤ 1.2× the reference at p50.
 */
import { createCanvas } from '@napi-rs/canvas';
import { Chart } from 'chart.js';
import { closeCharts, renderChart, type ChartSpec, type ChartStyle } from '../../server/domains/stats/charts/index.ts';
import { chartConfig } from '../../server/domains/stats/charts/configs.ts';
import { setupCharts } from '../../server/domains/stats/charts/draw.ts';

export interface ChartBench {
  kind: string;
  oursMs: { p50: number; p99: number };
  directMs: { p50: number; p99: number };
  /** ours p50 / direct p50 */
  ratio: number;
}

const H = 3_600_000;
/** The default maxPixels (990,000) at the lead's 16:10-ish aspect, in Discord's dark theme. */
const STYLE: ChartStyle = { width: 1280, height: 773, theme: 'dark', color: '#e67e22' };
const days = Array.from({ length: 31 }, (_, i) => `${i + 1}.`);
const people = Array.from({ length: 50 }, (_, i) => ({ label: `${String(i + 1).padStart(2, '0')} Person ${i + 1}`, ms: Math.round(60 * H / (1 + i * 0.1)) }));

/** One realistic chart per kind: a top-50 leaderboard, ten shares, a month's trend, a month of shifts. */
export const benchSpecs: ChartSpec[] = [
  { kind: 'bars', title: 'Dienstzeit-Rangliste', subtitle: 'Bench · Monat 01.05.2025 – 31.05.2025', rows: people },
  { kind: 'share', title: 'Anteil an der Dienstzeit', subtitle: 'Bench · Monat', slices: [...people.slice(0, 9), { label: 'Andere', ms: 300 * H }] },
  { kind: 'trend', title: 'Dienstzeit im Verlauf', subtitle: 'Bench · Monat', labels: days, current: { label: 'Mai', ms: days.map((_, i) => (20 + (i * 7) % 13) * H) }, previous: { label: 'April', ms: days.map((_, i) => (18 + (i * 5) % 11) * H) } },
  { kind: 'shifts', title: 'Dienstzeit: 01 Person 1', subtitle: 'Bench · Monat', labels: days, ms: days.map((_, i) => ((i * 37) % 11) * H) },
];

/** The reference: chart.js on a canvas in this thread, with the configuration the renderer builds. */
function drawDirect(spec: ChartSpec, style: ChartStyle): Buffer {
  const canvas = createCanvas(style.width, style.height);
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, chartConfig(spec, style, canvas.getContext('2d')));
  const png = canvas.toBuffer('image/png');
  chart.destroy();
  return png;
}

/** Lets the event loop turn: @napi-rs/canvas frees a canvas' native memory in finalizers that run there. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export async function benchCharts(opts: { rounds?: number } = {}): Promise<ChartBench[]> {
  const rounds = opts.rounds ?? 40;
  setupCharts();
  const results: ChartBench[] = [];
  try {
    for (const spec of benchSpecs) {
      for (let i = 0; i < 5; i++) { // warm-up: the worker started and both paths compiled
        await renderChart(spec, STYLE);
        drawDirect(spec, STYLE);
        await turn();
      }
      const ours: number[] = [], direct: number[] = [];
      for (let i = 0; i < rounds; i++) { // interleaved, so drift of the machine hits both alike
        let t = performance.now();
        await renderChart(spec, STYLE);
        ours.push(performance.now() - t);
        await turn();
        t = performance.now();
        drawDirect(spec, STYLE);
        direct.push(performance.now() - t);
        await turn();
      }
      const o = { p50: quantile(ours, 0.5), p99: quantile(ours, 0.99) };
      const d = { p50: quantile(direct, 0.5), p99: quantile(direct, 0.99) };
      results.push({ kind: spec.kind, oursMs: o, directMs: d, ratio: o.p50 / d.p50 });
    }
  } finally {
    await closeCharts();
  }
  return results;
}
