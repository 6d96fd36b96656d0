import { agePercentile, mergeAges, newAges, unpackAges } from './positions-ages.ts';
import type { SendersWindow } from './positions-senders.ts';
import { table } from './table.ts';

export interface PositionsOptions {
  guilds: number; units: number; boards: number; nodes: number;
  coalescedMs: number; referenceMs: number; ingestMs: number; warmupMs: number;
  intervalMs: number; slotMs: number; per: 'put' | 'position'; connections: number;
}

export interface PhaseFigures {
  name: 'per-event' | 'coalesced' | 'two nodes';
  nodes: number;
  error?: string;
  connectMs?: number;
  windowMs: number;
  /** Server CPU (all nodes) over the ingest-only window (PUTs, no boards) and its length. */
  ingestCpuMs: number;
  ingestMs: number;
  ingestPuts?: SendersWindow;
  serverCpuMs: number;
  serverCpuByNode: number[];
  framesByNode: number[];
  bytesByNode: number[];
  frames: number;
  positions: number;
  agesByNode: [number, number][][];
  sentAgesByNode: [number, number][][];
  /** Server RSS (MB per node) every 5 s of the window. */
  rss: { s: number; mb: number[] }[];
  /** Server heap after full GCs (heapUsed + external, MB per node) just before and just after the window, outside its CPU figures. */
  heapMb: { first: number[]; last: number[] };
  boardsCpuMs: number;
  sendersCpuMs: number;
  boxBusyMs: number;
  closed: number;
  puts?: SendersWindow;
  /** Frames the coalesced delivery sent (its counter), sockets it skipped (> 256 KB buffered), events the reference published. */
  serverFrames: number;
  skipped: number;
  referenceEvents: number;
  problems: string[];
}

const LOAD_CPU_LIMIT_MS = 850; // of 1000 per second on the load generator's one CPU

const perS = (v: number, ms: number) => (v * 1000) / ms;
const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

function ages(r: PhaseFigures, which: 'agesByNode' | 'sentAgesByNode', node?: number) {
  const all = newAges();
  r[which].forEach((packed, i) => node === undefined || node === i ? mergeAges(all, unpackAges(packed)) : undefined);
  return { p50: agePercentile(all, 0.5), p99: agePercentile(all, 0.99) };
}

/** RSS growth over the window: the median of the last fifth of the samples against the first fifth (all nodes summed). */
export function rssGrowth(r: PhaseFigures): { first: number; last: number; growth: number } {
  const totals = r.rss.map((x) => x.mb.reduce((a, b) => a + b, 0));
  const k = Math.max(1, Math.floor(totals.length / 5));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const first = median(totals.slice(0, k));
  const last = median(totals.slice(-k));
  return { first, last, growth: last / first - 1 };
}

/** The live heap's growth over the window (all nodes summed). */
export function heapGrowth(r: PhaseFigures): { first: number; last: number; growth: number } {
  const first = r.heapMb.first.reduce((a, b) => a + b, 0);
  const last = r.heapMb.last.reduce((a, b) => a + b, 0);
  return { first, last, growth: first > 0 && r.heapMb.last.length ? last / first - 1 : NaN };
}

function column(r: PhaseFigures): string[] {
  if (r.error) return [`failed: ${r.error.slice(0, 60)}`];
  const w = r.windowMs;
  const cpu = perS(r.serverCpuMs, w);
  const ingest = perS(r.ingestCpuMs, r.ingestMs);
  const a = ages(r, 'agesByNode');
  const s = ages(r, 'sentAgesByNode');
  const b = r.nodes > 1 ? ages(r, 'agesByNode', 1) : null;
  const g = rssGrowth(r);
  const h = heapGrowth(r);
  const boardsCount = r.framesByNode.length ? r.frames : 0;
  return [
    f0(w / 1000),
    `${f0(cpu)}${r.nodes > 1 ? ` (${r.serverCpuByNode.map((c) => f0(perS(c, w))).join(' + ')})` : ''}`,
    f0(ingest),
    f0(cpu - ingest),
    `${f0(perS(r.puts?.puts ?? NaN, w))} / ${f0(perS(r.puts?.positions ?? NaN, w))}`,
    `${f1(r.puts?.latencyP50Ms ?? NaN)} / ${f1(r.puts?.latencyP99Ms ?? NaN)}`,
    `${r.puts?.errors ?? '–'} / ${r.puts?.dropped ?? '–'}`,
    `${f0(perS(boardsCount, w))}${r.nodes > 1 ? ` (${r.framesByNode.map((x) => f0(perS(x, w))).join(' + ')})` : ''}`,
    f1(perS(r.bytesByNode.reduce((x, y) => x + y, 0), w) / 2 ** 20),
    f0(perS(r.positions, w)),
    `${f0(a.p50)} / ${f0(a.p99)}${b ? ` (B: ${f0(b.p50)} / ${f0(b.p99)})` : ''}`,
    `${f0(s.p50)} / ${f0(s.p99)}`,
    r.name === 'per-event' ? `${f0(perS(r.referenceEvents, w))} events` : `${f0(perS(r.serverFrames, w))} / ${r.skipped}`,
    `${f0(g.first)} → ${f0(g.last)} (max ${f0(Math.max(...r.rss.map((x) => x.mb.reduce((p, q) => p + q, 0))))})`,
    `${f1(h.first)} → ${f1(h.last)}`,
    `${f0(perS(r.boardsCpuMs, w))} + ${f0(perS(r.sendersCpuMs, w))}`,
    f0(perS(r.boxBusyMs, w)),
    String(r.closed),
  ];
}

const rowNames = [
  'window (s)',
  'server CPU (ms/s; per node)',
  '  of it taking PUTs in, no boards (ms/s)',
  '  delivery: the rest (ms/s)',
  'PUTs / positions in (/s)',
  'PUT latency p50 / p99 (ms)',
  'PUT errors / dropped',
  'frames received by boards (/s)',
  'bytes received (MB/s)',
  'positions received (/s)',
  'age on boards p50 / p99 (ms, minus `at`)',
  'age since the PUT left p50 / p99 (ms)',
  'server: frames sent (/s) / sockets skipped',
  'server RSS first → last fifth (MB)',
  'server heap after GC, start → end (MB)',
  'load generator CPU: boards + PUTs (ms/s)',
  'whole box busy (ms/s, of 2000)',
  'boards closed',
];

function target(name: string, shown: string, ok: boolean, goal: string): string {
  return `${name.padEnd(52)} ${shown.padStart(10)}  (target ${goal})  ${ok ? 'PASS' : 'MISSED'}`;
}

export function printPositions(o: PositionsOptions, results: PhaseFigures[]): void {
  const body = rowNames.map((name, i) => [name, ...results.map((r) => column(r)[i] ?? '')]);
  process.stdout.write(`\n${table(['', ...results.map((r) => r.name)], body)}`);
  for (const r of results) {
    for (const p of r.problems.slice(0, 4)) process.stdout.write(`  ${r.name}: ${p}\n`);
  }
  const ref = results.find((r) => r.name === 'per-event' && !r.error);
  const co = results.find((r) => r.name === 'coalesced' && !r.error);
  const two = results.find((r) => r.name === 'two nodes' && !r.error);
  process.stdout.write('\n');
  if (ref && co) {
    const frames = perS(ref.frames, ref.windowMs) / perS(co.frames, co.windowMs);
    const cpu = perS(ref.serverCpuMs, ref.windowMs) / perS(co.serverCpuMs, co.windowMs);
    const refDelivery = perS(ref.serverCpuMs, ref.windowMs) - perS(ref.ingestCpuMs, ref.ingestMs);
    const coDelivery = perS(co.serverCpuMs, co.windowMs) - perS(co.ingestCpuMs, co.ingestMs);
    // A difference of two CPU readings: at or below zero it is noise, and a ratio of it means nothing.
    const delivery = refDelivery > 0 && coDelivery > 0 ? refDelivery / coDelivery : NaN;
    process.stdout.write(`${target(`frames, per-event (${o.per === 'put' ? 'one per PUT' : 'one per position'}) / coalesced`, `${f1(frames)}x`, frames >= 10, '>= 10x')}\n`);
    process.stdout.write(`${target('server CPU, per-event / coalesced', `${f1(cpu)}x`, cpu >= 5, '>= 5x')}\n`);
    process.stdout.write(`${target('  delivery CPU alone (minus taking PUTs in)', Number.isFinite(delivery) ? `${f1(delivery)}x` : 'noise', delivery >= 5, '>= 5x')}\n`);
    if (!Number.isFinite(delivery)) process.stdout.write(`  (delivery CPU per-event ${f0(refDelivery)} ms/s, coalesced ${f0(coDelivery)} ms/s: at or below zero, within the noise of the subtraction)\n`);
  }
  if (co) {
    const a = ages(co, 'agesByNode');
    process.stdout.write(`${target('age p99 on the boards, coalesced', `${f0(a.p99)} ms`, a.p99 <= 1500, '<= 1500 ms')}\n`);
    // Memory flat: what the server holds after a full GC must not grow. RSS is shown beside it; it
    // also moves with when the collector last ran and how much the allocator keeps.
    const h = heapGrowth(co);
    process.stdout.write(`${target(`server heap after GC over ${f0(co.windowMs / 1000)} s, end / start`, `${h.growth >= 0 ? '+' : ''}${f1(h.growth * 100)}%`, h.growth <= 0.05, '<= +5%')}\n`);
    const g = rssGrowth(co);
    process.stdout.write(`  (RSS, last fifth / first: ${g.growth >= 0 ? '+' : ''}${f1(g.growth * 100)}%)\n`);
  }
  if (two) {
    const b = ages(two, 'agesByNode', 1);
    process.stdout.write(`${target('age p99 on node B (PUTs to node A, Redis)', `${f0(b.p99)} ms`, b.p99 <= 1500, '<= 1500 ms')}\n`);
  }
  for (const r of results.filter((x) => !x.error)) {
    const load = perS(r.boardsCpuMs + r.sendersCpuMs, r.windowMs);
    const server = perS(r.serverCpuMs, r.windowMs) / r.nodes;
    if (load >= LOAD_CPU_LIMIT_MS) process.stdout.write(`${r.name}: the load generator is the limit (${f0(load)} ms/s of its one CPU): scale down with --guilds/--units/--boards\n`);
    else if (server >= LOAD_CPU_LIMIT_MS) process.stdout.write(`${r.name}: the server's CPU is saturated (${f0(server)} ms/s per node): its figures are a floor\n`);
  }
}
