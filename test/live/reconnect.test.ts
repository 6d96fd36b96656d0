import WebSocket from 'ws';
import t, { type Test } from 'tap';
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freePort } from '../../server/store/embedded.ts';
import { call } from '../helpers/server.ts';
import { seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { openBoard, until } from '../helpers/live.ts';
import { jitteredBackoff, restartSpread } from '../../client-sdk/live.ts';
import { startAlarmTerminal } from '../../client-sdk/alarm-terminal.ts';

// Honest, fast resume (issue 29): the SDK's back-off is capped at 2 s plus jitter, and after the
// server's restart notice (1012) the first attempt waits a random 0..2 s, so boards and the
// terminal alarm client are live again within 3 s of the server answering, after a 7 s and a
// 60 s outage, with nothing lost and nothing twice. The server really stops (its port is closed)
// and starts again on the same port; the clients run with their default back-off.
const G = '571000000000000001';
const db = await freshDatabase();
let server: RunningServer | null = null;
let port = await freePort(); // fixed, as in production: the restart takes the same one
async function start(): Promise<number> {
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', DEMO: '0' });
  server = await startServer({ config, log: createLog('silent'), db: db.db, panel: { refresh: () => {} } });
  port = server.port;
  return Date.now();
}
async function stop() {
  await server!.close(); // every socket gets the reconnect notice and close 1012
  server = null;
}
await start();
const url = `http://127.0.0.1:${port}`;
t.teardown(async () => {
  await server?.close();
  await db.drop();
});
await seedGuild(db.sql, G, [{ userId: 'u1', nickname: 'Anna', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(db.sql, G);
const rest = (method: string, path: string, body?: unknown) => call(url, method, path, { key, body });
for (const callsign of ['RTW-1', 'RTW-2']) await rest('POST', '/units', { callsign });
const units = async () => Object.fromEntries(((await rest('GET', '/units')).body.units as { callsign: string; status: string }[]).map((u) => [u.callsign, u.status]));

t.test('the back-off: 0.25 s doubling to the 2 s cap, at most 0.25 s of jitter; the restart spread covers 0..2 s', async (t) => {
  for (let attempt = 0; attempt < 40; attempt++) {
    const d = jitteredBackoff(attempt);
    const base = Math.min(2000, 250 * 2 ** attempt);
    t.ok(d >= base && d <= base + 250, `attempt ${attempt}: ${Math.round(d)} ms`);
  }
  const spread = Array.from({ length: 2000 }, restartSpread);
  t.ok(spread.every((d) => d >= 0 && d <= 2000), 'within 0..2 s');
  t.ok(Math.min(...spread) < 200 && Math.max(...spread) > 1800, 'over the whole range');
});

t.test('after a restart notice, 30 boards come back spread over about 2 s, not all at once', async (t) => {
  // A credential may hold 20 sockets: three keys.
  const keys = [key, await unscopedKey(db.sql, G, 'b'), await unscopedKey(db.sql, G, 'c')];
  // When each board's sockets opened: a board is back when its first socket after the stop opens
  // (it resubscribes on it at once), however long the server itself took to start again.
  const opened: number[][] = Array.from({ length: 30 }, () => []);
  const socketOf = (i: number) => class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      this.once('open', () => opened[i].push(Date.now()));
    }
  };
  const boards = Array.from({ length: 30 }, (_, i) => openBoard(url, { apiKey: keys[i % 3], topics: ['units'], retryDelayMs: undefined, WebSocket: socketOf(i) }));
  t.teardown(() => boards.forEach((b) => b.close()));
  await Promise.all(boards.map((b) => b.until(() => b.state.stats.snapshots === 1)));
  const stoppedAt = Date.now();
  await stop();
  const answering = await start();
  await rest('PUT', '/units/RTW-1/status', { status: '3' });
  await until(() => boards.every((b) => (b.state.topics.units?.['RTW-1'] as { status?: string } | undefined)?.status === '3'), 'every board live again', 6000);
  const back = opened.map((times) => times.find((at) => at > stoppedAt)! - stoppedAt);
  const spread = Math.max(...back) - Math.min(...back);
  const late = Math.max(...back) - (answering - stoppedAt);
  t.comment(`server answering after ${answering - stoppedAt} ms; boards back after ${Math.min(...back)}..${Math.max(...back)} ms (spread ${spread} ms)`);
  t.ok(spread > 600, `spread over more than 0.6 s (${spread} ms): the restart notice is answered with a random wait`);
  t.ok(late < 3000, `and all back within 3 s of the server answering (the last ${late} ms after)`);
  for (const b of boards) t.same([b.state.stats.gaps, b.state.stats.duplicates], [0, 0]);
  await rest('PUT', '/units/RTW-1/status', { status: '2' });
});

/** Stops the server for `outageMs`, starts it on the same port, writes at once, and measures how soon every client has it. */
async function outage(t: Test, outageMs: number) {
  const board = openBoard(url, { apiKey: key, topics: ['units', 'alarm'], retryDelayMs: undefined });
  const lines: string[] = [];
  const alarm = startAlarmTerminal({
    link: await createLoginLink(db.sql, url, G, 'u1'), stateFile: `${process.env.TMPDIR ?? '/tmp'}/dt-reconnect-${process.pid}-${outageMs}.json`,
    player: null, write: (line) => lines.push(line), lang: 'en', speak: false,
  });
  t.teardown(() => { board.close(); alarm.stop(); });
  await board.until(() => board.state.stats.snapshots === 1);
  await until(() => lines.some((l) => /Alarms ready/.test(l)), 'the alarm client is ready', 5000);
  const before = { ...board.state.stats };
  const framesBefore = board.frames.length;

  await stop();
  await until(() => lines.some((l) => /Alarms down — no connection for/.test(l)), 'the alarm client says it is down', 5000);
  await new Promise((r) => setTimeout(r, outageMs));
  const answering = await start();
  // Written before any client is back: each must get exactly these, once.
  const changes: [string, string][] = [['RTW-1', '3'], ['RTW-2', '4'], ['RTW-1', '8'], ['RTW-2', '0']];
  for (const [callsign, status] of changes) t.equal((await rest('PUT', `/units/${callsign}/status`, { status })).status, 200);

  await board.until(() => (board.state.topics.units?.['RTW-2'] as { status?: string } | undefined)?.status === '0', 5000);
  const boardBack = Date.now() - answering;
  await until(() => lines.some((l) => /ALARM {2}RTW-2/.test(l)), 'the alarm client rings for RTW-2', 5000);
  const alarmBack = Date.now() - answering;
  t.comment(`${outageMs / 1000} s outage: board live again after ${boardBack} ms, alarm client after ${alarmBack} ms`);
  t.ok(boardBack < 3000, `the board is live within 3 s of the server answering (${boardBack} ms)`);
  t.ok(alarmBack < 3000, `the alarm client is live within 3 s of the server answering (${alarmBack} ms)`);
  const down = lines.findLastIndex((l) => /Alarms down/.test(l));
  t.ok(lines.slice(down).some((l) => /Alarms ready$/.test(l)), 'the alarm client says it is ready again');

  // The restarted server's ring starts with the log's newest events: the board resumes from its
  // last event and gets exactly the changes, each once, in order (other events may come between).
  t.equal(board.state.stats.snapshots - before.snapshots, 0, 'no snapshot: resumed from the log');
  const statusChanges = board.frames.slice(framesBefore).flatMap((f) => (f.kind === 'delta' ? f.topics.units ?? [] : []))
    .filter((op) => typeof (op.value as { status?: unknown } | undefined)?.status === 'string')
    .map((op) => [op.key, (op.value as { status: string }).status]);
  // (An earlier test's last write may still arrive first: the changes are what follows it.)
  const first = statusChanges.findIndex(([c, st]) => c === changes[0][0] && st === changes[0][1]);
  t.same(statusChanges.slice(first), changes, 'every change once, in order');
  t.same([board.state.stats.gaps, board.state.stats.duplicates], [0, 0], 'no gap, no duplicate');
  t.same(Object.fromEntries(Object.entries(board.state.topics.units!).map(([c, u]) => [c, (u as { status: string }).status])), await units(), 'the board equals the server');
  await rest('PUT', '/units/RTW-2/status', { status: '2' });
  await rest('PUT', '/units/RTW-1/status', { status: '2' });
}

t.test('a 7 s outage: board and alarm client are back within 3 s of the server, nothing lost or twice', (t) => outage(t, 7000));
t.test('a 60 s outage: the same', { timeout: 120_000 }, (t) => outage(t, 60_000));
