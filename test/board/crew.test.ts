import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// "Mein Fahrzeug" (issue 29), in real Chromium on a phone against a real server: a crew member
// (Praktikant: only timeclock.own.use) chooses the unit from a list (no callsign to type), sees
// its current status highlighted and large status buttons, sends 5 Sprechwunsch with a note the
// desk sees on the unit's tile, and follows the incident the unit is alarmed for, live. No raw
// capability name anywhere on the tab.
const b = await demoBoard(t);
async function ok(method: string, path: string, body?: unknown) {
  const res = await b.rest(method, path, body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}
/** Capability names look like `dispatch.view`, `timeclock.own.use`: none may reach a person's eyes. */
const capabilityName = /\b[a-z]+(?:\.[a-z]+)+\b/;
const pressed = (page: Page) => page.locator('#own-unit .status-picker button[aria-pressed="true"]').getAttribute('data-code');

await ok('POST', '/admin/clock-in', { badge: '05' });
const phone = await b.open(demo.trainee, { viewport: { width: 390, height: 844 }, tab: 'units' });

t.test('choose the unit from a list: no callsign to type, no capability name', async (t) => {
  const list = phone.locator('#own-unit .own-pick');
  await list.first().waitFor();
  t.same(await list.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign).sort()), ['HLF-1', 'NEF-1', 'RTW-1', 'RTW-2']);
  t.equal(await phone.locator('#own-unit input').count(), 0, 'no text field to type a callsign into');
  t.match(await phone.locator('#own-unit').innerText(), /Rettungswache Mitte[\s\S]*RTW-1[\s\S]*Rettungswagen 1[\s\S]*Einsatzbereit auf Wache[\s\S]*unbesetzt/);
  const text = await phone.locator('#app').innerText();
  t.notMatch(text, capabilityName, 'no raw capability name on the tab');
  t.match(await phone.locator('#units-no-right').innerText(), /Recht/, 'the fleet is for others, said in words');
  await screenshot(phone, 'crew-choose-phone');
  await phone.locator('#own-unit .own-pick[data-callsign="RTW-1"]').click();
  await phone.locator('#own-current').getByText('RTW-1').waitFor();
});

t.test('the current status is highlighted, live; large buttons 1–9 set it', async (t) => {
  await phone.waitForFunction(() => document.querySelector('#own-unit .status-picker button[aria-pressed="true"]')?.getAttribute('data-code') === '2');
  t.match(await phone.locator('#own-current').innerText(), /RTW-1[\s\S]*Aktueller Status:[\s\S]*2[\s\S]*Einsatzbereit auf Wache/);
  const buttons = phone.locator('#own-unit .status-picker button');
  const codes = await buttons.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.code));
  for (const c of ['1', '2', '3', '4', '5', '6', '7', '8', '9'].filter((c) => codes.includes(c))) t.ok(codes.includes(c));
  t.notOk(codes.includes('A'), 'no button for the dispatcher\'s alarm status');
  for (const box of await buttons.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    t.ok(box.height >= 48 && box.width >= 48, `a ${Math.round(box.width)}×${Math.round(box.height)} px target`);
  }
  t.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');

  await ok('PUT', '/units/RTW-1/status', { status: '1' });
  const sent = Date.now();
  await phone.waitForFunction(() => document.querySelector('#own-unit .status-picker button[aria-pressed="true"]')?.getAttribute('data-code') === '1', undefined, { timeout: LIVE_MS, polling: 20 });
  t.ok(Date.now() - sent < LIVE_MS, `a dispatcher's change moves the highlight, live (${Date.now() - sent} ms)`);
  await phone.locator('#own-unit .status-picker button[data-code="4"]').click();
  await phone.locator('#own-result').getByText('RTW-1: Status 4 – Am Einsatzort.').waitFor();
  t.equal(await pressed(phone), '4');
});

t.test('Sprechwunsch with a note: the desk sees it on the unit; the next status clears it', async (t) => {
  const desk = await b.openFor(t, demo.dispatcher, { viewport: { width: 1280, height: 800 }, tab: 'units' });
  await phone.locator('#own-note').fill('Patient verweigert Transport');
  await phone.locator('#own-unit .status-picker button[data-code="5"]').click();
  await phone.locator('#own-result').getByText(/Notiz gesendet/).waitFor();
  t.equal(await phone.locator('#own-note').inputValue(), '', 'the field is empty again');
  const tile = desk.locator('#unit-RTW-1');
  await tile.getByText('Patient verweigert Transport').waitFor({ timeout: LIVE_MS });
  t.match(await tile.innerText(), /5[\s\S]*Sprechwunsch/);
  await screenshot(desk, 'crew-note-desk');
  await ok('PUT', '/units/RTW-1/status', { status: '3' });
  await tile.getByText('Patient verweigert Transport').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.pass('the desk\'s answer (a new status) clears the note');
});

t.test('the current incident with keyword, address, message, units and timeline, live', async (t) => {
  await phone.locator('#own-incident').getByText(/Kein Einsatz/).waitFor();
  const sheet = await ok('POST', '/incidents', { keyword: 'Brand Wohnung', location: { street: 'Lindenallee 5', postal: '20259', text: 'Hamburg' }, priority: 1 });
  await ok('POST', `/incidents/${sheet.number}/alarm`, { callsigns: ['RTW-1', 'HLF-1'] });
  const answered = Date.now();
  await phone.locator('#own-incident-keyword').getByText('Brand Wohnung').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - answered < LIVE_MS, `incident on the phone ${Date.now() - answered} ms after the alarm's answer`);
  const text = await phone.locator('#own-incident').innerText();
  t.match(text, /Lindenallee 5[\s\S]*20259 Hamburg/);
  t.match(text, /HLF-1/);
  t.match(text, /RTW-1 alarmiert/);
  await phone.locator('#crew-alarm-take').click();
  await phone.locator('#crew-alarm').waitFor({ state: 'detached' });
  t.equal(await pressed(phone), '3', 'Übernehmen put the unit in 3');
  await ok('POST', `/incidents/${sheet.number}/entries`, { text: 'Zwei Personen im Treppenhaus' });
  const sent = Date.now();
  await phone.locator('#own-incident').getByText('Zwei Personen im Treppenhaus').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - sent < LIVE_MS, `a timeline entry arrives, live (${Date.now() - sent} ms)`);
  t.notMatch(await phone.locator('#app').innerText(), capabilityName);
  await screenshot(phone, 'crew-incident-phone');
  await phone.setViewportSize({ width: 1280, height: 800 });
  await screenshot(phone, 'crew-incident-desk');
  await phone.setViewportSize({ width: 390, height: 844 });
});

t.test('a person whose rank may not occupy a unit is told so in words', async (t) => {
  t.equal((await b.rest('PATCH', '/admin/ranks/praktikant', { capabilities: [] })).status, 200);
  t.teardown(() => b.rest('PATCH', '/admin/ranks/praktikant', { capabilities: ['timeclock.own.use'] }));
  const page = await b.openFor(t, demo.trainee, { viewport: { width: 390, height: 844 } });
  t.equal(await page.locator('#tab-units').count(), 0, 'no Einheiten tab for a rank that can neither see units nor occupy one');
  t.notMatch(await page.locator('#app').innerText(), capabilityName);
});
