import t from 'tap';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../server/config.ts';
import { createLog } from '../../server/core/log.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { freshDatabase } from '../helpers/db.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';
import { demo } from '../helpers/board.ts';

// An open board outlives the network and the server: after a cut it resumes from its last event
// (no second snapshot, nothing lost, nothing twice); after a restart it reconnects by itself and
// resumes from the event log the new server read at start (again no second snapshot). The browser reaches the server through a TCP relay, so the
// test can cut the connection under it or move it to the restarted server.
const db = await freshDatabase();
const proxy = await tcpProxy(0);
const seeded = (await seedDemo(db.db, proxy.url))!;
const config = () => loadConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: proxy.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', DEMO: '0' });
const start = async () => startServer({ config: config(), log: createLog('silent'), db: db.db, panel: { refresh: () => {} } });
let server: RunningServer = await start();
proxy.target = server.port;
t.teardown(async () => {
  await server.close();
  await proxy.close();
  await db.drop();
});
const browser = await launchBrowser(t);
const rest = (method: string, path: string, body?: unknown) => call(server.url, method, path, { key: seeded.apiKey, body });

type Board = { live: Record<string, { keys: { value: string[] }; entry(k: string): { value: unknown } }>; counters: { snapshots: number; deltas: number }; connection: { value: string } };
/** The board's units as its live store holds them: callsign -> status. */
const boardUnits = (page: Page) => page.evaluate(() => {
  const b = (window as unknown as { dtBoard: Board }).dtBoard;
  return Object.fromEntries(b.live.units.keys.value.map((k) => [k, (b.live.units.entry(k).value as { status: string }).status]));
});
const counters = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { dtBoard: Board }).dtBoard.counters }));
const serverUnits = async () => Object.fromEntries(((await rest('GET', '/units')).body.units as { callsign: string; status: string }[]).map((u) => [u.callsign, u.status]));

async function openBoard(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(await createLoginLink(db.sql, proxy.url, demo.guildId, demo.dispatcher));
  await page.locator('#connection.conn-live').waitFor();
  await page.locator('#tab-units').click();
  return page;
}

t.test('a network cut: the board says so, resumes from its last event, and misses nothing', async (t) => {
  const page = await openBoard();
  t.same(await boardUnits(page), await serverUnits(), 'the board starts equal to the server');
  const before = await counters(page);

  proxy.cut();
  await page.locator('#connection.conn-reconnecting').waitFor({ timeout: 3000 });
  await screenshot(page, 'resilience-reconnecting');
  // Changes while the board is cut off: some of them cancel out, the last one counts.
  for (const [callsign, status] of [['RTW-1', '3'], ['RTW-2', '4'], ['RTW-1', '8'], ['NEF-1', '6'], ['RTW-2', '1']]) {
    t.equal((await rest('PUT', `/units/${callsign}/status`, { status })).status, 200);
  }
  await page.locator('#connection.conn-live').waitFor({ timeout: 10_000 });
  await t.resolves(page.waitForFunction(() => {
    const b = (window as unknown as { dtBoard: Board }).dtBoard;
    return (b.live.units.entry('RTW-2').value as { status: string } | undefined)?.status === '1';
  }, undefined, { timeout: 5000 }), 'the changes made during the cut arrive');
  t.same(await boardUnits(page), await serverUnits(), 'after the resume the board equals the server');
  const after = await counters(page);
  t.equal(after.snapshots, before.snapshots, 'resumed from the ring: no second snapshot');
  t.equal(after.deltas - before.deltas, 5, 'each missed change arrived exactly once');
  await page.close();
});

t.test('a cut with nothing missed: the board is live again at once, with nothing to apply', async (t) => {
  const page = await openBoard();
  const before = await counters(page);
  proxy.cut();
  await page.locator('#connection.conn-reconnecting').waitFor({ timeout: 3000 });
  await page.locator('#connection.conn-live').waitFor({ timeout: 10_000 });
  t.same(await counters(page), before, 'no snapshot and no delta: the resume had nothing to send');
  t.same(await boardUnits(page), await serverUnits());
  await page.close();
});

t.test('a server restart: the board reconnects by itself and shows the new server\'s state', async (t) => {
  const page = await openBoard();
  const before = await counters(page);
  await server.close();
  server = await start();
  proxy.target = server.port;
  t.equal((await rest('PUT', '/units/HLF-1/status', { status: '3' })).status, 200, 'a change on the new server');
  await t.resolves(page.waitForFunction(() => {
    const b = (window as unknown as { dtBoard: Board }).dtBoard;
    return b.connection.value === 'live' && (b.live.units.entry('HLF-1').value as { status: string } | undefined)?.status === '3';
  }, undefined, { timeout: 15_000 }), 'the board is live again and shows the change');
  const after = await counters(page);
  t.equal(after.snapshots, before.snapshots, 'the new server resumes the board from the event log: no second snapshot');
  t.ok(after.deltas > before.deltas, 'the change came as a delta');
  t.same(await boardUnits(page), await serverUnits());
  await page.close();
});
