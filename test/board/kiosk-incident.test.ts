import t from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// The station monitor with the incident (issue 29): pushed live after a dispatcher's alarm
// (POST /incidents/{n}/alarm) /dispatch/alarm shows keyword and address huge, the units and the
// time since the alarm, ticking; it speaks the alarm with the browser's speech synthesis
// (recorded here by a stand-in installed before the page loads), in German or English; a monitor
// limited to a station (?station=, or the picker) shows and rings only that station's units.
const b = await demoBoard(t);
async function ok(method: string, path: string, body?: unknown) {
  const res = await b.rest(method, path, body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}
type Spoken = { text: string; lang: string }[];
const spoken = (page: Page) => page.evaluate(() => (window as unknown as { __spoken: Spoken }).__spoken);
const ringing = (page: Page) => page.evaluate(() => (window as unknown as { dtBoard: { ringing: { value: boolean } } }).dtBoard.ringing.value);

/** Records what the page says through window.speechSynthesis (plain JavaScript: it runs in the page before the board). */
async function recordSpeech(context: BrowserContext) {
  await context.addInitScript({ content: `
    window.__spoken = [];
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
      speak: function (u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
      cancel: function () {}, pause: function () {}, resume: function () {}, getVoices: function () { return []; },
      speaking: false, pending: false, paused: false,
    } });
  ` });
}

/** A monitor signed in as the dispatcher, on /dispatch/alarm{query}. */
async function monitor(viewport: { width: number; height: number }, query = '', lang?: 'de' | 'en') {
  const context = await b.browser.newContext({ viewport, colorScheme: 'dark' });
  t.teardown(() => context.close());
  await recordSpeech(context);
  const board = await b.open(demo.dispatcher, { context, lang });
  const page = await context.newPage();
  await page.goto(`${b.server.url}/dispatch/alarm${query}`);
  await board.close();
  await page.locator('#kiosk-connection.conn-live').waitFor();
  return page;
}

await ok('POST', '/integrations/ingame/calls', {
  externalId: 'vu-1', title: 'Verkehrsunfall', message: 'PKW gegen Baum',
  location: { street: 'Hafenstraße', postal: '20457', text: 'Hamburg' },
});
const first = (await ok('POST', '/calls/vu-1/take', {})).incident.number as number;
const fire = (await ok('POST', '/incidents', { keyword: 'Brand Gebäude', location: { street: 'Lindenallee 5', postal: '20259' }, priority: 1 })).number as number;
const kiosk = await monitor({ width: 1280, height: 800 });
await kiosk.locator('#kiosk-quiet').waitFor();

t.test('an alarm: keyword and address huge, the units, the time since the alarm, ticking; spoken once', async (t) => {
  await ok('POST', `/incidents/${first}/alarm`, { callsigns: ['RTW-1', 'NEF-1'] });
  const answered = Date.now();
  const card = kiosk.locator(`#kiosk-alarms .kiosk-incident[data-number="${first}"]`);
  await card.getByText('Verkehrsunfall').waitFor({ timeout: LIVE_MS });
  await card.getByText('Hafenstraße').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - answered < LIVE_MS, `keyword and address ${Date.now() - answered} ms after the alarm's answer`);
  t.match(await card.innerText(), /Einsatz \d+[\s\S]*Verkehrsunfall[\s\S]*Hafenstraße[\s\S]*20457 Hamburg[\s\S]*NEF-1[\s\S]*RTW-1[\s\S]*Alarm vor \d+ s/);
  const size = (sel: string) => card.locator(sel).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  t.ok(await size('.ki-keyword') >= 60, `the keyword is huge (${await size('.ki-keyword')} px)`);
  t.ok(await size('.inc-address') >= 40, `the address is huge (${await size('.inc-address')} px)`);
  t.equal(await ringing(kiosk), true, 'it rings');
  await kiosk.waitForFunction(() => (window as unknown as { __spoken: Spoken }).__spoken.length > 0, undefined, { timeout: LIVE_MS });
  const said = await spoken(kiosk);
  t.equal(said.length, 1, 'spoken once for the incident');
  t.match(said[0].text, /^Einsatz für (RTW 1, NEF 1|NEF 1, RTW 1), Verkehrsunfall, Hafenstraße$/);
  t.equal(said[0].lang, 'de-DE');
  const before = await card.locator('.inc-since').innerText();
  await kiosk.waitForFunction((b) => document.querySelector('.kiosk-incident .inc-since')?.textContent !== b, before, { timeout: LIVE_MS });
  t.pass('the time since the alarm ticks');
  await screenshot(kiosk, 'kiosk-incident-desk');
  await kiosk.click('#kiosk-ack');
  t.equal(await ringing(kiosk), false, 'acknowledged: silent');
  t.equal((await spoken(kiosk)).length, 1, 'nothing spoken again');
});

t.test('two incidents at once: one card each', async (t) => {
  await ok('POST', `/incidents/${fire}/alarm`, { callsigns: ['HLF-1'] });
  await kiosk.locator(`.kiosk-incident[data-number="${fire}"]`).getByText('Brand Gebäude').waitFor({ timeout: LIVE_MS });
  t.equal(await kiosk.locator('#kiosk-alarms .kiosk-incident').count(), 2);
  t.match((await spoken(kiosk)).at(-1)!.text, /^Einsatz für HLF 1, Brand Gebäude, Lindenallee 5$/);
  await screenshot(kiosk, 'kiosk-incident-two');
  await kiosk.click('#kiosk-ack');
});

t.test('?station= limits the monitor to one station; the picker switches it', async (t) => {
  const station = await monitor({ width: 1280, height: 800 }, `?station=${encodeURIComponent('Feuerwache 1')}`);
  t.match(await station.locator('#kiosk-units').innerText(), /Feuerwache 1/);
  await station.locator(`.kiosk-incident[data-number="${fire}"]`).waitFor({ timeout: LIVE_MS });
  t.equal(await station.locator(`.kiosk-incident[data-number="${first}"]`).count(), 0, 'RTW-1 and NEF-1 belong to another station');
  t.equal(await station.locator('#kiosk-station').inputValue(), 'Feuerwache 1');
  await station.locator('#kiosk-station').selectOption('Rettungswache Mitte');
  await station.locator(`.kiosk-incident[data-number="${first}"]`).waitFor({ timeout: LIVE_MS });
  t.equal(await station.locator(`.kiosk-incident[data-number="${fire}"]`).count(), 0, 'HLF-1 is not Rettungswache Mitte\'s');
  t.equal(new URL(station.url()).searchParams.get('station'), 'Rettungswache Mitte', 'the choice is in the address, so a reload keeps it');
  await screenshot(station, 'kiosk-station');
  // back to quiet for the next test
  for (const c of ['RTW-1', 'NEF-1', 'HLF-1']) await ok('PUT', `/units/${c}/status`, { status: '3' });
  await station.locator('#kiosk-quiet').waitFor({ timeout: LIVE_MS });
});

t.test('on a phone, in English: the incident fits the screen and is spoken in English', async (t) => {
  const phone = await monitor({ width: 390, height: 844 }, '', 'en');
  await phone.locator('#kiosk-quiet').waitFor();
  await ok('POST', `/incidents/${first}/alarm`, { callsigns: ['RTW-1'] });
  const answered = Date.now();
  await phone.locator('.kiosk-incident').getByText('Verkehrsunfall').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - answered < LIVE_MS, `shown ${Date.now() - answered} ms after the alarm`);
  t.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
  t.match(await phone.locator('.kiosk-incident').innerText(), /Incident \d+[\s\S]*Priority 2 – normal/);
  await phone.waitForFunction(() => (window as unknown as { __spoken: Spoken }).__spoken.length > 0, undefined, { timeout: LIVE_MS });
  t.same(await spoken(phone), [{ text: 'Incident for RTW 1, Verkehrsunfall, Hafenstraße', lang: 'en-GB' }]);
  await screenshot(phone, 'kiosk-incident-phone');
  await ok('PUT', '/units/RTW-1/status', { status: '3' });
});
