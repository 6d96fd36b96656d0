import t from 'tap';
import type { Page } from 'playwright-core';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// The alarm on the board, in real Chromium against a real server: a unit status with alarm: true
// rings (after the one click browsers need for sound), shows the banner and blinks the tab title
// until "Quittieren"; the person's preferences decide which alarms ring and how.
const b = await demoBoard(t);
const TITLE = 'Demo Rettungsdienst · Dispatch Terminal';

interface Hook { ringing: boolean; alarms: number; notes: number; lastTone: string | null }
const hook = (page: Page): Promise<Hook> => page.evaluate(() => {
  const d = (window as unknown as { dtBoard: { ringing: { value: boolean }; audio: { alarms: number; notes: number; lastTone: string | null } } }).dtBoard;
  return { ringing: d.ringing.value, alarms: d.audio.alarms, notes: d.audio.notes, lastTone: d.audio.lastTone };
});
type Board = { dtBoard: { audio: { notes: number }; live: { alarm: { peek(c: string): unknown } } } };
/** Waits until notes beyond the first `n` went into the page's audio graph (only a running AudioContext takes them). */
const notesAbove = (page: Page, n: number) => page.waitForFunction((n) => (window as unknown as Board).dtBoard.audio.notes > n, n, { timeout: LIVE_MS, polling: 50 });
async function setStatus(callsign: string, status: string): Promise<void> {
  const res = await b.rest('PUT', `/units/${callsign}/status`, { status });
  if (res.status !== 200) throw new Error(`PUT /units/${callsign}/status ${status}: ${res.status} ${res.text}`);
}
/** The board's own session, for the session-only routes (PUT /me/unit). */
async function sessionOf(page: Page) {
  const cookies = await page.context().cookies(b.server.url);
  return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), guildId: demo.guildId };
}
/** Document titles seen over `ms`, sampled in the page. */
const titles = (page: Page, ms: number) => page.evaluate((ms) => new Promise<string[]>((resolve) => {
  const seen = new Set<string>();
  const timer = setInterval(() => seen.add(document.title), 100);
  setTimeout(() => {
    clearInterval(timer);
    resolve([...seen]);
  }, ms);
}), ms);

const page = await b.open(demo.dispatcher);

t.test('after the unlock click, an alarm status rings live, with a banner and a blinking title; Quittieren stops it', async (t) => {
  await page.locator('#alarm-strip').getByText('Alarm bereit · alle Einheiten').waitFor();
  t.ok(await page.locator('#alarm-unlock').isVisible(), 'the board asks for the click that allows sound');
  await screenshot(page, 'alarm-unlock-strip');
  await page.click('#alarm-unlock');
  await page.locator('#alarm-unlock').waitFor({ state: 'detached' });
  await setStatus('RTW-1', '2'); // the same request once, so the timing below is the board's, not the first call's
  const before = await hook(page);
  t.equal(before.ringing, false);

  const sent = Date.now();
  await setStatus('RTW-1', '0');
  await page.locator('#alarm-banner [data-callsign="RTW-1"]').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - sent < LIVE_MS, `banner after ${Date.now() - sent} ms`);
  const ringing = await hook(page);
  t.equal(ringing.ringing, true, 'the tone rings');
  t.ok(ringing.alarms > before.alarms, 'an alarm was started');
  t.equal(ringing.lastTone, 'gong', 'the default tone');
  await notesAbove(page, before.notes);
  t.pass('notes went into the running audio graph');
  const banner = await page.locator('#alarm-banner').innerText();
  t.match(banner, /ALARM/);
  t.match(banner, /RTW-1/);
  t.match(banner, /0 Notruf\/priorisierter Sprechwunsch/, 'the status with its label');
  t.match(banner, /Rettungswagen 1/);
  const seen = await titles(page, 2300);
  t.ok(seen.includes('🚨 ALARM RTW-1') && seen.includes(TITLE), `the title blinks: ${JSON.stringify(seen)}`);
  await screenshot(page, 'alarm-banner');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'alarm-banner-dark');
  await page.emulateMedia({ colorScheme: null });

  await page.click('#alarm-ack');
  await page.locator('#alarm-banner').waitFor({ state: 'detached' });
  t.equal((await hook(page)).ringing, false, 'acknowledged: silent');
  t.same(await titles(page, 1200), [TITLE], 'the title is still again');

  await setStatus('RTW-2', '0');
  await page.locator('#alarm-banner [data-callsign="RTW-2"]').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(page)).ringing, true, 'another unit rings');
  t.equal(await page.locator('#alarm-banner [data-callsign="RTW-1"]').count(), 0, 'the acknowledged RTW-1 (still in alarm) does not come back');
  await page.click('#alarm-ack');
  await page.locator('#alarm-banner').waitFor({ state: 'detached' });

  await setStatus('RTW-1', '2');
  await setStatus('RTW-1', '0');
  await page.locator('#alarm-banner [data-callsign="RTW-1"]').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(page)).ringing, true, 'RTW-1 left the alarm and came back: it rings again');
  await page.click('#alarm-ack');
  await setStatus('RTW-1', '2');
  await setStatus('RTW-2', '2');
});

t.test('an alarm that ends before it is acknowledged stops the tone and stays in the banner as ended', async (t) => {
  await setStatus('NEF-1', '0');
  await page.locator('#alarm-banner [data-callsign="NEF-1"]').waitFor({ timeout: LIVE_MS });
  await setStatus('NEF-1', '2');
  await page.locator('#alarm-banner [data-callsign="NEF-1"].ended').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(page)).ringing, false, 'nothing left to respond to: silent');
  t.match(await page.locator('#alarm-banner').innerText(), /Alarm beendet/);
  await page.click('#alarm-ack');
  await page.locator('#alarm-banner').waitFor({ state: 'detached' });
});

t.test('preferences: own unit only, tone, volume and sound, saved for the person', async (t) => {
  const session = await sessionOf(page);
  await page.click('#alarm-prefs-button');
  await page.locator('#alarm-prefs').waitFor();
  t.ok(await page.locator('#alarm-scope-all').isChecked(), 'every unit rings by default');
  await page.click('#alarm-scope-own');
  await page.locator('#alarm-prefs-result').getByText('Gespeichert.').waitFor();
  await page.click('#alarm-tone-siren');
  await page.locator('#alarm-volume').fill('40');
  await page.locator('#alarm-prefs output').getByText('40 %').waitFor();
  const saved = async () => (await call(b.server.url, 'GET', '/me/preferences', { session })).body.prefs;
  await t.resolveMatch(pollUntil(async () => (await saved()).alarmVolume === 40), true);
  t.match(await saved(), { alarmScope: 'own', alarmTone: 'siren', alarmVolume: 40, alarmSound: true }, 'PUT /me/preferences has them');
  await screenshot(page, 'alarm-prefs');
  const notes = (await hook(page)).notes;
  await page.click('#alarm-preview');
  await notesAbove(page, notes);
  t.pass('Probehören plays the tone');
  await page.keyboard.press('Escape');
  await page.locator('#alarm-prefs').waitFor({ state: 'detached' });
  t.match(await page.locator('#alarm-summary').innerText(), /nur meine Einheit \(keine besetzt\) · Sirene 40 %/);

  t.equal((await call(b.server.url, 'POST', '/me/clock-in', { session, body: {} })).status, 200, 'clocked in');
  t.equal((await call(b.server.url, 'PUT', '/me/unit', { session, body: { callsign: 'RTW-1' } })).status, 200, 'occupies RTW-1');
  await page.locator('#alarm-summary').getByText('nur meine Einheit (RTW-1)').waitFor();

  await setStatus('RTW-2', '0');
  await page.waitForFunction(() => (window as unknown as Board).dtBoard.live.alarm.peek('RTW-2') !== undefined, undefined, { timeout: LIVE_MS, polling: 50 });
  await page.waitForTimeout(600);
  t.equal((await hook(page)).ringing, false, 'RTW-2 is in alarm on the board, but not the person\'s unit: silent');
  t.equal(await page.locator('#alarm-banner').count(), 0, 'and no banner');

  await setStatus('RTW-1', '0');
  await page.locator('#alarm-banner [data-callsign="RTW-1"]').waitFor({ timeout: LIVE_MS });
  t.match(await hook(page), { ringing: true, lastTone: 'siren' }, 'the own unit rings, with the chosen tone');
  t.equal(await page.locator('#alarm-banner [data-callsign="RTW-2"]').count(), 0);
  await page.click('#alarm-ack');

  await page.click('#alarm-prefs-button');
  await page.click('#alarm-sound');
  await page.locator('#alarm-prefs-result').getByText('Gespeichert.').waitFor();
  await page.click('#alarm-prefs-close');
  await setStatus('RTW-1', '2');
  await setStatus('RTW-1', '0');
  await page.locator('#alarm-banner [data-callsign="RTW-1"]').waitFor({ timeout: LIVE_MS });
  t.equal((await hook(page)).ringing, false, 'sound off: the banner shows the alarm, no tone');
  await page.click('#alarm-ack');
  await setStatus('RTW-1', '2');
  await setStatus('RTW-2', '2');
});

t.test('a crew member in another tab gets a system notification; own-unit works without the units view', async (t) => {
  // Chromium's default policy: a page plays sound only after a click on it.
  const context = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
  t.teardown(() => context.close());
  // A tab in the background with notifications allowed (as a string: the test's compiled functions
  // cannot run in the page).
  await context.addInitScript(`
    window.hiddenTab = true;
    window.shown = [];
    Object.defineProperty(document, 'visibilityState', { get: () => (window.hiddenTab ? 'hidden' : 'visible') });
    window.Notification = class {
      static permission = 'granted';
      static requestPermission() { return Promise.resolve('granted'); }
      constructor(title, opts) { window.shown.push({ title, body: opts.body }); }
      close() {}
    };
  `);
  const crew = await context.newPage();
  await crew.goto(await createLoginLink(b.server.sql, b.server.url, demo.guildId, demo.trainee));
  await crew.locator('#alarm-strip').waitFor();

  await setStatus('HLF-1', '0');
  await crew.locator('#alarm-banner [data-callsign="HLF-1"]').waitFor({ timeout: LIVE_MS });
  t.same(await crew.evaluate(() => (window as unknown as { shown: unknown[] }).shown), [{ title: '🚨 Alarm HLF-1', body: 'Die Einheit ist in einem Alarmstatus.' }], 'one notification while hidden');
  const silent = await hook(crew);
  t.equal(silent.ringing, true, 'the alarm rings');
  await crew.waitForTimeout(2300); // longer than one round of the tone
  t.equal((await hook(crew)).notes, silent.notes, 'but the browser keeps it silent before a click');
  t.ok(await crew.locator('#alarm-unlock-banner').isVisible(), 'so the banner offers to enable sound');
  const fits = await crew.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
  t.ok(fits, 'the banner fits a phone');
  await screenshot(crew, 'alarm-banner-phone');
  await crew.click('#alarm-unlock-banner');
  await notesAbove(crew, silent.notes);
  t.pass('after the click the ringing alarm is heard');
  await crew.locator('#alarm-unlock-banner').waitFor({ state: 'detached' });
  await crew.click('#alarm-ack');
  await crew.locator('#alarm-banner').waitFor({ state: 'detached' });
  await setStatus('HLF-1', '2');

  // "Own unit" works without the units view: the alarm state says which unit the person occupies.
  await crew.click('#alarm-prefs-button');
  t.notOk(await crew.locator('#alarm-scope-own').isDisabled(), 'a rank without the units view can choose "own unit"');
  await crew.click('#alarm-scope-own');
  await crew.locator('#alarm-prefs-result').getByText('Gespeichert.').waitFor();
  await crew.click('#alarm-prefs-close');
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: 5 })).status, 200);
  t.equal((await call(b.server.url, 'PUT', '/me/unit', { session: await sessionOf(crew), body: { callsign: 'NEF-1' } })).status, 200);
  await setStatus('HLF-1', '0');
  await crew.waitForTimeout(600);
  t.equal(await crew.locator('#alarm-banner [data-callsign="HLF-1"]').count(), 0, 'another unit does not ring');
  await setStatus('NEF-1', '0');
  await crew.locator('#alarm-banner [data-callsign="NEF-1"]').waitFor({ timeout: LIVE_MS });
  t.pass('the own unit rings');
  await crew.click('#alarm-ack');
  for (const c of ['HLF-1', 'NEF-1']) await setStatus(c, '2');
  await call(b.server.url, 'DELETE', '/me/unit', { session: await sessionOf(crew) });
  await b.rest('POST', '/admin/clock-out', { badge: 5 });
});

async function pollUntil(fn: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
