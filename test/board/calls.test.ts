import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// "Meldungen aus dem Spiel" in a real browser against the real server: calls a game script reports
// with its scoped key appear on an open board at once, most urgent first, with a tone and a flash;
// Übernehmen opens the incident sheet; a take elsewhere removes the call live; rights decide.
const b = await demoBoard(t);
const made = await b.rest('POST', '/admin/apikeys', { name: 'game', scopes: ['calls:call.report'] });
const gameKey = made.body.key as string;
const report = async (body: Record<string, unknown>) => {
  const res = await call(b.server.url, 'POST', '/integrations/ingame/calls', { key: gameKey, body });
  if (res.status !== 200) throw new Error(`report ${res.status}: ${res.text}`);
  return res.body;
};
const order = (page: Page) => page.locator('#calls > li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.call));
const chimes = (page: Page) => page.evaluate(() => (window as unknown as { dtBoard: { audio: { chimes: number } } }).dtBoard.audio.chimes);
const row = (page: Page, id: string) => page.locator(`#calls > li[data-call="${id}"]`);
/** What a row says (textContent: innerText would upper-case the CSS-capitalised labels). */
const says = async (page: Page, id: string) => (await row(page, id).textContent()) ?? '';

await report({
  externalId: 'qb:1', kind: 'notruf', title: 'Verkehrsunfall', message: 'Zwei PKW, eine Person eingeklemmt',
  location: { street: 'Hauptstraße 5', postal: '1010', x: 100.5, y: -200 }, caller: { name: 'Max Muster', phone: '555-0101' }, source: 'qb-phone',
});
await report({ externalId: 'qb:2', kind: 'hinweis', priority: 3, title: 'Rauch über dem Wald', location: 'Paleto Forest' });
const onDuty = await b.rest('POST', '/admin/clock-in', { badge: '02' }); // the dispatcher takes calls only on duty
if (onDuty.status !== 200) throw new Error(`clock-in ${onDuty.status}: ${onDuty.text}`);
const page = await b.open(demo.dispatcher, { tab: 'calls' });

t.test('the calls of the snapshot are listed without a tone, with everything the game sent', async (t) => {
  await row(page, 'qb:2').waitFor();
  t.same(await order(page), ['qb:1', 'qb:2'], 'priority 2 before priority 3');
  const first = await says(page, 'qb:1');
  for (const part of ['Notruf', 'P2', 'Verkehrsunfall', 'Zwei PKW, eine Person eingeklemmt', 'Hauptstraße 5, 1010', 'X 100.5 · Y -200', 'Max Muster · 555-0101', 'Quelle: qb-phone']) {
    t.match(first, part, `shows ${part}`);
  }
  t.notMatch(first, 'qb:1', 'the game\'s id of the call is not shown as if it meant something');
  t.match(await says(page, 'qb:2'), /Hinweis[\s\S]*P3[\s\S]*Rauch über dem Wald[\s\S]*Paleto Forest/);
  t.equal(await chimes(page), 0, 'calls that were there before the board opened do not chime');
  t.equal(await page.locator('#calls [data-fresh]').count(), 0, 'nor flash');
  t.equal(await page.locator('#calls-count').innerText(), '2');
});

t.test('a panic call from the game appears live, first, with a tone and a flash', async (t) => {
  const started = Date.now();
  await report({ externalId: 'qb:panic', kind: 'panik', title: 'Panikknopf Streife 12', location: 'Mission Row' });
  await page.locator('#calls > li:first-child[data-call="qb:panic"][data-fresh]').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - started < LIVE_MS, `on the board ${Date.now() - started} ms after the report was sent`);
  t.same(await order(page), ['qb:panic', 'qb:1', 'qb:2'], 'panic first');
  t.equal(await chimes(page), 1, 'one chime');
  t.match(await says(page, 'qb:panic'), /Panik[\s\S]*P1[\s\S]*Panikknopf Streife 12[\s\S]*Neu/, 'a panic is priority 1 and marked new');
  t.ok(await row(page, 'qb:panic').evaluate((el) => getComputedStyle(el, '::after').animationName === 'call-flash'), 'the row flashes');
  await screenshot(page, 'calls-desk');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'calls-desk-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.waitForTimeout(1000); // the board chimes at most once a second
  await report({ externalId: 'qb:9', kind: 'notruf', priority: 1, title: 'Herzstillstand', location: 'Vinewood Blvd' });
  await row(page, 'qb:9').waitFor({ timeout: LIVE_MS });
  t.same(await order(page), ['qb:panic', 'qb:9', 'qb:1', 'qb:2'], 'then priority 1 before 2 and 3');
  t.equal(await chimes(page), 2, 'every new call chimes');

  await report({ externalId: 'qb:1', title: 'Verkehrsunfall', message: 'Jetzt drei PKW' });
  await row(page, 'qb:1').getByText('2× gemeldet').waitFor({ timeout: LIVE_MS });
  t.match(await says(page, 'qb:1'), /Jetzt drei PKW/, 'a re-report updates the row in place');
  t.equal(await chimes(page), 2, 'a re-report of an open call does not chime again');
  t.same(await order(page), ['qb:panic', 'qb:9', 'qb:1', 'qb:2'], 'and keeps its place');
});

t.test('the list filters by kind', async (t) => {
  t.match(await page.locator('#calls-filter-panik').innerText(), /Panik\s*1/);
  await page.click('#calls-filter-hinweis');
  t.same(await order(page), ['qb:2']);
  t.equal(await page.locator('#calls-filter-hinweis').getAttribute('aria-pressed'), 'true');
  await page.click('#calls-filter-alarm');
  await page.locator('#calls-empty').getByText('Keine offenen Meldungen dieser Art.').waitFor();
  await page.click('#calls-filter-all');
  t.same(await order(page), ['qb:panic', 'qb:9', 'qb:1', 'qb:2']);
});

t.test('a take in another session removes the call from this board live', async (t) => {
  const taken = await b.rest('POST', '/calls/qb:9/take', {});
  t.equal(taken.status, 200, 'taken with the guild key');
  await row(page, 'qb:9').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.same(await order(page), ['qb:panic', 'qb:1', 'qb:2']);

  t.equal((await b.rest('POST', '/admin/clock-in', { badge: '01' })).status, 200);
  const admin = await b.open(demo.admin, { tab: 'calls' });
  t.teardown(() => admin.context().close());
  await admin.click('[data-take="qb:2"]');
  await admin.locator('#sheet-title').getByText('Rauch über dem Wald').waitFor();
  await row(page, 'qb:2').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.same(await order(page), ['qb:panic', 'qb:1'], 'the second board\'s take left this board too');
  t.equal(await page.locator('#calls-count').innerText(), '2');
});

t.test('Übernehmen opens the call\'s incident sheet', async (t) => {
  await page.click('[data-take="qb:panic"]');
  await page.locator('#tab-incidents[aria-selected="true"]').waitFor();
  await page.locator('#sheet-title').getByText('Panikknopf Streife 12').waitFor();
  t.match(await page.locator('.sheet-meta').innerText(), /aus einer Meldung aus dem Spiel/);
  t.notMatch(await page.locator('.sheet-meta').innerText(), /qb:panic/, 'the game\'s id is no word for the dispatcher');
  t.equal(await page.locator('.sheet-meta span[title="Kennung im Spiel: qb:panic"]').count(), 1, 'it is a tooltip');
  t.match(await page.locator('#sheet-loc-text').inputValue(), 'Mission Row', 'the location came with the call');
  t.equal(await page.locator('#sheet-priority').inputValue(), '1');
  await page.locator('#timeline').getByText('Meldung qb:panic übernommen: Panikknopf Streife 12').waitFor();
  t.match(page.url(), /#incidents$/, 'the address names the tab');
  await page.fill('#entry-text', 'Streife 12 meldet sich nicht, RTW-1 und NEF-1 hin');
  await page.click('#entry-add');
  await page.locator('#timeline li:first-child').getByText('Streife 12 meldet sich nicht').waitFor();
  t.pass('the dispatcher runs the sheet they took');
  await page.click('#tab-calls');
  t.same(await order(page), ['qb:1'], 'the taken call left the list');
  const stored = await b.rest('GET', '/incidents?state=open');
  t.ok(stored.body.incidents.some((i: { call: { externalId: string } | null }) => i.call?.externalId === 'qb:panic'), 'the sheet is stored');
});

t.test('off duty, a take fails in place with what to do', async (t) => {
  t.equal((await b.rest('POST', '/admin/clock-out', { badge: '02' })).status, 200);
  await page.click('[data-take="qb:1"]');
  await page.locator('#calls-result').getByText('Du bist außer Dienst. Stemple dich ein, um Meldungen zu bearbeiten.').waitFor();
  t.ok(await row(page, 'qb:1').isVisible(), 'the call stays open');
  await page.locator('#calls-result').getByRole('button', { name: 'Zur Stempeluhr' }).click();
  await page.locator('#tab-clock[aria-selected="true"]').waitFor();
  t.pass('the message leads to the time clock');
});

t.test('a trainee sees no calls; with dispatch.view but no dispatch.manage no take button', async (t) => {
  const trainee = await b.open(demo.trainee);
  t.teardown(() => trainee.context().close());
  t.equal(await trainee.locator('#tab-calls').count(), 0, 'no calls tab without dispatch.view');
  const changed = await b.rest('PATCH', '/admin/ranks/praktikant', { capabilities: ['timeclock.own.use', 'dispatch.view'] });
  t.equal(changed.status, 200);
  await trainee.locator('#tab-calls').click({ timeout: 3000 });
  await row(trainee, 'qb:1').waitFor();
  t.equal(await trainee.locator('[data-take]').count(), 0, 'no take button');
  t.ok(await trainee.locator('#calls-view-only').isVisible(), 'says who may take calls');
});

t.test('on a phone the list fits the screen', async (t) => {
  await report({ externalId: 'qb:phone', kind: 'alarm', title: 'Brandmeldeanlage ausgelöst', location: { text: 'Krankenhaus Pillbox Hill, Haupteingang', x: 312.25, y: -590.5 } });
  const phone = await b.open(demo.admin, { viewport: { width: 390, height: 844 } });
  t.teardown(() => phone.context().close());
  await phone.locator('#tab-calls').focus(); // by keyboard: a pointer click on the scrolled tab strip misses under the sticky header
  await phone.keyboard.press('Enter');
  await row(phone, 'qb:phone').waitFor();
  const { scroll, width } = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  t.ok(scroll <= width, `${scroll} px wide in a ${width} px viewport`);
  t.ok(await phone.locator('[data-take="qb:phone"]').isVisible(), 'the take button is on screen');
  await screenshot(phone, 'calls-phone');
});

t.test('in English', async (t) => {
  await page.click('#tab-calls');
  await page.click('#lang');
  await page.locator('#tab-calls').getByText('Calls from the game').waitFor();
  t.match(await says(page, 'qb:1'), /Emergency[\s\S]*Verkehrsunfall[\s\S]*reported 2×/);
  t.equal(await page.locator('[data-take="qb:1"]').innerText(), 'Take');
  t.match(await page.locator('#calls-filter-panik').innerText(), /Panic/);
  await page.click('#lang');
});

t.test('200 open calls: a re-report changes only its own row, in well under a second', async (t) => {
  t.equal((await b.rest('PUT', '/admin/call-rate-limit', { perMinute: 6000, burst: 1000 })).status, 200);
  await page.click('#tab-calls');
  const open = Number(await page.locator('#calls-count').innerText());
  const chimesBefore = await chimes(page);
  const started = Date.now();
  const kinds = ['notruf', 'alarm', 'hinweis', 'notruf'];
  for (let i = 0; i < 200 - open; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, 200 - open - i) }, (_, j) => report({
      externalId: `load:${i + j}`, kind: kinds[(i + j) % 4], priority: 1 + ((i + j) % 3), title: `Einsatz ${i + j}`, location: `Straße ${i + j}`,
    })));
  }
  await page.locator('#calls-count').getByText('200', { exact: true }).waitFor();
  t.equal(await page.locator('#calls > li').count(), 200, '200 rows');
  const seconds = (Date.now() - started) / 1000;
  const rang = (await chimes(page)) - chimesBefore;
  t.ok(rang >= 1 && rang <= Math.ceil(seconds) + 1, `${rang} chimes for ${200 - open} calls in ${seconds.toFixed(1)} s: at most one a second`);

  await page.waitForFunction(() => !document.querySelector('#calls [data-fresh]'), undefined, { timeout: 15_000 }); // the arrivals' flashes are over
  await page.evaluate(`(() => {
    window.touchedRows = new Set();
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        if (el && el.closest('.call-age')) continue; // the waiting time, bound to the clock
        const row = el && el.closest('li[data-call]');
        window.touchedRows.add(row ? row.dataset.call : '(list)');
      }
    }).observe(document.getElementById('calls'), { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
  const sent = Date.now();
  await report({ externalId: 'load:77', title: 'Einsatz 77', message: 'Nachtrag: zweite Person verletzt' });
  await row(page, 'load:77').getByText('Nachtrag: zweite Person verletzt').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - sent < LIVE_MS, `shown ${Date.now() - sent} ms after the report`);
  await page.waitForTimeout(200);
  t.same(await page.evaluate('[...window.touchedRows]'), ['load:77'], 'no other row and not the list changed');

  await page.click('#calls-filter-alarm');
  const kindsShown = await page.locator('#calls > li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind));
  t.equal(kindsShown.length, 51, 'the filter narrows 200 calls to the 51 alarms');
  t.ok(kindsShown.every((k) => k === 'alarm'));
  await page.click('#calls-filter-all');
});
