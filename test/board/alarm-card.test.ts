import t from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// The crew's alarm card (issue 29), in real Chromium against a real server: a dispatcher alarms
// the unit a crew member occupies (POST /incidents/{n}/alarm); pushed live (how soon: `npm run bench -- alarm`), the crew's phone
// shows a full-width card with keyword, priority, address, message and the alarmed units, and
// rings; timeline entries and a changed address appear on it live; "Übernehmen (3)" acknowledges
// (the desk sees it); a hidden page gets a system notification with keyword and address.
const b = await demoBoard(t);

type Hooked = { dtBoard: { ringing: { value: boolean } }; __notes: { title: string; body: string; tag: string }[]; __asked: number; __hidden: boolean };
const ringing = (page: Page) => page.evaluate(() => (window as unknown as Hooked).dtBoard.ringing.value);
const notes = (page: Page) => page.evaluate(() => (window as unknown as Hooked).__notes);
async function ok(method: string, path: string, body?: unknown) {
  const res = await b.rest(method, path, body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A stand-in for the Notification API (a headless browser shows none) that records what the page shows, and a switch for `document.visibilityState`. */
async function recordNotifications(context: BrowserContext) {
  // Plain JavaScript: a function passed to addInitScript is transpiled for Node first, with helpers the page lacks.
  await context.addInitScript({ content: `
    window.__notes = []; window.__asked = 0; window.__hidden = false;
    function Recorded(title, opts) { window.__notes.push({ title, body: (opts && opts.body) || '', tag: (opts && opts.tag) || '' }); this.close = function () {}; }
    Recorded.permission = 'default';
    Recorded.requestPermission = function () { window.__asked++; Recorded.permission = 'granted'; return Promise.resolve('granted'); };
    Object.defineProperty(window, 'Notification', { configurable: true, writable: true, value: Recorded });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: function () { return window.__hidden ? 'hidden' : 'visible'; } });
  ` });
}

// Paul (Praktikant: only timeclock.own.use) on duty, on RTW-1, on his phone.
await ok('POST', '/admin/clock-in', { badge: '05' });
const context = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
t.teardown(() => context.close());
await recordNotifications(context);
const phone = await b.open(demo.trainee, { context });
const cookies = await context.cookies(b.server.url);
const session = { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), guildId: demo.guildId };
const seated = await call(b.server.url, 'PUT', '/me/unit', { session, body: { callsign: 'RTW-1' } });
if (seated.status !== 200) throw new Error(`PUT /me/unit: ${seated.status} ${seated.text}`);

// A game call, taken into a sheet: keyword, address and message come from it.
await ok('POST', '/integrations/ingame/calls', {
  externalId: 'vu-hafen', title: 'Verkehrsunfall', message: 'Zwei PKW, eine Person eingeklemmt',
  location: { street: 'Hafenstraße 12', postal: '20457', text: 'Hamburg', x: 120, y: -40 }, priority: 1,
});
const { incident } = await ok('POST', '/calls/vu-hafen/take', { keyword: 'VU mit eingeklemmter Person' });
const n = incident.number as number;

t.test('the alarm: a full-width card on the phone, live, with keyword, priority, address, message and units; it rings', async (t) => {
  await phone.locator('#alarm-strip').getByText(/Alarm bereit/).waitFor();
  await phone.click('#alarm-unlock');
  t.equal(await phone.evaluate(() => (window as unknown as Hooked).__asked), 1, 'the click asked for notifications (a user gesture)');
  await ok('POST', `/incidents/${n}/alarm`, { callsigns: ['RTW-1', 'NEF-1'] });
  const answered = Date.now();
  const card = phone.locator('#crew-alarm');
  await card.getByText('VU mit eingeklemmter Person').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - answered < LIVE_MS, `keyword on the phone ${Date.now() - answered} ms after the alarm's answer`);
  const text = await card.innerText();
  t.match(text, /ALARM RTW-1/);
  t.match(text, /Priorität 1 – hoch/);
  t.match(text, /Hafenstraße 12[\s\S]*20457 Hamburg/);
  t.match(text, /Zwei PKW, eine Person eingeklemmt/);
  t.match(text, /NEF-1[\s\S]*noch nicht übernommen/);
  t.match(text, /Alarm vor \d+ s/);
  t.match(await phone.locator('#crew-alarm-take').innerText(), /^Übernehmen \(3\)$/);
  const box = await card.boundingBox();
  t.ok(box && box.width >= 389, `full width (${box?.width} px)`);
  t.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
  t.equal(await ringing(phone), true, 'the tone rings');
  t.same(await notes(phone), [], 'a visible page gets no system notification');
  await screenshot(phone, 'alarm-card-phone');
});

t.test('sheet updates reach the card live: a timeline entry, a changed address', async (t) => {
  await ok('POST', `/incidents/${n}/entries`, { text: 'Feuerwehr nachgefordert' });
  const sent = Date.now();
  await phone.locator('#crew-alarm').getByText('Feuerwehr nachgefordert').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - sent < LIVE_MS, `entry after ${Date.now() - sent} ms`);
  const { version } = await ok('GET', `/incidents/${n}`);
  await ok('PATCH', `/incidents/${n}`, { version, location: { street: 'Hafenstraße 40', postal: '20457', text: 'Hamburg' } });
  await phone.locator('#crew-alarm-address').getByText('Hafenstraße 40').waitFor({ timeout: LIVE_MS });
  t.pass('the new address is on the card');
  await phone.setViewportSize({ width: 1280, height: 800 });
  await screenshot(phone, 'alarm-card-desk');
  await phone.setViewportSize({ width: 390, height: 844 });
});

t.test('"Übernehmen (3)" acknowledges: the card goes, the tone stops, the desk sees the acknowledgement', async (t) => {
  await ok('PUT', '/units/NEF-1/status', { status: '3' });
  await phone.locator('#crew-alarm [data-callsign="NEF-1"]').getByText('übernommen').waitFor({ timeout: LIVE_MS });
  t.pass('NEF-1 acknowledging shows on the card at once');
  await phone.click('#crew-alarm-take');
  await phone.locator('#crew-alarm').waitFor({ state: 'detached', timeout: 2000 });
  t.equal(await ringing(phone), false, 'silent');
  const sheet = await ok('GET', `/incidents/${n}`);
  const rtw = sheet.units.find((u: { callsign: string }) => u.callsign === 'RTW-1');
  t.ok(rtw.acknowledgedAt, 'the sheet has RTW-1 acknowledged');
  const units = (await ok('GET', '/units')).units as { callsign: string; status: string }[];
  t.equal(units.find((u) => u.callsign === 'RTW-1')?.status, '3', 'RTW-1 is in 3 Einsatz übernommen');
});

t.test('a hidden page gets a system notification with keyword and address', async (t) => {
  await phone.evaluate(() => {
    (window as unknown as Hooked).__hidden = true;
  });
  await ok('POST', `/incidents/${n}/alarm`, { callsigns: ['RTW-1'] });
  const answered = Date.now();
  await phone.waitForFunction(() => (window as unknown as Hooked).__notes.some((x) => x.title.includes('VU mit eingeklemmter Person')), undefined, { timeout: LIVE_MS, polling: 20 });
  t.ok(Date.now() - answered < LIVE_MS, `notification ${Date.now() - answered} ms after the alarm`);
  const shown = (await notes(phone)).find((x) => x.title.includes('VU mit eingeklemmter Person'))!;
  t.match(shown, { title: 'Alarm RTW-1: VU mit eingeklemmter Person', tag: 'dt-alarm-RTW-1' });
  t.match(shown.body, /Hafenstraße 40, 20457 Hamburg/);
  t.match(shown.body, /Zwei PKW/);
  await phone.evaluate(() => {
    (window as unknown as Hooked).__hidden = false;
  });
  await phone.click('#crew-alarm-take');
  await phone.locator('#crew-alarm').waitFor({ state: 'detached', timeout: 2000 });
});

t.test('in English the card speaks English', async (t) => {
  await phone.evaluate(() => localStorage.setItem('dt.lang', 'en'));
  await phone.reload();
  await phone.locator('#connection.conn-live').waitFor();
  await ok('POST', `/incidents/${n}/alarm`, { callsigns: ['RTW-1'] });
  const card = phone.locator('#crew-alarm');
  await card.getByText('VU mit eingeklemmter Person').waitFor({ timeout: 2000 });
  t.match(await card.innerText(), /Priority 1 – high/);
  t.match(await phone.locator('#crew-alarm-take').innerText(), /^Acknowledge \(3\)$/);
  await phone.click('#crew-alarm-take');
  await card.waitFor({ state: 'detached', timeout: 2000 });
});
