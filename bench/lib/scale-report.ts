import type { ScaleLoadReport } from '../load/scale.ts';
import type { PostgresCeiling } from './scale-pg.ts';
import { table } from './table.ts';

export interface ScaleOptions {
  nodes: number;
  guilds: number;
  boardsPerGuild: number;
  shared: number;
  writeIntervalMs: number;
  warmupMs: number;
  durationMs: number;
  pgLoops: number;
  pgDurationMs: number;
  writes: 'spread' | 'affine';
}

/** One node's figures over the window. */
export interface NodeFigures {
  cpuMs: number;
  /** Events that came from other nodes through Redis (the node's own metric). */
  received: number;
  servedGuilds: number;
  boards: number;
  /** Events of the guilds it serves: their writes answered in the window (one event per status change). */
  servedEvents: number;
  /** Distinct events its boards received in the window (a check of the above). */
  seenEvents: number;
  deliveries: number;
  /** Writes sent to this node. */
  writesTaken: number;
  followed: number;
  hubGuilds: number;
  /** CPU ms per second with its boards connected and no writes (measured before the writes start). */
  idleCpuMsPerS: number;
  /** Live heap after a full GC, MB: started, boards connected (guilds loaded), after the writes. */
  heapIdleMb?: number;
  heapBoardsMb?: number;
  heapEndMb?: number;
  /** Events of its guilds from the first write to the last (each kept in its guild's ring, up to the ring's size). */
  appliedEvents?: number;
  rssIdleMb: number;
  rssBoardsMb: number;
  rssEndMb: number;
}

export interface PhaseResult {
  phase: string;
  bus: 'guild' | 'broadcast';
  error?: string;
  stderr?: string[];
  connectMs?: number;
  nodes: NodeFigures[];
  windowMs: number;
  writes: number;
  pgCpuMs: number;
  redisCpuMs: number;
  loadCpuMs: number;
  /** Busy CPU of every other process on the box (other work, not this bench). */
  otherCpuMs: number;
  boxBusyMs: number;
  /** PUBLISH + SPUBLISH commands Redis ran in the window. */
  publishes: number;
  /** Boards still behind their guild's head after the drain. */
  behind: number;
  load?: ScaleLoadReport;
}

const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const pct = (part: number, whole: number) => `${Math.round((part * 100) / whole)}%`;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const nodeCpu = (r: PhaseResult) => sum(r.nodes.map((n) => n.cpuMs));
/** Node CPU per write, ms: the figure that matters (CPU % on a shared 2-core box does not). */
export const cpuPerWrite = (r: PhaseResult) => nodeCpu(r) / Math.max(1, r.writes);
/** The same without what the nodes cost idle (boards connected, no writes) over the window: the work the writes caused. */
export const busyCpuPerWrite = (r: PhaseResult) => (nodeCpu(r) - sum(r.nodes.map((n) => (n.idleCpuMsPerS * r.windowMs) / 1000))) / Math.max(1, r.writes);
const ratio = (n: NodeFigures) => n.received / Math.max(1, n.servedEvents);

function verdict(name: string, value: number, unit: string, target: number | null, label = 'reference'): string {
  const shown = `${f(value)}${unit}`.padStart(10);
  return `${name.padEnd(62)} ${shown}  ${target === null ? `(${label})` : `(target <= ${target}${unit})  ${value <= target ? 'ok' : 'MISSED'}`}`;
}

export function printScale(o: ScaleOptions, results: PhaseResult[], pg: PostgresCeiling | null): void {
  const out = (s: string) => process.stdout.write(s);
  for (const r of results.filter((x) => !x.error)) {
    out(`\n${r.phase}: ${r.nodes.length} node(s), ${r.bus} bus, window ${f(r.windowMs / 1000, 1)} s, ${r.writes} writes (${f((r.writes * 1000) / r.windowMs, 1)}/s)\n`);
    out(table(
      ['node', 'boards', 'guilds served', 'hub guilds', 'followed', 'writes taken', 'events of its guilds', 'its boards saw', 'received via Redis', 'received/served', 'CPU ms', 'CPU ms/write', 'idle CPU ms/s'],
      r.nodes.map((n, i) => [
        String(i), String(n.boards), String(n.servedGuilds), f(n.hubGuilds, 0), f(n.followed, 0), String(n.writesTaken), String(n.servedEvents), String(n.seenEvents),
        f(n.received, 0), `${f(ratio(n))}x`, f(n.cpuMs, 0), f(n.cpuMs / Math.max(1, r.writes), 3), f(n.idleCpuMsPerS, 1),
      ]),
    ));
  }
  out('\nmemory per node (live heap after a full GC, MB): started / boards connected (their guilds loaded) / after the writes\n');
  out(table(
    ['phase', 'node', 'boards', 'guilds', 'heap MB', '(connected - started) / board KB', 'events applied', '(after - connected) / event B', 'RSS MB'],
    results.filter((r) => !r.error).flatMap((r) => r.nodes.map((n, i) => [
      r.phase, String(i), String(n.boards), String(n.servedGuilds), `${f(n.heapIdleMb ?? NaN, 1)} / ${f(n.heapBoardsMb ?? NaN, 1)} / ${f(n.heapEndMb ?? NaN, 1)}`,
      f((((n.heapBoardsMb ?? NaN) - (n.heapIdleMb ?? NaN)) * 1024) / n.boards, 1), String(n.appliedEvents ?? '-'),
      f((((n.heapEndMb ?? NaN) - (n.heapBoardsMb ?? NaN)) * 2 ** 20) / Math.max(1, n.appliedEvents ?? 0), 0), `${f(n.rssIdleMb, 0)} / ${f(n.rssBoardsMb, 0)} / ${f(n.rssEndMb, 0)}`,
    ])),
  ));
  out('(per board: everything the boards brought, their guilds\' loaded state included; per event: what the guilds\' rings and states grew by, per event applied)\n');

  out('\nper phase, over the window (CPU in ms; "per write": divided by the writes answered in the window)\n');
  out(table(
    ['phase', 'nodes', 'writes/s', 'node CPU', 'node ms/write', 'less idle', 'PG ms/write', 'Redis ms/write', 'publishes/write', 'Redis deliveries/write', 'loadgen CPU', 'other CPU', 'box busy (2 cores)', 'gaps', 'dups', 'behind', 'write errors', 'skipped', 'write p50/p99 ms'],
    results.map((r) => (r.error ? [r.phase, String(r.nodes.length), 'FAILED'] : [
      r.phase, String(r.nodes.length), f((r.writes * 1000) / r.windowMs, 1), f(nodeCpu(r), 0), f(cpuPerWrite(r), 3), f(busyCpuPerWrite(r), 3), f(r.pgCpuMs / Math.max(1, r.writes), 3),
      f(r.redisCpuMs / Math.max(1, r.writes), 3), f(r.publishes / Math.max(1, r.writes)), f(sum(r.nodes.map((n) => n.received)) / Math.max(1, r.writes)),
      pct(r.loadCpuMs, r.windowMs), pct(r.otherCpuMs, r.windowMs), pct(r.boxBusyMs, 2 * r.windowMs),
      String(r.load!.gaps + r.load!.noSnapshot), String(r.load!.duplicates), String(r.behind), String(r.load!.writeErrors), String(r.load!.skipped),
      `${f(r.load!.writeP50Ms, 1)}/${f(r.load!.writeP99Ms, 1)}`,
    ])),
  ));
  out('(node CPU: user + system of the node processes from /proc/<pid>/stat; PG: the postmaster and its backends; other CPU: every process outside this bench, % of one core)\n\n');

  const by = (phase: string) => results.find((r) => r.phase === phase && !r.error);
  const [single, broadcast, guild] = [by('single'), by('broadcast'), by('guild')];
  if (guild) out(`${verdict(`guild bus, ${guild.nodes.length} nodes: the worst node's received / events of its guilds`, Math.max(...guild.nodes.map(ratio)), 'x', 1.2)}\n`);
  if (broadcast) out(`${verdict(`broadcast bus (before issue 30), the same figure`, Math.max(...broadcast.nodes.map(ratio)), 'x', null)}\n`);
  if (single && guild) out(`${verdict(`guild bus: node CPU per write, ${guild.nodes.length} nodes / 1 node`, cpuPerWrite(guild) / cpuPerWrite(single), 'x', 1.3)}\n`);
  if (single && broadcast) out(`${verdict(`broadcast bus: node CPU per write, ${broadcast.nodes.length} nodes / 1 node`, cpuPerWrite(broadcast) / cpuPerWrite(single), 'x', null)}\n`);
  if (single && guild) out(`${verdict('guild bus, the same less the nodes\' idle CPU', busyCpuPerWrite(guild) / busyCpuPerWrite(single), 'x', null, 'informational')}\n`);
  if (single && broadcast) out(`${verdict('broadcast bus, the same less the nodes\' idle CPU', busyCpuPerWrite(broadcast) / busyCpuPerWrite(single), 'x', null, 'informational')}\n`);
  for (const r of results.filter((x) => !x.error)) {
    const bad = r.load!.gaps + r.load!.noSnapshot + r.load!.duplicates + r.behind + r.load!.closed;
    out(`${verdict(`${r.phase}: gaps + duplicates + boards behind after the drain`, bad, '', 0)}\n`);
  }
  if (pg) {
    const perWrite = pg.pgCpuMs / Math.max(1, pg.writes);
    out(`\nPostgreSQL alone (status change through the service in the bench's process, ${pg.loops} loops, no HTTP): ${f((pg.writes * 1000) / pg.ms, 0)} writes/s `
      + `(${pg.errors} errors); PostgreSQL ${f(perWrite, 3)} ms CPU per write (one core: ${f(1000 / perWrite, 0)} writes/s), the service's JS + postgres.js `
      + `${f(pg.clientCpuMs / Math.max(1, pg.writes), 3)} ms per write; the box was ${pct(pg.boxBusyMs, 2 * pg.ms)} busy\n`);
  }

  const notes: string[] = [];
  for (const r of results) {
    if (r.error) notes.push(`${r.phase} failed: ${r.error}${r.stderr?.length ? ` | stderr: ${r.stderr.join(' | ')}` : ''}`);
    else {
      if (r.load!.problems.length) notes.push(`${r.phase}: ${r.load!.problems.slice(0, 3).join('; ')}`);
      if (r.stderr?.length) notes.push(`${r.phase}: nodes wrote to stderr, first: ${r.stderr.join(' | ')}`);
      if (nodeCpu(r) > 0.85 * r.windowMs) notes.push(`${r.phase}: the nodes share CPU 0 and used ${pct(nodeCpu(r), r.windowMs)} of it: saturated, so writes queue and CPU per write includes contention`);
      if (r.load!.skipped) notes.push(`${r.phase}: ${r.load!.skipped} writes skipped (a node had ${64} in flight): the nodes fell behind the rate`);
    }
  }
  const busiest = Math.max(0, ...results.filter((r) => !r.error).map((r) => r.boxBusyMs / (2 * r.windowMs)));
  notes.push(`this box has 2 cores for ${o.nodes} nodes, PostgreSQL, Redis and the load generator (and whatever else runs: "other CPU"); it was up to ${Math.round(busiest * 100)}% busy. `
    + 'CPU % of a node says little here: compare CPU-milliseconds per write. The N-node / 1-node ratio carries what N processes on one core cost in '
    + 'scheduling and caches besides the per-node work (timers, position checks, each node parsing its share of the traffic); on separate machines that share is smaller');
  for (const n of notes) out(`note: ${n}\n`);
}
