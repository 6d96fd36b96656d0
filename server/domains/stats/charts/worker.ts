import { parentPort } from 'node:worker_threads';
import { drawChart } from './draw.ts';
import type { ChartSpec, ChartStyle } from './spec.ts';

/** A request from the pool: draw this chart. */
export interface RenderJob { id: number; spec: ChartSpec; style: ChartStyle }
/** The answer: PNG bytes in an ArrayBuffer of their own (transferred, not copied), or why not. */
export type RenderResult = { id: number; ok: true; png: ArrayBuffer } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a chart worker thread');

/** One job at a time, in order: the pool sends the next one only after this one is answered. */
port.on('message', (job: RenderJob) => {
  let answer: RenderResult;
  const transfer: ArrayBuffer[] = [];
  try {
    const png = drawChart(job.spec, job.style);
    // Copied once into a plain ArrayBuffer: the canvas' buffer is native memory that may not be
    // transferable; the copy (~1 ms per MB) is then moved to the parent without another copy.
    const bytes = new Uint8Array(png.length);
    bytes.set(png);
    answer = { id: job.id, ok: true, png: bytes.buffer };
    transfer.push(bytes.buffer);
  } catch (err) {
    answer = { id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer, transfer);
});
