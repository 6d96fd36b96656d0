/**
 * Issue 20, queue: a game process streams 10,000 events (5 citizens, mostly vitals) through the medic
 * queue and is killed with SIGKILL at random points 5–8 times, restarting each time from what its
 * queue holds. Afterwards the server holds every event exactly once, in order per citizen.
 * MEDIC_KILL_EVENTS and MEDIC_KILLS change the size (defaults 10000 and a random 5..8).
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compareStored, envInt, medicServer, queueDir, sleep, storedEvents, streamEvent } from './helpers.ts';

const child = fileURLToPath(new URL('./stream-child.ts', import.meta.url));
const TOTAL = envInt('MEDIC_KILL_EVENTS', 10_000);
const KILLS = envInt('MEDIC_KILLS', 5 + Math.floor(Math.random() * 4));

interface Run { lines: Record<string, any>[]; exit: Promise<{ code: number | null; signal: string | null }>; kill(): void; started: Promise<Record<string, any>> }

function start(env: Record<string, string>): Run {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, any>[] = [];
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  let onStart: (m: Record<string, any>) => void;
  const started = new Promise<Record<string, any>>((resolve) => (onStart = resolve));
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const msg = JSON.parse(line);
    lines.push(msg);
    if ('started' in msg) onStart(msg);
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.once('exit', (code, signal) => {
    if (code) process.stderr.write(stderr);
    resolve({ code, signal });
  }));
  return { lines, exit, kill: () => proc.kill('SIGKILL'), started };
}

t.test(`kill -9 during a stream of ${TOTAL} events, ${KILLS} times: every event exactly once, in order per citizen`, { timeout: 170_000 }, async (t) => {
  const { server, key } = await medicServer(t);
  const dir = queueDir(t);
  const prefix = `k${Date.now().toString(36)}`;
  const t0 = Date.now() - 3_600_000;
  const env = { MEDIC_URL: server.url, MEDIC_KEY: key, MEDIC_DIR: dir, MEDIC_TOTAL: String(TOTAL), MEDIC_T0: String(t0), MEDIC_PREFIX: prefix };

  const startedAt: number[] = [];
  let restoredSeen = 0;
  for (let k = 0; k < KILLS; k++) {
    const run = start(env);
    const msg = await run.started;
    startedAt.push(msg.started);
    restoredSeen += msg.restored;
    // A random point: while enqueueing, sending, acknowledging. At most 1.5 s of 800 events/s, so 8 runs
    // cannot finish the 10,000 before their kill.
    const done = await Promise.race([sleep(300 + Math.random() * 1200).then(() => false), run.exit.then(() => true)]);
    if (done) {
      t.comment(`run ${k + 1} finished the stream before its kill: no more kills`);
      break;
    }
    run.kill();
    const { signal } = await run.exit;
    t.equal(signal, 'SIGKILL', `run ${k + 1} (from event ${msg.started}, ${msg.restored} restored) was killed`);
  }
  const last = start(env);
  const lastStart = await last.started;
  startedAt.push(lastStart.started);
  restoredSeen += lastStart.restored;
  const { code } = await last.exit;
  t.equal(code, 0, 'the last run finished');
  const done = last.lines.find((l) => l.done);
  t.ok(done, 'the last run says everything is delivered');
  t.ok(startedAt.every((s, i) => i === 0 || s >= startedAt[i - 1]), `each run went on where the last one stopped: ${startedAt.join(', ')}`);
  t.ok(startedAt[startedAt.length - 1] > 1 && restoredSeen > 0, 'the kills happened mid-stream with events still queued');
  t.equal(done?.stats.queued, 0, 'nothing left in the queue');

  const expected = Array.from({ length: TOTAL }, (_, i) => streamEvent(prefix, i + 1, t0));
  const stored = await storedEvents(server.sql, prefix);
  const diff = compareStored(stored, expected);
  t.same(diff.missing.slice(0, 10), [], `no event missing (${diff.missing.length})`);
  t.same(diff.twice, [], 'no event stored twice');
  t.same(diff.unexpected, [], 'nothing else stored');
  t.same(diff.outOfOrder.slice(0, 10), [], `in order per citizen (${diff.outOfOrder.length} out of order)`);
  t.equal(stored.length, TOTAL, `the server holds ${TOTAL} events`);
  t.comment(`starts at ${startedAt.join(', ')}; ${restoredSeen} events restored over the restarts; the last run had ${done?.stats.duplicates} duplicate answers (resends of events the server had)`);
});
