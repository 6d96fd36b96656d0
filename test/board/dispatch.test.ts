import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// The Leitstelle tab in a real browser against the real server and the demo guild: a dispatcher
// takes a seat and a second board sees it at once, leaves it, an admin frees someone else's seat,
// stand-by on and off (and an admin taking someone off it), and what a trainee without
// dispatch.view gets.
const b = await demoBoard(t);
const phone = { width: 390, height: 844 };

const open = b.openFor;

const slot = (page: Page, n: number) => page.locator(`li.slot[data-slot="${n}"]`);
const standbyRow = (page: Page, userId: string) => page.locator(`#standby-list tr[data-user="${userId}"]`);
const seats = async () => (await b.rest('GET', '/api/v1/dispatchers') /* '/dispatch…' paths are the board's to the helper */).body as { maxSlots: number; slots: { slot: number; userId: string }[] };
const standby = async () => ((await b.rest('GET', '/standby')).body.people as { userId: string }[]).map((p) => p.userId);

t.test('off duty, taking a seat shows the server\'s reason and the way to the time clock', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'dispatch' });
  await page.locator('#slots-count').getByText('0 von 20 besetzt').waitFor();
  t.same(await page.locator('li.slot').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.slot)), ['1', '2', '3', '4'], 'four free seats shown at first');
  t.match(await page.locator('#my-seat').innerText(), /Einen Platz übernimmt, wer eingestempelt ist\.\s*Zur Stempeluhr/);
  await slot(page, 1).locator('button.take').click();
  await slot(page, 1).locator('.result.error').getByText('Du bist nicht eingestempelt.').waitFor();
  t.same((await seats()).slots, [], 'no seat taken');
  await page.locator('#my-seat a[href="#clock"]').click();
  await page.locator('#tab-clock[aria-selected="true"]').waitFor();
  t.pass('the link opens the Stempeluhr');
});

t.test('a dispatcher takes a seat and another board sees it live; she leaves it again', async (t) => {
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: '02' })).status, 200);
  const page = await open(t, demo.dispatcher, { tab: 'dispatch' });
  const other = await open(t, demo.admin, { tab: 'dispatch' });
  await slot(other, 2).locator('.slot-who').getByText('frei').waitFor();
  await slot(page, 2).locator('button.take').click();
  const started = Date.now();
  await slot(other, 2).locator('.slot-who').getByText('Lena Berger').waitFor({ timeout: LIVE_MS });
  t.ok(Date.now() - started < LIVE_MS, `the other board shows her after ${Date.now() - started} ms`);
  await slot(page, 2).locator('.result').getByText('Du sitzt jetzt auf Platz 2.').waitFor();
  t.same((await seats()).slots.map((s) => [s.slot, s.userId]), [[2, demo.dispatcher]], 'GET /dispatchers agrees');
  t.match(await page.locator('#my-seat').innerText(), /Du sitzt auf Platz 2 · seit \d\d:\d\d Uhr · \d+ s/);
  t.match(await slot(other, 2).innerText(), /seit \d\d:\d\d Uhr · \d+ s/, 'since when, running');
  t.equal(await other.locator('#slots-count').innerText(), '1 von 20 besetzt');
  t.equal(await slot(page, 1).locator('button.take').innerText(), 'Hierher wechseln', 'a free seat offers a move while she holds one');
  t.equal(await slot(page, 2).locator('button.clear').count(), 0, 'her own seat: leave, not free');
  await screenshot(page, 'dispatch-desk');

  await slot(page, 1).locator('button.take').click();
  await slot(other, 1).locator('.slot-who').getByText('Lena Berger').waitFor({ timeout: LIVE_MS });
  await slot(other, 2).locator('.slot-who').getByText('frei').waitFor({ timeout: LIVE_MS });
  t.pass('moving frees the old seat on the other board');

  await page.locator('#seat-leave').click();
  await page.locator('#seat-result').getByText('Platz 1 verlassen.').waitFor();
  await slot(other, 1).locator('.slot-who').getByText('frei').waitFor({ timeout: LIVE_MS });
  t.same((await seats()).slots, []);
  await page.locator('#seat-take').click();
  await page.locator('#seat-result').getByText('Du sitzt jetzt auf Platz 1.').waitFor();
  t.pass('"Freien Platz übernehmen" takes the first free seat');
});

t.test('an admin frees another person\'s seat; the holder\'s board shows it free', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'dispatch' });
  const admin = await open(t, demo.admin, { tab: 'dispatch' });
  await slot(admin, 1).locator('.slot-who').getByText('Lena Berger').waitFor();
  await slot(admin, 1).getByRole('button', { name: 'Platz 1 freigeben (Lena Berger)' }).click();
  await slot(admin, 1).locator('.result').getByText('Platz 1 ist frei.').waitFor();
  await slot(page, 1).locator('.slot-who').getByText('frei').waitFor({ timeout: LIVE_MS });
  t.equal(await page.locator('#my-seat p').innerText(), 'Du sitzt auf keinem Platz.');
  t.same((await seats()).slots, []);
});

t.test('stand-by on and off, live on a second board; an admin takes someone off it', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'dispatch' });
  const admin = await open(t, demo.admin, { tab: 'dispatch' });
  await page.locator('#my-standby').getByText('Du bist nicht in Bereitschaft.').waitFor();
  await admin.locator('#standby').getByText('Niemand ist in Bereitschaft.').waitFor();
  await page.locator('#standby-on').click();
  await page.locator('#standby-result').getByText('Du bist jetzt in Bereitschaft.').waitFor();
  await standbyRow(admin, demo.dispatcher).getByText('Lena Berger').waitFor({ timeout: LIVE_MS });
  t.match(await standbyRow(admin, demo.dispatcher).innerText(), /\d\d:\d\d\s+\d+ s/, 'since and a running duration');
  t.same(await standby(), [demo.dispatcher], 'GET /standby agrees');
  t.equal(await standbyRow(page, demo.dispatcher).locator('button.remove').count(), 0, 'no remove button on her own row');
  await page.locator('#my-standby').getByText('Du bist in Bereitschaft.').waitFor();
  await screenshot(admin, 'dispatch-standby');

  await page.locator('#standby-off').click();
  await page.locator('#standby-result').getByText('Deine Bereitschaft ist beendet.').waitFor();
  await admin.locator('#standby').getByText('Niemand ist in Bereitschaft.').waitFor({ timeout: LIVE_MS });
  t.same(await standby(), []);

  await page.locator('#standby-on').click();
  await standbyRow(admin, demo.dispatcher).waitFor({ timeout: LIVE_MS });
  await standbyRow(admin, demo.dispatcher).getByRole('button', { name: 'Lena Berger aus der Bereitschaft nehmen' }).click();
  await page.locator('#my-standby').getByText('Du bist nicht in Bereitschaft.').waitFor({ timeout: LIVE_MS });
  t.same(await standby(), [], 'the admin took her off');
});

t.test('a trainee (no dispatch.view) sees no seats or roster, only their own buttons, and the server\'s answers', async (t) => {
  const page = await open(t, demo.trainee, { tab: 'dispatch' });
  await page.locator('#slots-no-right').getByText('Wer auf welchem Platz sitzt, sehen Ränge mit dem Recht „Leitstelle und Meldungen sehen“.').waitFor();
  await page.locator('#standby-no-right').waitFor();
  t.equal(await page.locator('li.slot, #standby-list, button.clear, button.remove').count(), 0, 'no seats, no roster, nothing to free or remove');
  await page.locator('#standby-on').click();
  await page.locator('#standby-result').getByText('Du bist jetzt in Bereitschaft.').waitFor();
  t.same(await standby(), [demo.trainee]);
  await page.locator('#standby-off').click();
  await page.locator('#standby-result').getByText('Deine Bereitschaft ist beendet.').waitFor();
  await page.locator('#standby-off').click();
  await page.locator('#standby-result.error').getByText('Du bist nicht in Bereitschaft.').waitFor();
  await page.locator('#seat-take').click();
  await page.locator('#seat-result.error').getByText('Du bist nicht eingestempelt.').waitFor();
  await screenshot(page, 'dispatch-trainee');
});

t.test('on a phone: two seats a row, nothing wider than the screen', async (t) => {
  await b.rest('PUT', '/admin/dispatchers/3', { userId: demo.dispatcher });
  const page = await open(t, demo.dispatcher, { viewport: phone });
  await page.keyboard.press('Shift'); // allows sound first: the alarm strip changes height on the first tap
  await page.locator('#tab-dispatch').click();
  await slot(page, 3).locator('.slot-who').getByText('Lena Berger').waitFor();
  const tops = await page.locator('li.slot').evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetTop));
  t.equal(new Set(tops).size, 2, 'four seats in two rows');
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  t.ok(scroll <= width, `${scroll} px wide in ${width}`);
  await page.locator('#slots-all').click();
  t.equal(await page.locator('li.slot').count(), 20, 'all 20 seats on request');
  await page.locator('#slots-all').click();
  await screenshot(page, 'dispatch-phone');
  await b.rest('DELETE', '/admin/dispatchers/3');
});

t.test('in English', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'dispatch', lang: 'en' });
  await page.locator('#slots-title').getByText('Dispatcher seats').waitFor();
  t.match(await page.locator('#standby-title').innerText(), /^Stand-by/);
  t.equal(await page.locator('#slots-count').innerText(), '0 of 20 taken');
  t.equal(await slot(page, 1).locator('button.take').innerText(), 'Take seat');
  t.equal(await page.locator('#standby-on').innerText(), 'Go on stand-by');
});
