import type { DeltaRecord } from '../board/probe.ts';
import type { MainThread } from './board-page.ts';

/** The `q` quantile (0..1) of `xs` (nearest rank); NaN when empty. */
export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export interface Spread { p50: number; p99: number; mean: number; max: number }
export const spread = (xs: number[]): Spread => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99), mean: mean(xs), max: xs.length ? Math.max(...xs) : NaN });

export interface Measured { records: DeltaRecord[]; writes: number; frames: number; cpu: { benchPct: number; otherPct: number }; main: MainThread }

/** One tab's run: the board alone, then with the naive reference mounted. */
export interface TabRun {
  tab: string;
  label: string;
  /** The topic whose deltas change what this tab shows. */
  topic: string;
  board: Measured;
  naive: Measured;
  /** The main thread over a few seconds without deltas on this tab (running clocks, animations). */
  idle: MainThread;
}

/** The figures of one tab run (ms unless named otherwise). */
export function tabFigures(run: TabRun) {
  const b = run.board.records;
  const n = run.naive.records;
  const of = (rs: DeltaRecord[], f: (r: DeltaRecord) => number) => spread(rs.map(f));
  const own = b.filter((r) => r.topics.includes(run.topic));
  const toPaint = (r: DeltaRecord) => r.painted - r.arrived;
  return {
    paint: of(b, toPaint),
    paintOwn: of(own, toPaint),
    ownCount: own.length,
    queued: of(b, (r) => r.dispatched - r.arrived),
    handling: of(b, (r) => r.handled - r.dispatched),
    toFrame: of(b, (r) => r.painted - r.handled),
    decode: of(b, (r) => r.listened - r.dispatched),
    render: of(b, (r) => r.rendered - r.listened),
    layout: of(b, (r) => r.handled - r.rendered),
    /** All of the board's JS for the delta: decoding, applying, effects, Preact. */
    script: of(b, (r) => r.rendered - r.dispatched),
    naiveRender: of(n, (r) => r.naiveRender),
    /** The naive approach's JS for the delta: the same decoding and applying (measured in its run), then the full re-render. */
    naiveScript: of(n, (r) => r.listened - r.dispatched + r.naiveRender),
    naiveLayout: of(n, (r) => r.naive - r.naiveRender),
    naive: of(n, (r) => r.naive),
    paintWithNaive: of(n, toPaint),
    mutations: mean(b.map((r) => r.mutations)),
    naiveMutations: mean(n.map((r) => r.naiveMutations)),
  };
}

export const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '-');
export const kb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KB` : '-');

export interface Row { figure: string; target: string; measured: string; ok?: boolean }

export function printRows(rows: Row[]): void {
  const head = { figure: 'figure', target: 'target', measured: 'measured', ok: undefined };
  const w = (k: 'figure' | 'target' | 'measured') => Math.max(...[head, ...rows].map((r) => r[k].length));
  const line = (r: Row) => `${r.figure.padEnd(w('figure'))}  ${r.target.padEnd(w('target'))}  ${r.measured.padEnd(w('measured'))}  ${r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED'}`.trimEnd();
  process.stdout.write(`\n${line(head)}\n${[w('figure'), w('target'), w('measured'), 6].map((n) => '-'.repeat(n)).join('  ')}\n${rows.map(line).join('\n')}\n`);
}

/** The table rows of one tab run; notes about the box go to `notes`. */
export function tabRows(run: TabRun, notes: string[]): Row[] {
  const rows: Row[] = [];
  const f = tabFigures(run);
  const pair = (x: { p50: number; p99: number }) => `${ms(x.p50)} / ${ms(x.p99)}`;
  const ratio = f.naiveScript.mean / f.script.mean;
  rows.push({ figure: `${run.label}: delta -> next paint, p50 / p99`, target: 'p99 <= 16 ms', measured: `${pair(f.paint)} ms (${run.board.records.length} deltas)`, ok: f.paint.p99 <= 16 });
  rows.push({ figure: `  the same, ${run.topic} deltas only`, target: '', measured: `${pair(f.paintOwn)} ms (${f.ownCount} deltas)` });
  rows.push({ figure: '  of it: queued | handled | to the paint, p50 / p99', target: '', measured: `${pair(f.queued)} | ${pair(f.handling)} | ${pair(f.toFrame)} ms` });
  rows.push({ figure: '  board per delta: decode+apply / render / style+layout, mean', target: '', measured: `${ms(f.decode.mean)} / ${ms(f.render.mean)} / ${ms(f.layout.mean)} ms` });
  const m = run.board.main;
  const per = (x: number) => ms(x / run.board.frames);
  rows.push({ figure: '  main thread per delta: all = script + style + layout + rest', target: '', measured: `${per(m.taskMs)} = ${per(m.scriptMs)} + ${per(m.styleMs)} + ${per(m.layoutMs)} + ${per(m.taskMs - m.scriptMs - m.styleMs - m.layoutMs)} ms` });
  rows.push({ figure: '  main thread busy without deltas (3 s)', target: '', measured: `${Math.round((run.idle.taskMs * 100) / run.idle.wallMs)}%` });
  rows.push({ figure: '  naive per delta: render / style+layout, mean', target: '', measured: `${ms(f.naiveRender.mean)} / ${ms(f.naiveLayout.mean)} ms` });
  rows.push({ figure: `${run.label}: JS per delta, naive / board, mean (p50)`, target: '>= 10x', measured: `${ratio.toFixed(1)}x (${(f.naiveScript.p50 / f.script.p50).toFixed(1)}x): ${ms(f.naiveScript.mean)} / ${ms(f.script.mean)} ms`, ok: ratio >= 10 });
  rows.push({ figure: '  render only: naive re-render / board\'s Preact microtasks', target: '', measured: `${(f.naiveRender.mean / f.render.mean).toFixed(1)}x (${(f.naiveRender.p50 / f.render.p50).toFixed(1)}x)` });
  rows.push({ figure: '  DOM mutation records per delta, board / naive', target: '', measured: `${f.mutations.toFixed(1)} / ${f.naiveMutations.toFixed(1)}` });
  rows.push({ figure: '  delta -> paint with the naive view as well, p50 / p99', target: '', measured: `${pair(f.paintWithNaive)} ms` });
  rows.push({ figure: '  CPU: this bench / other processes, % of a core', target: '', measured: `${Math.round(run.board.cpu.benchPct)} / ${Math.round(run.board.cpu.otherPct)}% (naive run: ${Math.round(run.naive.cpu.benchPct)} / ${Math.round(run.naive.cpu.otherPct)}%)` });
  if (f.mutations < 0.5) notes.push(`${run.label}: the board changed almost no DOM inside the probe's window (${f.mutations.toFixed(2)} records per delta): it renders later (in a frame?), so its render figures undercount`);
  if (run.board.cpu.otherPct > 25 || run.naive.cpu.otherPct > 25) notes.push(`${run.label}: other processes used up to ${Math.round(Math.max(run.board.cpu.otherPct, run.naive.cpu.otherPct))}% of a core while it was measured: the box was not quiet, latencies above all are noisy`);
  return rows;
}
