/**
 * `npm run bench -- reconnect [--boards 5000] [--outage 7] [--writes 20]`
 *
 * N boards (the SDK's createLiveBoard over real WebSockets, one live.watch of units and alarm each,
 * with the SDK's default back-off) on the real server (a process pinned to CPU 0; the boards run in
 * this process). The server is stopped as a deploy stops it (SIGTERM: the restart notice and close
 * 1012 to every socket) and started again on the same port after `outage` seconds. Writes happen
 * while the boards are away: half through a second node on the same database during the outage,
 * half through the restarted server the moment it answers. Printed: when the boards' sockets are
 * open again and when every board shows the server's state, counted from the moment the restarted
 * server answers; the server's CPU during that storm; and per board gaps, duplicates and whether
 * its units equal the server's (nothing lost, nothing twice). The boards' own CPU is printed too:
 * on a 2-core box the load generator and the server each have one core.
 */
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { createApiKey } from '../server/domains/apikeys/service.ts';
import { insertGuild } from '../server/domains/guilds/store.ts';
import { freePort } from '../server/store/embedded.ts';
import { createLiveBoard } from '../client-sdk/live.ts';
import { benchDatabase } from './lib/db.ts';
import { benchRun, cpuMsOf, openFileLimits, spawnNode } from './lib/procs.ts';
import { benchUnits } from './lib/fanout-events.ts';
import { whole } from './lib/args.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const GUILD = '900000000000000029';
const BOARDS_PER_KEY = 10; // a credential may hold 20 sockets; old and new may overlap for a moment

type Board = ReturnType<typeof createLiveBoard> & { openedAt: number | null; current: number | null };

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { boards: { type: 'string', default: '5000' }, outage: { type: 'string', default: '7' }, writes: { type: 'string', default: '20' } }, strict: true });
  const boards = whole(values.boards, 'boards', 1, 20_000);
  const outageMs = whole(values.outage, 'outage', 0, 600) * 1000;
  const writes = whole(values.writes, 'writes', 2, 1000);
  const limits = openFileLimits();
  if (limits.hard < boards + 1024) throw new Error(`open-file limit too low for ${boards} boards (hard ${limits.hard})`);
  const runCtl = benchRun();
  try {
    process.stdout.write(`bench reconnect: ${boards} boards (SDK, live.watch units+alarm), server on CPU 0, boards in this process; outage ${outageMs / 1000} s, ${writes} writes while the boards are away\n`);
    const db = runCtl.database(await benchDatabase());
    await insertGuild(db.sql, GUILD, 'Bench Reconnect');
    await db.sql`insert into units ${db.sql(benchUnits.map((u) => ({ guild_id: GUILD, callsign: u.callsign, label: u.label, org_unit: u.orgUnit, status: '2' })))}`;
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil(boards / BOARDS_PER_KEY); i++) keys.push((await createApiKey(db.sql, GUILD, `board group ${i + 1}`, null)).key);
    const writer = (await createApiKey(db.sql, GUILD, 'writer', null)).key;

    const port = await freePort();
    const spawnServer = (p: number) => runCtl.started(spawnNode(file('./targets/reconnect-server.ts'), {
      cpu: 0, env: { BENCH_DATABASE_URL: db.url, BENCH_PORT: String(p) }, nofile: Math.min(limits.hard, boards + 4096),
    }));
    let server = spawnServer(port);
    await server.firstMessage;
    const url = `http://127.0.0.1:${port}`;
    const put = (base: string, callsign: string, status: string) => fetch(`${base}/api/v1/units/${encodeURIComponent(callsign)}/status`, {
      method: 'PUT', headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' }, body: JSON.stringify({ status }),
    }).then((r) => { if (r.status !== 200) throw new Error(`PUT status answered ${r.status}`); });

    // Boards join in groups, so the joining is not itself a storm.
    const all: Board[] = [];
    const t0 = performance.now();
    for (let i = 0; i < boards; i += 250) {
      const group = Array.from({ length: Math.min(250, boards - i) }, (_, k) => {
        const b = createLiveBoard({
          url, apiKey: keys[Math.floor((i + k) / BOARDS_PER_KEY)], topics: ['units', 'alarm'], WebSocket,
          onConnection: (open) => { if (open && b.current === null) { b.openedAt = performance.now(); b.current = 1; } },
        }) as Board;
        b.openedAt = null;
        b.current = 0;
        return b;
      });
      all.push(...group);
      await until(() => group.every((b) => b.state.stats.snapshots === 1), 60_000, 'boards joining');
    }
    process.stdout.write(`  ${boards} boards live in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const before = all.map((b) => ({ ...b.state.stats }));

    // A second node on the same database takes the writes made during the outage.
    const port2 = await freePort();
    const second = spawnServer(port2);
    await second.firstMessage;
    const expected = new Map(benchUnits.map((u) => [u.callsign, '2']));
    const statuses = ['1', '3', '4', '6', '8'];
    let w = 0;
    const write = async (base: string) => {
      const u = benchUnits[w % benchUnits.length].callsign;
      const s = statuses[w++ % statuses.length];
      await put(base, u, s);
      expected.set(u, s);
    };

    for (const b of all) b.current = null;
    const stoppedAt = performance.now();
    await runCtl.stopped(server);
    for (let i = 0; i < writes / 2; i++) await write(`http://127.0.0.1:${port2}`);
    await runCtl.stopped(second);
    await new Promise((r) => setTimeout(r, Math.max(0, outageMs - (performance.now() - stoppedAt))));
    const loadCpu0 = process.cpuUsage();
    server = spawnServer(port);
    await server.firstMessage;
    const answering = performance.now();
    const serverCpu0 = cpuMsOf(server.pid);
    for (let i = writes / 2; i < writes; i++) await write(url);

    const upToDate = (b: Board) => [...expected].every(([c, s]) => (b.state.topics.units?.[c] as { status?: string } | undefined)?.status === s);
    const reached: number[] = [];
    const done = new Set<Board>();
    await until(() => {
      for (const b of all) if (!done.has(b) && upToDate(b)) { done.add(b); reached.push(performance.now() - answering); }
      return done.size === all.length;
    }, 120_000, 'every board up to date', 20);
    const allAt = performance.now() - answering;
    const serverCpu = cpuMsOf(server.pid) - serverCpu0;
    const load = process.cpuUsage(loadCpu0);
    const opened = all.map((b) => (b.openedAt ?? answering) - answering).sort((a, b) => a - b);
    reached.sort((a, b) => a - b);
    const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    const fmt = (xs: number[]) => `p50 ${Math.round(q(xs, 0.5))} ms, p90 ${Math.round(q(xs, 0.9))} ms, max ${Math.round(xs.at(-1)!)} ms`;

    let gaps = 0;
    let duplicates = 0;
    let snapshots = 0;
    let deltaResumes = 0;
    let wrong = 0;
    all.forEach((b, i) => {
      gaps += b.state.stats.gaps - before[i].gaps;
      duplicates += b.state.stats.duplicates - before[i].duplicates;
      const s = b.state.stats.snapshots - before[i].snapshots;
      snapshots += s;
      if (!s) deltaResumes++;
      if (!upToDate(b)) wrong++;
    });
    process.stdout.write([
      `  outage ${(outageMs / 1000).toFixed(0)} s; from the restarted server answering:`,
      `    sockets open again:     ${fmt(opened.filter((x) => x >= 0))}`,
      `    boards up to date:      ${fmt(reached)} (all ${boards} after ${(allAt / 1000).toFixed(2)} s)`,
      `    server CPU in the storm: ${Math.round(serverCpu)} ms over ${(allAt / 1000).toFixed(2)} s = ${Math.round((serverCpu / allAt) * 100)}% of a core (${(serverCpu * 1000 / boards).toFixed(0)} us per board)`,
      `    boards' CPU (this process): ${Math.round((load.user + load.system) / 1000)} ms = ${Math.round(((load.user + load.system) / 1000 / allAt) * 100)}% of a core`,
      `    resumed by deltas ${deltaResumes}, by a snapshot ${snapshots} (the restarted server's ring holds the log's newest events: a board further behind than the ring gets one)`,
      `    lost (board != server) ${wrong}, gaps ${gaps}, duplicates ${duplicates}: ${wrong + gaps + duplicates === 0 ? 'ok' : 'MISSED'}`,
      `    within 3 s of the server answering: ${allAt <= 3000 ? 'ok' : 'MISSED'} (${(allAt / 1000).toFixed(2)} s)`,
    ].join('\n') + '\n');
    const loadShare = (load.user + load.system) / 1000 / allAt;
    if (loadShare > 0.85) process.stdout.write(`note: the boards' process was busy ${Math.round(loadShare * 100)}% of the storm (one core for ${boards} SDK clients): it, not the server (${Math.round((serverCpu / allAt) * 100)}%), set the pace; on this box the server would need about ${(serverCpu / 1000).toFixed(1)} s of one core for the resumes alone\n`);
    for (const b of all) b.close();
  } finally {
    await runCtl.close();
  }
}

async function until(pred: () => boolean, ms: number, what: string, every = 50): Promise<void> {
  const start = performance.now();
  while (!pred()) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
