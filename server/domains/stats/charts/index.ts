/**
 * PNG charts of the statistics, drawn by chart.js on @napi-rs/canvas with the DejaVu Sans fonts of
 * the npm package (no system font needed), German labels, the guild's accent colour, a dark or a
 * light theme. renderChart draws in a worker thread; drawChart (draw.ts) is the same drawing in the caller.
 */
import { ChartPool } from './pool.ts';
import type { ChartSpec, ChartStyle } from './spec.ts';

export type { ChartSpec, ChartStyle } from './spec.ts';
export { formatDuration } from './format.ts';

/**
 * The worker's entry: compiled beside this code (dist/server/chart-worker.js, see server/build.mjs),
 * or run from the sources through tsx. chart.js and the drawing code load only in the worker.
 */
const workerScript = import.meta.url.endsWith('.ts') ? new URL('./worker-boot.mjs', import.meta.url) : new URL('./chart-worker.js', import.meta.url);

/**
 * One worker (the machine has 2 cores; the event loop keeps the other), 32 requests waiting at
 * most, 20 s per chart (a 2000×2000 leaderboard of 500 takes ~0.4 s), 256 MB of heap per worker.
 */
const pool = new ChartPool(workerScript, { size: 1, maxWaiting: 32, timeoutMs: 20_000, heapMb: 256 });

/**
 * Renders off the event loop (worker thread); resolves with PNG bytes of exactly width × height.
 * Rejects with AppError SERVICE_UNAVAILABLE (503, retryAfterS) when 32 charts are already
 * waiting, when a chart takes over 20 s, or when closeCharts() ends the render; with
 * INTERNAL_SERVER_ERROR when the renderer fails; with a RangeError for a size out of bounds
 * (whole pixels, at most 16,384 a side and 4,000,000 in all).
 */
export function renderChart(spec: ChartSpec, style: ChartStyle): Promise<Buffer> {
  return pool.render(spec, style);
}

/** The render queue: workers, charts rendering and waiting, renders refused (the metrics). */
export function chartQueue(): ChartPool['stats'] {
  return pool.stats;
}

/** Ends the worker(s); the server calls it on shutdown. Safe to call twice; renderChart after it starts a new worker. */
export function closeCharts(): Promise<void> {
  return pool.close();
}
