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
import { demo, LIVE_MS } from '../helpers/board.ts';

// Honest connection on the alarm surfaces (issue 29): while the server is gone, the board's alarm
// strip and the kiosk say "Alarmierung gestört — keine Verbindung seit N s" (ticking, red) where
// they say "Alarm bereit"; after a 7 s outage both are live again within 3 s of the server
// answering. The browser reaches the server through a TCP relay that refuses connections while
// the server is stopped, as a dead server does.
const db = await freshDatabase();
const proxy = await tcpProxy(0);
await seedDemo(db.db, proxy.url);
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

async function signedIn(viewport: { width: number; height: number }, path = '') {
  const context = await browser.newContext({ viewport });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(await createLoginLink(db.sql, proxy.url, demo.guildId, demo.dispatcher));
  await page.locator('#alarm-strip').getByText(/^Alarm bereit/).waitFor();
  if (path) await page.goto(`${proxy.url}${path}`);
  return page;
}
const strip = (page: Page) => page.locator('#alarm-summary');
const flag = (page: Page) => page.locator('#kiosk-connection');

t.test('a 7 s outage: said in words, ticking, red; live again within 3 s of the server answering', async (t) => {
  const board = await signedIn({ width: 390, height: 844 });
  const kiosk = await signedIn({ width: 1280, height: 800 }, '/dispatch/alarm');
  await flag(kiosk).getByText('Alarm bereit').waitFor();

  const stopped = Date.now();
  proxy.refuseNew = true;
  await server.close();
  proxy.cut();
  await strip(board).getByText(/^Alarmierung gestört — keine Verbindung seit \d+ s$/).waitFor({ timeout: 3000 });
  await flag(kiosk).getByText(/^Alarmierung gestört — keine Verbindung seit \d+ s$/).waitFor({ timeout: 3000 });
  t.pass(`both say so ${Date.now() - stopped} ms after the server went away`);
  t.match(await kiosk.locator('#kiosk-quiet').innerText(), /Alarmierung gestört/, 'the quiet monitor does not claim "Keine Alarme"');
  t.notMatch(await kiosk.locator('#kiosk-quiet').innerText(), /Keine Alarme/);
  const red = await board.locator('#alarm-strip').evaluate((el) => getComputedStyle(el).backgroundColor);
  t.equal(red, 'rgb(183, 28, 28)', 'the strip is red');
  const seconds = async (page: Page, sel: string) => Number(/seit (\d+) s/.exec(await page.locator(sel).innerText())?.[1]);
  const s1 = await seconds(board, '#alarm-summary');
  await board.waitForFunction((s1) => Number(/seit (\d+) s/.exec(document.querySelector('#alarm-summary')!.textContent!)?.[1]) > s1 + 1, s1, { timeout: 4000 });
  t.pass('the seconds tick');
  await screenshot(board, 'connection-outage-phone');
  await screenshot(kiosk, 'connection-outage-kiosk');

  const left = 7000 - (Date.now() - stopped);
  if (left > 0) await board.waitForTimeout(left);
  t.ok(await seconds(kiosk, '#kiosk-connection') >= 5, 'the kiosk counted the outage too');
  server = await start();
  proxy.target = server.port;
  proxy.refuseNew = false;
  const answering = Date.now();
  await strip(board).getByText(/^Alarm bereit/).waitFor({ timeout: 3000 });
  await flag(kiosk).getByText('Alarm bereit').waitFor({ timeout: 3000 - (Date.now() - answering) });
  await kiosk.locator('#kiosk-quiet').getByText('Keine Alarme').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - answering < 3000, `both live again ${Date.now() - answering} ms after the server answered (outage ${answering - stopped} ms)`);
  await screenshot(board, 'connection-back-phone');
});

t.test('the server without its database: said in words on the strip', async (t) => {
  const board = await signedIn({ width: 1280, height: 800 });
  // (The server's own database monitor finds PostgreSQL answering and says so: hold it down meanwhile.)
  server.deps.dbHealth.set(false);
  const hold = setInterval(() => server.deps.dbHealth.up && server.deps.dbHealth.set(false), 50);
  t.teardown(() => {
    clearInterval(hold);
    server.deps.dbHealth.set(true);
  });
  await strip(board).getByText(/^Alarmierung gestört — Server ohne Datenbank seit \d+ s$/).waitFor({ timeout: 3000 });
  await screenshot(board, 'connection-degraded-desk');
  clearInterval(hold);
  server.deps.dbHealth.set(true);
  await strip(board).getByText(/^Alarm bereit/).waitFor({ timeout: 3000 });
});
