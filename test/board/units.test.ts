import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot, screenshotDir } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// The Einheiten tab in a real browser against the real server and the demo guild: tiles in
// callsign order in their FMS colours, changes from elsewhere arriving live into only the tile they
// concern, statuses set by keyboard and by click, alarm statuses standing out, occupying and
// leaving a unit, and what a trainee without dispatch.view gets instead.
const b = await demoBoard(t);
const phone = { width: 390, height: 844 };

const open = b.openFor;

/**
 * A board on a phone, on the Einheiten tab. A key press first allows sound: the first pointer-down
 * on a page does that too, and the alarm strip then changes height under the finger, so a first tap
 * on a tab would end elsewhere (reported to the alarm strip's owner).
 */
async function openPhone(t: { teardown(fn: () => unknown): void }, userId: string): Promise<Page> {
  const page = await open(t, userId, { viewport: phone });
  await page.keyboard.press('Shift');
  await page.locator('#tab-units').click();
  return page;
}

const tile = (page: Page, callsign: string) => page.locator(`.unit-tile[data-callsign="${callsign}"]`);
const bandColor = (page: Page, callsign: string) => tile(page, callsign).locator('.band').evaluate((el) => getComputedStyle(el).backgroundColor);
const units = async () => (await b.rest('GET', '/units')).body.units as { callsign: string; status: string; members: { userId: string }[] }[];
const statusOf = async (callsign: string) => (await units()).find((u) => u.callsign === callsign)?.status;
/** Waits until the REST API reports `status` for `callsign` (the board's request may still be on its way). */
async function restStatus(callsign: string, status: string): Promise<string | undefined> {
  for (let i = 0; i < 40; i++) {
    const now = await statusOf(callsign);
    if (now === status) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
  return statusOf(callsign);
}

t.test('the four demo units as tiles in callsign order, each in its status colour with label, station and time', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await tile(page, 'RTW-1').waitFor();
  t.same(await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign)), ['HLF-1', 'NEF-1', 'RTW-1', 'RTW-2'], 'natural callsign order');
  for (const c of ['HLF-1', 'NEF-1', 'RTW-1', 'RTW-2']) t.equal(await bandColor(page, c), 'rgb(27, 94, 32)', `${c} in the colour of status 2`);
  const text = await tile(page, 'RTW-1').innerText();
  t.match(text, /Einsatzbereit auf Wache/);
  t.match(text, /Rettungswagen 1\nRettungswache Mitte/);
  t.match(text, /unbesetzt/);
  t.match(text, /seit \d\d:\d\d · \d+ s/, 'the time in status runs');
  t.equal(await tile(page, 'RTW-1').locator('.band').evaluate((el) => getComputedStyle(el).color), 'rgb(255, 255, 255)', 'white text on the dark green');
  t.equal(await page.locator('#units-count').innerText(), '4');
  t.match(await page.locator('#units-help').innerText(), /0–9 setzt ihren Status/);
  const perRow = await page.locator('.unit-tile').evaluateAll((els) => new Set(els.map((e) => (e as HTMLElement).offsetTop)).size);
  t.equal(perRow, 1, 'all four side by side on a desk');
  await screenshot(page, 'units-desk');
});

t.test('a REST status change reaches the open board live and re-creates no other tile', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await tile(page, 'RTW-1').waitFor();
  await page.evaluate(() => document.querySelectorAll('.unit-tile').forEach((el) => ((el as HTMLElement & { tag?: string }).tag = (el as HTMLElement).dataset.callsign)));
  const seen = page.evaluate(() => new Promise<number>((resolve) => {
    const grid = document.getElementById('unit-grid')!;
    new MutationObserver(() => {
      if (grid.querySelector('[data-callsign="RTW-1"][data-status="3"]')) resolve(Date.now());
    }).observe(grid, { attributes: true, subtree: true });
  }));
  await units(); // the REST helper's first call fetches the API document for its contract check: not part of the write
  const started = Date.now();
  t.equal((await b.rest('PUT', '/units/RTW-1/status', { status: '3' })).status, 200);
  await tile(page, 'RTW-1').and(page.locator('[data-status="3"]')).waitFor({ timeout: LIVE_MS });
  const after = (await seen) - started;
  t.ok(after < LIVE_MS, `on screen ${after} ms after the write was sent`);
  t.equal(await bandColor(page, 'RTW-1'), 'rgb(249, 168, 37)', 'the band turned to the colour of status 3');
  t.equal(await tile(page, 'RTW-1').locator('.band').evaluate((el) => getComputedStyle(el).color), 'rgb(17, 17, 17)', 'dark text on yellow');
  t.match(await tile(page, 'RTW-1').innerText(), /Einsatz übernommen/);
  const kept = await page.evaluate(() => Array.from(document.querySelectorAll('.unit-tile')).map((el) => (el as HTMLElement & { tag?: string }).tag ?? null));
  t.same(kept, ['HLF-1', 'NEF-1', 'RTW-1', 'RTW-2'], 'every tile is still the same DOM node (the changed one updated in place)');
  t.equal((await b.rest('PUT', '/units/RTW-1/status', { status: '2' })).status, 200);
});

t.test('a dispatcher chooses a unit and sets its status with a digit, moves with the arrow keys, and clicks the picker', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await tile(page, 'NEF-1').click();
  t.equal(await tile(page, 'NEF-1').getAttribute('aria-selected'), 'true');
  t.equal(await page.locator('#unit-grid').getAttribute('aria-activedescendant'), await tile(page, 'NEF-1').getAttribute('id'));
  await page.keyboard.press('4');
  t.equal(await restStatus('NEF-1', '4'), '4', 'the digit set status 4');
  await page.locator('#unit-result').getByText('NEF-1: Status 4 – Am Einsatzort.').waitFor();
  await tile(page, 'NEF-1').and(page.locator('[data-status="4"]')).waitFor();

  await page.keyboard.press('ArrowRight');
  t.equal(await tile(page, 'RTW-1').getAttribute('aria-selected'), 'true', 'the arrow moved the choice to the next tile');
  t.equal(await page.locator('#unit-result').innerText(), '', 'the old outcome is cleared with the new choice');
  await page.keyboard.press('6');
  t.equal(await restStatus('RTW-1', '6'), '6');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  t.ok(await page.locator('#unit-detail .status-picker button').first().evaluate((el) => el === document.activeElement), 'Enter moves into the status picker');
  t.equal(await page.locator('#unit-detail').getAttribute('data-callsign'), 'NEF-1');
  await page.keyboard.press('1');
  t.equal(await restStatus('NEF-1', '1'), '1', 'digits work from the picker too');

  await page.locator('#unit-detail .status-picker button[data-code="5"]').click();
  t.equal(await restStatus('NEF-1', '5'), '5', 'a click on a picker button sets it');
  await page.locator('#unit-detail .status-picker button[data-code="5"][aria-pressed="true"]').waitFor();
  t.equal(await page.locator('#unit-detail .status-picker button').count(), 10, 'a button per catalogue status (FMS 1–8, 0 and A)');

  await page.keyboard.press('9');
  await page.locator('#unit-result.error').getByText(/unknown status 9/).waitFor();
  t.equal(await statusOf('NEF-1'), '5', 'a code the catalogue lacks changes nothing; the server says why');

  await page.locator('#unit-search').fill('rtw');
  await page.keyboard.press('3');
  t.equal(await statusOf('NEF-1'), '5', 'typing in the search box sets no status');
  t.equal(await page.locator('#unit-search').inputValue(), 'rtw3', 'the digit went into the box');
  await page.locator('#unit-search').fill('rtw');
  t.same(await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign)), ['RTW-1', 'RTW-2'], 'the search filters the tiles');
  t.equal(await page.locator('#units-count').innerText(), '2 von 4');
  await page.locator('#unit-search').fill('');
  await page.selectOption('#unit-status-filter', '6');
  t.same(await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign)), ['RTW-1'], 'the status filter too');
  await page.selectOption('#unit-status-filter', '');
  for (const c of ['NEF-1', 'RTW-1']) await b.rest('PUT', `/units/${c}/status`, { status: '2' });
});

t.test('a unit in an alarm status (FMS 0) flashes and is marked ALARM', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await tile(page, 'HLF-1').waitFor();
  t.equal(await tile(page, 'HLF-1').evaluate((el) => el.classList.contains('alarm')), false);
  await b.rest('PUT', '/units/HLF-1/status', { status: 0 });
  await tile(page, 'HLF-1').and(page.locator('.alarm')).waitFor({ timeout: LIVE_MS });
  t.equal(await bandColor(page, 'HLF-1'), 'rgb(198, 40, 40)');
  t.equal(await tile(page, 'HLF-1').locator('.alarm-tag').innerText(), 'ALARM', 'not by colour alone');
  t.equal(await tile(page, 'HLF-1').evaluate((el) => getComputedStyle(el).animationName), 'unit-alarm', 'the tile pulses');
  t.equal(await tile(page, 'RTW-2').evaluate((el) => getComputedStyle(el).animationName), 'none', 'a normal tile does not');
  const widths = await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => getComputedStyle(e).borderTopWidth));
  t.equal(widths[0], '3px', 'a thicker frame than the others');
  await screenshot(page, 'units-alarm');
  await page.emulateMedia({ colorScheme: 'dark' });
  await tile(page, 'RTW-1').click();
  await screenshot(page, 'units-alarm-dark');
  await b.rest('PUT', '/units/HLF-1/status', { status: '2' });
  await tile(page, 'HLF-1').and(page.locator(':not(.alarm)')).waitFor({ timeout: LIVE_MS });
});

t.test('occupying and leaving a unit: off duty the server says why, on duty the person appears in the crew', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await tile(page, 'RTW-2').click();
  await page.locator('#unit-join').click();
  await page.locator('#unit-result.error').getByText('Du bist nicht eingestempelt.').waitFor();
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: '02' })).status, 200);
  await page.locator('#unit-join').click();
  await page.locator('#unit-result').getByText('Du besetzt jetzt RTW-2.').waitFor();
  await tile(page, 'RTW-2').locator('.members li.me').getByText('Lena Berger').waitFor();
  t.equal(await page.locator('#my-unit').innerText(), 'Du besetzt RTW-2');
  t.ok((await units()).find((u) => u.callsign === 'RTW-2')?.members.some((m) => m.userId === demo.dispatcher), 'GET /units lists her in RTW-2');
  await screenshot(page, 'units-occupied');

  await page.locator('#unit-leave').click();
  await page.locator('#unit-result').getByText('Du hast RTW-2 verlassen.').waitFor();
  await tile(page, 'RTW-2').locator('.members').getByText('unbesetzt').waitFor();
  t.equal(await page.locator('#my-unit').innerText(), 'Du besetzt keine Einheit.');
  t.notOk((await units()).find((u) => u.callsign === 'RTW-2')?.members.length, 'RTW-2 is empty again');
  t.equal((await b.rest('POST', '/admin/clock-out', { badge: '02' })).status, 200);
});

t.test('a trainee (no dispatch.view) gets the no-right message, no fleet controls, and sets the status of the unit they occupy', async (t) => {
  const page = await open(t, demo.trainee, { tab: 'units' });
  await page.locator('#units-no-right').getByText('Die Einheitenübersicht sehen Ränge mit dem Recht „Leitstelle und Meldungen sehen“.').waitFor();
  t.equal(await page.locator('.unit-tile, #unit-grid, #unit-detail').count(), 0, 'no grid, no tiles, no unit panel');
  t.equal(await page.locator('.status-picker').count(), 0, 'no status buttons before occupying a unit');
  await b.rest('POST', '/admin/clock-in', { badge: '05' });
  await page.locator('#own-unit .own-pick[data-callsign="RTW-2"]').click();
  await page.locator('#own-current').getByText('RTW-2').waitFor();
  await page.locator('#own-unit .status-picker button[data-code="3"]').click();
  await page.locator('#own-result').getByText('RTW-2: Status 3 – Einsatz übernommen.').waitFor();
  t.equal(await statusOf('RTW-2'), '3', 'PUT /me/unit-status set the status of their own unit');
  await page.locator('#own-unit-title').click();
  await page.keyboard.press('4');
  await page.locator('#own-result').getByText('RTW-2: Status 4 – Am Einsatzort.').waitFor();
  t.equal(await statusOf('RTW-2'), '4', 'the digit keys work here too');
  await screenshot(page, 'units-trainee');
  await page.locator('#own-leave').click();
  await page.locator('#own-unit .own-pick[data-callsign="RTW-2"]').waitFor();
  t.equal(await page.locator('.status-picker').count(), 0, 'after leaving, no status buttons: the units to choose from again');
  await b.rest('POST', '/admin/clock-out', { badge: '05' });
  await b.rest('PUT', '/units/RTW-2/status', { status: '2' });
});

t.test('a crew member who may watch but not dispatch sets only their own unit\'s status', async (t) => {
  const crew = '200000000000000003'; // Jonas Krüger, Notfallsanitäter
  t.equal((await b.rest('PATCH', '/admin/ranks/notfallsanitaeter', { capabilities: ['timeclock.own.use', 'dispatch.view'] })).status, 200);
  t.teardown(() => b.rest('PATCH', '/admin/ranks/notfallsanitaeter', { capabilities: ['timeclock.own.use', 'personal.sheet.view', 'documents.letterhead.view'] }));
  await b.rest('POST', '/admin/clock-in', { badge: '03' });
  t.teardown(() => b.rest('POST', '/admin/clock-out', { badge: '03' }));
  const page = await open(t, crew, { tab: 'units' });
  await tile(page, 'NEF-1').click();
  await page.locator('#no-status-right').getByText('Den Status dieser Einheit setzen Disponenten oder ihre Besatzung.').waitFor();
  t.equal(await page.locator('#unit-detail .status-picker').count(), 0, 'no status buttons for a unit not his');
  t.equal(await page.locator('#unit-detail .crew-list button, #unit-add-member').count(), 0, 'no crew controls');
  t.match(await page.locator('#units-help').innerText(), /0–9 setzt den Status deiner Einheit/);
  await page.keyboard.press('3');
  await page.locator('#unit-result.error').getByText('Du besetzt NEF-1 nicht.').waitFor();
  t.equal(await statusOf('NEF-1'), '2', 'the server refused');
  await page.locator('#unit-join').click();
  await page.locator('#unit-detail .status-picker').waitFor();
  await page.keyboard.press('3');
  t.equal(await restStatus('NEF-1', '3'), '3', 'his own unit: set through PUT /me/unit-status');
  await page.locator('#unit-leave').click();
  await page.locator('#no-status-right').waitFor();
  await b.rest('PUT', '/units/NEF-1/status', { status: '2' });
});

t.test('on a phone: two tiles a row, nothing wider than the screen, the chosen unit in a sheet at the bottom', async (t) => {
  const page = await openPhone(t, demo.dispatcher);
  await tile(page, 'RTW-1').waitFor();
  const rows = await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetTop));
  t.equal(new Set(rows).size, 2, 'four tiles in two rows');
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  t.ok(scroll <= width, `${scroll} px wide in ${width}`);
  t.notOk(await page.locator('#unit-detail').isVisible(), 'no panel until a unit is chosen');
  await screenshot(page, 'units-phone');
  await tile(page, 'RTW-1').click();
  await page.locator('#unit-detail').waitFor({ state: 'visible' });
  const box = (await page.locator('#unit-detail').boundingBox())!;
  t.ok(Math.abs(box.y + box.height - 844) < 2, 'the sheet sits on the bottom edge');
  t.ok(await page.locator('#unit-detail .status-picker button[data-code="3"]').isVisible(), 'status buttons within reach');
  await screenshot(page, 'units-phone-sheet');
  await page.locator('#unit-detail .close').click();
  t.notOk(await page.locator('#unit-detail').isVisible(), 'closed again');
});

t.test('in English', async (t) => {
  const page = await open(t, demo.dispatcher, { tab: 'units', lang: 'en' });
  await tile(page, 'RTW-1').waitFor();
  t.match(await page.locator('#units-title').innerText(), /^Units/);
  t.match(await page.locator('#units-help').innerText(), /^Keyboard: arrow keys/);
  t.match(await tile(page, 'RTW-1').innerText(), /unmanned/);
  await tile(page, 'RTW-1').click();
  t.equal(await page.locator('#unit-join').innerText(), 'Occupy');
  const trainee = await open(t, demo.trainee, { tab: 'units', lang: 'en' });
  await trainee.locator('#units-no-right').getByText('The unit overview is shown to ranks with the right to “see dispatch and calls”.').waitFor();
  t.equal(await trainee.locator('#own-unit-title').innerText(), 'My vehicle');
});

t.test('200 units: natural order, the search narrows them, arrow down moves a row', async (t) => {
  const callsigns = [...Array.from({ length: 118 }, (_, i) => `RTW-${i + 3}`), ...Array.from({ length: 78 }, (_, i) => `KTW ${i + 1}`)];
  for (let i = 0; i < callsigns.length; i += 20) {
    // Without the helper's per-call contract check: 196 creations are set-up here, not what is tested.
    const created = await Promise.all(callsigns.slice(i, i + 20).map((callsign) =>
      call(b.server.url, 'POST', '/units', { key: b.key, body: { callsign, orgUnit: 'Wache Süd' }, skipContract: true })));
    t.ok(created.every((r) => r.status === 200), `units ${i + 1}–${i + 20} created`);
  }
  const page = await open(t, demo.dispatcher, { tab: 'units' });
  await page.locator('#units-count').getByText('200').waitFor();
  t.equal(await page.locator('.unit-tile').count(), 200);
  const order = await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign));
  t.same(order.slice(0, 4), ['HLF-1', 'KTW 1', 'KTW 2', 'KTW 3'], 'numbers sort as numbers');
  t.same(order.slice(-3), ['RTW-118', 'RTW-119', 'RTW-120']);
  await page.locator('#unit-search').fill('rtw-1');
  t.same((await page.locator('.unit-tile').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.callsign))).slice(0, 13),
    ['RTW-1', 'RTW-10', 'RTW-11', 'RTW-12', 'RTW-13', 'RTW-14', 'RTW-15', 'RTW-16', 'RTW-17', 'RTW-18', 'RTW-19', 'RTW-100', 'RTW-101']);
  t.equal(await page.locator('#units-count').innerText(), '32 von 200');
  await page.locator('#unit-search').fill('');
  await tile(page, 'HLF-1').click();
  const columns = await page.locator('.unit-tile').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetTop === (els[0] as HTMLElement).offsetTop).length);
  t.ok(columns >= 4, `${columns} tiles a row on a desk`);
  await page.keyboard.press('ArrowDown');
  t.equal(await page.locator('.unit-tile[aria-selected="true"]').getAttribute('data-callsign'), order[columns], 'one row down');
  await page.keyboard.press('End');
  t.equal(await page.locator('.unit-tile[aria-selected="true"]').getAttribute('data-callsign'), 'RTW-120');
  // Scrolled with block 'nearest': the tile's bottom meets the viewport's, give or take the
  // sub-pixel rounding of the scroll offset; a loaded box may need a frame or two to lay it out.
  const placement = () => tile(page, 'RTW-120').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { inView: box.top >= 0 && box.bottom <= innerHeight + 1, where: `${Math.round(box.top)}–${Math.round(box.bottom)} of ${innerHeight} px` };
  });
  let placed = await placement();
  for (const until = Date.now() + 5_000; !placed.inView && Date.now() < until; placed = await placement()) await page.waitForTimeout(50);
  t.ok(placed.inView, `the chosen tile is scrolled into view (${placed.where})`);
  await page.keyboard.press('7');
  t.equal(await restStatus('RTW-120', '7'), '7');
  await page.keyboard.press('Home');
  await tile(page, 'RTW-120').and(page.locator('[data-status="7"]')).waitFor();
  await page.waitForLoadState('networkidle');
  t.equal(await page.locator('#unit-detail').getAttribute('data-callsign'), 'HLF-1');
  t.equal(await page.locator('#unit-result').innerText(), '', 'the outcome for RTW-120 does not show in the panel of HLF-1');
  await page.screenshot({ path: `${screenshotDir}/units-fleet.png` });

  await page.locator('#units-compact').click();
  const dense = await page.locator('.unit-tile').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetTop === (els[0] as HTMLElement).offsetTop).length);
  t.ok(dense > columns, `compact: ${dense} tiles a row instead of ${columns}`);
  t.equal(await page.locator('#units-compact').getAttribute('aria-pressed'), 'true');
  await page.screenshot({ path: `${screenshotDir}/units-fleet-compact.png` });
  await page.reload();
  await page.locator('#units-compact[aria-pressed="true"]').waitFor();
  t.pass('the choice is kept in this browser');
});
