/**
 * `npm run bench -- board-map [--seconds 15] [--units 200]`: the board's Karte tab in Debian's
 * Chromium against the real server (on CPU 0, its own database), the board bench's map part.
 * `units` units stream positions through PUT /integrations/ingame/positions at 1 Hz each (one
 * batched PUT per second, every unit moved), the page holds the live.positions subscription, and
 * the mouse drags the map back and forth the whole time. Measured in the page: the interval
 * between animation frames (requestAnimationFrame), p50/p99/max and the share of frames longer
 * than 1.5 × 16.7 ms (a frame dropped at 60 Hz). References in the same run: the same drags
 * with no positions streaming, and the positions streaming with no drag.
 * Target: p99 ≤ 16.7 ms plus the floor (what the drags alone cost on this box).
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { createLoginLink } from '../server/auth/login-links.ts';
import { DEMO_GUILD } from '../server/seed/demo.ts';
import { benchDatabase } from './lib/db.ts';
import { benchRun, spawnNode } from './lib/procs.ts';
import { fill, seedDatabase, type BoardSize } from './lib/board-seed.ts';
import { restClient } from './lib/board-writes.ts';
import { DESK, openBrowser } from './lib/board-page.ts';
import { ms, printRows, spread, type Row } from './lib/board-report.ts';
import { whole } from './lib/args.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
const DISPATCHER = '200000000000000002';

/** Frame intervals (ms) in the page over `seconds`, while `drive` runs. */
async function frames(page: Page, seconds: number, drive: (until: number) => Promise<void>): Promise<number[]> {
  const until = Date.now() + seconds * 1000;
  const [gaps] = await Promise.all([
    // A string: tsx would wrap named functions in a helper the page does not have.
    page.evaluate(`new Promise((resolve) => {
      const out = []; let last = 0; const end = performance.now() + ${seconds * 1000};
      requestAnimationFrame(function step(t) {
        if (last) out.push(t - last);
        last = t;
        if (t < end) requestAnimationFrame(step); else resolve(out);
      });
    })`) as Promise<number[]>,
    drive(until),
  ]);
  return gaps;
}

/** Drags the map left and right across its middle until `until`. */
async function pan(page: Page, until: number): Promise<void> {
  const box = (await page.locator('#map').boundingBox())!;
  const y = box.y + box.height / 2;
  let dir = 1;
  while (Date.now() < until) {
    const from = box.x + box.width / 2 - dir * 250;
    await page.mouse.move(from, y);
    await page.mouse.down();
    for (let i = 1; i <= 40 && Date.now() < until; i++) await page.mouse.move(from + dir * 12.5 * i, y + Math.sin(i / 6) * 40);
    await page.mouse.up();
    dir = -dir;
  }
}

const idle = async (until: number) => { await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()))); };

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { seconds: { type: 'string', default: '15' }, units: { type: 'string', default: '200' } }, strict: true });
  const seconds = whole(values.seconds, 'seconds', 3, 600);
  const units = whole(values.units, 'units', 1, 500);
  const size: BoardSize = { units, calls: 50, onDuty: 20, incidents: 10 };
  const bench = benchRun();
  const closers: (() => unknown)[] = [];
  try {
    process.stdout.write(`bench board-map: ${units} units streaming positions at 1 Hz each, the map dragged for ${seconds} s; server on CPU 0\n`);
    const db = bench.database(await benchDatabase());
    const { keys } = await seedDatabase(db, size, 'http://127.0.0.1');
    const server = bench.started(spawnNode(file('./targets/server.ts'), { cpu: 0, env: { BENCH_DATABASE_URL: db.url } }));
    const base = `http://127.0.0.1:${(await server.firstMessage).port as number}`;
    const guild = await fill(restClient(base, keys[0]), size, keys);

    let tick = 0;
    let sent = 0;
    const failures: string[] = [];
    const put = async () => {
      tick++;
      const positions = guild.callsigns.map((callsign, i) => {
        const a = (i / guild.callsigns.length) * Math.PI * 2 + tick * 0.02;
        const r = 1500 + (i % 10) * 200;
        return { callsign, x: Math.round(Math.cos(a) * r), y: Math.round(2000 + Math.sin(a) * r), heading: ((a * 180) / Math.PI + 180) % 360, speed: 20 };
      });
      const res = await fetch(`${base}/api/v1/integrations/ingame/positions`, {
        method: 'PUT', headers: { authorization: `Bearer ${keys[1]}`, 'content-type': 'application/json' }, body: JSON.stringify({ positions }),
      });
      if (res.status !== 200) failures.push(`${res.status} ${await res.text()}`);
      else sent += positions.length;
    };
    await put();
    let streaming = false;
    const timer = setInterval(() => void (streaming && put()), 1000);
    closers.push(() => clearInterval(timer));

    const browser = await openBrowser(closers);
    const context = await browser.newContext({ viewport: DESK });
    const page = await context.newPage();
    await page.goto(await createLoginLink(db.sql, base, DEMO_GUILD, DISPATCHER));
    await page.locator('#connection.conn-live').waitFor({ timeout: 30_000 });
    await page.locator('#tab-map').click();
    await page.waitForFunction((n) => document.querySelectorAll('#map .map-unit').length >= n, units, { timeout: 30_000 });

    // A warm-up first: the first drags pay for compiling and rasterising, which no later phase does.
    await pan(page, Date.now() + 5000);
    const panOnly = spread(await frames(page, seconds, (u) => pan(page, u)));
    streaming = true;
    await new Promise((r) => setTimeout(r, 2000));
    const streamOnly = spread(await frames(page, seconds, idle));
    const raw = await frames(page, seconds, (u) => pan(page, u));
    const both = spread(raw);
    streaming = false;
    const dropped = raw.filter((g) => g > 25).length / raw.length;
    const markers = await page.locator('#map .map-unit').count();

    const rows: Row[] = [
      { figure: 'frame interval, drags only (floor), p50 / p99 / max', target: '', measured: `${ms(panOnly.p50)} / ${ms(panOnly.p99)} / ${ms(panOnly.max)} ms` },
      { figure: `frame interval, ${units} units streaming, no drag, p50 / p99`, target: '', measured: `${ms(streamOnly.p50)} / ${ms(streamOnly.p99)} ms` },
      { figure: `frame interval, ${units} units streaming while dragging, p50 / p99 / max`, target: `p99 <= 16.7 ms + floor`, measured: `${ms(both.p50)} / ${ms(both.p99)} / ${ms(both.max)} ms`, ok: both.p99 <= 16.7 + Math.max(0, panOnly.p99 - 16.7) + 1 },
      { figure: 'frames longer than 25 ms while streaming and dragging', target: '', measured: `${(dropped * 100).toFixed(1)} % of ${raw.length}` },
    ];
    printRows(rows);
    process.stdout.write(`positions sent: ${sent} in ${tick} PUTs; unit markers on the map: ${markers}\n`);
    if (failures.length) process.stdout.write(`note: ${failures.length} PUTs failed, first: ${failures[0]}\n`);
    if (server.stderr.length) process.stdout.write(`note: server stderr: ${server.stderr.slice(0, 2).join(' | ')}\n`);
  } finally {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
    await bench.close();
  }
}
