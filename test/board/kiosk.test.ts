import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// /dispatch/alarm, the station monitor, in real Chromium against a real server: quiet it shows the
// time and "Keine Alarme"; an alarm status fills the screen with the callsign and its status and
// rings until acknowledged; ?units= limits it to the station's units.
const b = await demoBoard(t);

type Board = { dtBoard: { ringing: { value: boolean }; audio: { notes: number; alarms: number }; live: { alarm: { peek(c: string): unknown } } } };
const hook = (page: Page) => page.evaluate(() => {
  const d = (window as unknown as Board).dtBoard;
  return { ringing: d.ringing.value, notes: d.audio.notes, alarms: d.audio.alarms };
});
const notesAbove = (page: Page, n: number) => page.waitForFunction((n) => (window as unknown as Board).dtBoard.audio.notes > n, n, { timeout: LIVE_MS, polling: 50 });
async function setStatus(callsign: string, status: string): Promise<void> {
  const res = await b.rest('PUT', `/units/${callsign}/status`, { status });
  if (res.status !== 200) throw new Error(`PUT /units/${callsign}/status ${status}: ${res.status} ${res.text}`);
}
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);

/** A monitor signed in as the dispatcher (a login link), then on /dispatch/alarm{query}. */
async function monitor(viewport: { width: number; height: number }, query = '') {
  const context = await b.browser.newContext({ viewport, colorScheme: 'dark' });
  t.teardown(() => context.close());
  const board = await b.open(demo.dispatcher, { context });
  const page = await context.newPage();
  await page.goto(`${b.server.url}/dispatch/alarm${query}`);
  await board.close();
  await page.locator('#kiosk-connection').getByText('Alarm bereit').waitFor();
  return page;
}

await setStatus('RTW-1', '2'); // once, so the timings below are the monitor's, not the first request's
const kiosk = await monitor({ width: 1400, height: 900 });

t.test('quiet: the station, the time and "Keine Alarme"; one click allows sound; the screen is kept awake', async (t) => {
  await kiosk.locator('#kiosk-quiet').getByText('Keine Alarme').waitFor();
  t.equal(await kiosk.locator('#kiosk-guild').innerText(), 'Demo Rettungsdienst');
  t.match(await kiosk.locator('#kiosk-clock').innerText(), /^\d\d:\d\d:\d\d$/);
  t.match(await kiosk.locator('#kiosk-units').innerText(), /alle Einheiten/);
  t.equal(new URL(kiosk.url()).pathname, '/dispatch/alarm', 'still the kiosk page');
  t.ok(await kiosk.locator('#kiosk-unlock').isVisible(), 'asks for the click browsers need for sound');
  await kiosk.click('#kiosk-unlock');
  await kiosk.locator('#kiosk-unlock').waitFor({ state: 'detached' });
  await kiosk.locator('#kiosk-sound').getByText('Ton an').waitFor();
  const wake = await kiosk.locator('#kiosk-wake').getAttribute('data-wake');
  t.equal(wake, 'on', 'a screen wake lock is held');
  await kiosk.click('#kiosk-fullscreen');
  await kiosk.locator('#kiosk-fullscreen').getByText('Vollbild beenden').waitFor();
  t.ok(await kiosk.evaluate(() => !!document.fullscreenElement), 'the page fills the screen');
  await screenshot(kiosk, 'kiosk-quiet');
  await kiosk.emulateMedia({ colorScheme: 'light' });
  await screenshot(kiosk, 'kiosk-quiet-light');
  await kiosk.emulateMedia({ colorScheme: 'dark' });
});

t.test('an alarm fills the screen with the callsign and its status and rings until Quittieren', async (t) => {
  const before = await hook(kiosk);
  const sent = Date.now();
  await setStatus('RTW-1', '0');
  const card = kiosk.locator('#kiosk-alarms [data-callsign="RTW-1"]');
  await card.waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - sent < LIVE_MS, `shown after ${Date.now() - sent} ms`);
  t.match(await card.innerText(), /RTW-1[\s\S]*0[\s\S]*Notruf\/priorisierter Sprechwunsch[\s\S]*Rettungswagen 1[\s\S]*seit \d\d:\d\d Uhr/);
  const size = await card.locator('.k-callsign').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  t.ok(size >= 150, `the callsign is huge (${size} px)`);
  const ringing = await hook(kiosk);
  t.ok(ringing.ringing && ringing.alarms > before.alarms, 'it rings');
  await notesAbove(kiosk, before.notes);
  await screenshot(kiosk, 'kiosk-alarm');

  await kiosk.click('#kiosk-ack');
  await kiosk.locator('#kiosk-ack').waitFor({ state: 'detached' });
  t.equal((await hook(kiosk)).ringing, false, 'acknowledged: silent');
  t.match(await card.innerText(), /quittiert/, 'the unit stays on screen while it is in alarm');

  await setStatus('RTW-2', '0');
  await kiosk.locator('#kiosk-alarms [data-callsign="RTW-2"]').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(kiosk)).ringing, true, 'a second unit rings again');
  t.equal(await kiosk.locator('#kiosk-alarms .kiosk-card').count(), 2, 'both units are shown');
  await screenshot(kiosk, 'kiosk-alarm-two');
  await kiosk.click('#kiosk-ack');

  await setStatus('RTW-1', '2');
  await setStatus('RTW-2', '2');
  await kiosk.locator('#kiosk-quiet').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(kiosk)).ringing, false, 'quiet again');
});

t.test('?units= limits the monitor to the station\'s units', async (t) => {
  const station = await monitor({ width: 1400, height: 900 }, '?units=rtw-2,NEF-1');
  t.match(await station.locator('#kiosk-units').innerText(), /RTW-2, NEF-1/);
  await setStatus('RTW-1', '0');
  await station.waitForFunction(() => (window as unknown as Board).dtBoard.live.alarm.peek('RTW-1') !== undefined, undefined, { timeout: LIVE_MS, polling: 50 });
  await station.waitForTimeout(500);
  t.ok(await station.locator('#kiosk-quiet').isVisible(), 'RTW-1 is in alarm, but not one of this station\'s units');
  t.equal((await hook(station)).ringing, false);
  await setStatus('NEF-1', '0');
  await station.locator('#kiosk-alarms [data-callsign="NEF-1"]').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(station)).ringing, true, 'its own unit rings');
  t.equal(await station.locator('#kiosk-alarms [data-callsign="RTW-1"]').count(), 0);
  await setStatus('RTW-1', '2');
  await setStatus('NEF-1', '2');
});

t.test('on a phone the alarm fits the screen', async (t) => {
  const phone = await monitor({ width: 390, height: 844 });
  await phone.locator('#kiosk-quiet').waitFor();
  t.ok(await fitsWidth(phone), 'quiet: no sideways scrolling');
  await screenshot(phone, 'kiosk-phone-quiet');
  await setStatus('HLF-1', '0');
  await phone.locator('#kiosk-alarms [data-callsign="HLF-1"]').waitFor({ timeout: LIVE_MS });
  t.ok(await fitsWidth(phone), 'alarm: no sideways scrolling');
  await screenshot(phone, 'kiosk-phone');
  await setStatus('HLF-1', '2');
});

t.test('a monitor without a session says how to sign it in', async (t) => {
  const context = await b.browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(`${b.server.url}/dispatch/alarm`);
  await page.locator('#kiosk-message').getByText('Dieser Monitor ist nicht angemeldet.').waitFor();
  t.match(await page.locator('#kiosk-message').innerText(), /Login-Link/);
});

t.test('the board\'s alarm settings open the monitor of the same station in a new tab', async (t) => {
  const board = await b.open(demo.dispatcher);
  await board.click('#alarm-prefs-button');
  const [opened] = await Promise.all([board.context().waitForEvent('page'), board.click('#alarm-kiosk-link')]);
  await opened.locator('#kiosk-connection').getByText('Alarm bereit').waitFor();
  t.equal(new URL(opened.url()).pathname, '/dispatch/alarm');
  t.equal(new URL(opened.url()).searchParams.get('guild'), demo.guildId);
  t.equal(await opened.locator('#kiosk-guild').innerText(), 'Demo Rettungsdienst');
  await board.context().close();
});
