import t from 'tap';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `npm run bench -- alarm` with two alarms: it carries the promise the board tests no longer time
// (every crew device within 1 s), so it must keep running end to end, with every device real,
// and print a row per device. Only what the run must show is checked, never a timing.

const root = fileURLToPath(new URL('../../', import.meta.url));
const devices = ['floor: bare uWS -> WebSocket -> DOM', 'desk (sheet: waiting)', 'phone (alarm card)', 'station monitor',
  'game (watchAlarms)', 'terminal (alarm CLI)', 'every device (the last of each round)'];

t.test('the alarm bench runs two alarms to every device and prints a row for each', async (t) => {
  // The test cluster's admin URL: the bench creates (and drops) its own database there instead of starting a cluster.
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'alarm', '--alarms', '2'], {
    cwd: root, env: { ...process.env, DATABASE_URL: process.env.TEST_ADMIN_DATABASE_URL }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 0, `exits 0:\n${out}`);
  t.notMatch(out, /failed:/, 'the bench did not fail');
  t.match(out, /^bench alarm: 2 alarms \(RTW-1 and NEF-1\) to desk, phone, station monitor, game and terminal client/m, 'states what it does');
  t.match(out, /warm-up alarm \(not counted\)/, 'warms up first');
  for (const name of devices) {
    const row = out.split('\n').find((l) => l.startsWith(name)) ?? '';
    // shown, missed, then p50 / p99 / max: every alarm reached the device, and the figures are numbers.
    t.match(row.slice(name.length), /^\s+2\s+0\s+[\d.]+ \/ [\d.]+ \/ [\d.]+/, `${name}: both alarms shown, none missed, with figures`);
  }
});
