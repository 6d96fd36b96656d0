/**
 * Benchmark dispatcher: `npm run bench -- <name> [options]` runs `bench/<name>.ts`.
 * Every benchmark compares against a reference measured in the same run and prints ratios;
 * absolute numbers on a shared 2-core box mean little.
 */

/** A benchmark module exports `run(args)`; add one line here per benchmark (e.g. `fanout`). */
const benches: Record<string, { summary: string; load: () => Promise<{ run(args: string[]): Promise<void> }> }> = {
  rest: { summary: 'REST: GET /health vs bare uWS, clock-in/out pairs vs a raw postgres.js insert+update loop', load: () => import('./rest.ts') },
  statements: { summary: 'PostgreSQL instructions per clock-in/out pair: the server\'s two statements vs the raw insert+update (callgrind)', load: () => import('./statements.ts') },
  fanout: { summary: 'live.watch fan-out to 1000/5000 boards: the hub vs tRPC\'s applyWSSHandler with a user-written procedure vs a bare uWS publish; --guilds: many guilds with REST writes', load: () => import('./fanout.ts') },
  board: { summary: 'the web board in Chromium: delta -> paint vs a naive full re-render, JS bytes, heap after 10,000 deltas, load to interactive', load: () => import('./board.ts') },
  alarm: { summary: 'an alarm (POST /incidents/{n}/alarm) to every crew device: desk, phone, station monitor (Chromium), game, terminal client; p50/p99 to keyword and address, against bare uWS -> WebSocket -> DOM', load: () => import('./alarm.ts') },
  'board-map': { summary: 'the board\'s Karte tab in Chromium: frame interval p50/p99 while 200 units stream positions at 1 Hz and the map is dragged, against drags alone', load: () => import('./board-map.ts') },
  stats: { summary: 'statistics at 1,000,000 vs 10,000 shifts (leaderboard, user stats, heatmap through the server), alltime vs a bare SQL sum, chart PNGs vs chart.js on a canvas', load: () => import('./stats.ts') },
  start: { summary: 'starting the product: first start and restart to health, idle RSS, CLI commands; compiled (npm start) vs the sources through tsx\'s loader (--before <ref>: an older commit too)', load: () => import('./start.ts') },
  incidents: { summary: 'incident history search at 100,000 sheets (+ noise guilds) vs 1,000: words, street, caller, unit, week, deep cursor page; p50/p99 and EXPLAIN', load: () => import('./incidents.ts') },
  reconnect: { summary: 'N boards (default 5000) through a server restart (1012 to all) and a 7 s outage: time until all are live again, server CPU in the storm, no delta lost or twice', load: () => import('./reconnect.ts') },
  medic: { summary: 'medic events: POST /medic/events in batches of 100 vs raw postgres.js multi-row inserts, and the game queue\'s disk bytes per event (write amplification)', load: () => import('./medic.ts') },
  positions: { summary: 'unit positions to map boards: 200 guilds x 50 units at 1 Hz x 20 boards, the coalesced live.positions vs the same load per event through the hub\'s fan-out (frames, server CPU, age p50/p99, heap after GC and RSS over 5 min); --nodes 2: Redis', load: () => import('./positions.ts') },
  scale: { summary: 'N nodes on Redis (default 4), 400 guilds, guild-affine boards, REST writes on every node: events received and CPU per write per node, the per-guild bus vs the broadcast bus before issue 30, N nodes vs 1', load: () => import('./scale.ts') },
};

function usage(): string {
  const width = Math.max(...Object.keys(benches).map((n) => n.length));
  return `usage: npm run bench -- <name> [options]\n\nbenchmarks:\n${Object.entries(benches)
    .map(([name, b]) => `  ${name.padEnd(width)}  ${b.summary}`)
    .join('\n')}\n`;
}

const [name, ...args] = process.argv.slice(2);
const bench = name ? benches[name] : undefined;
if (!bench) {
  process.stderr.write(`${name ? `unknown benchmark "${name}"\n\n` : ''}${usage()}`);
  process.exit(1);
}
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`npm run bench -- ${name} [options]\n\n${bench.summary}\n\nIts options, their defaults and how to read the figures: bench/README.md, section "${name}".\n`);
  process.exit(0);
}
try {
  await (await bench.load()).run(args);
  process.exit(0);
} catch (err) {
  // A mistyped option is the user's mistake: its message, not a stack trace.
  const code = (err as { code?: string })?.code;
  if (code?.startsWith('ERR_PARSE_ARGS_')) {
    process.stderr.write(`bench ${name}: ${(err as Error).message}\n(npm run bench -- ${name} --help)\n`);
    process.exit(2);
  }
  process.stderr.write(`bench ${name} failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
}
