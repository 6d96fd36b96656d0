/**
 * The chart part of `bench stats`: bench/lib/stats-charts.ts measures each chart kind rendered by
 * the server's renderer against chart.js drawn directly on a canvas. It is loaded by path, so the
 * benchmark still runs (and says so) while that file does not exist.
 */
import { existsSync } from 'node:fs';
import { fmtMs, verdict } from './stats-report.ts';
import { table } from './table.ts';

const chartsFile = new URL('./stats-charts.ts', import.meta.url);
const TARGET = 1.2;

/** What benchCharts() answers per chart kind (bench/lib/stats-charts.ts's ChartBench). */
interface ChartBench { kind: string; oursMs: { p50: number; p99: number }; directMs: { p50: number; p99: number }; ratio: number }

const isChartBench = (x: unknown): x is ChartBench => {
  const c = x as ChartBench;
  return typeof c?.kind === 'string' && typeof c.oursMs?.p50 === 'number' && typeof c.directMs?.p50 === 'number' && typeof c.ratio === 'number';
};

/** Runs benchCharts() and prints its table; answers a verdict line per chart kind. A missing file becomes a note. */
export async function runChartBench(rounds: number, notes: string[]): Promise<string[]> {
  if (!existsSync(chartsFile)) {
    notes.push(`CHARTS NOT MEASURED: bench/lib/stats-charts.ts does not exist (its benchCharts() measures chart PNG render time against chart.js directly on a canvas, target <= ${TARGET}x)`);
    return [];
  }
  const mod = (await import(chartsFile.href)) as { benchCharts?: (o: { rounds: number }) => Promise<unknown> };
  if (typeof mod.benchCharts !== 'function') {
    notes.push('CHARTS NOT MEASURED: bench/lib/stats-charts.ts exports no benchCharts()');
    return [];
  }
  const results = await mod.benchCharts({ rounds });
  if (!Array.isArray(results) || !results.every(isChartBench)) {
    notes.push(`CHARTS: benchCharts() answered an unexpected shape: ${JSON.stringify(results).slice(0, 200)}`);
    return [];
  }
  process.stdout.write(`\nchart PNG render time (ms, ${rounds} renders each, interleaved): our renderer (worker thread, PNG back) vs the same chart.js configuration drawn directly on a canvas\n`);
  process.stdout.write(table(
    ['chart', 'p50 ours', 'p99 ours', 'p50 direct', 'p99 direct', 'p50 ours/direct'],
    results.map((r) => [r.kind, fmtMs(r.oursMs.p50), fmtMs(r.oursMs.p99), fmtMs(r.directMs.p50), fmtMs(r.directMs.p99), `${r.ratio.toFixed(2)}x`]),
  ));
  return results.map((r) => verdict(`chart ${r.kind}`, r.ratio, `chart.js directly on a canvas (p50 ${fmtMs(r.oursMs.p50)} vs ${fmtMs(r.directMs.p50)} ms)`, TARGET).line);
}
