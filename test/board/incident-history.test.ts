import t from 'tap';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// The Einsätze tab's history (issue 29) in real Chromium: every sheet, open and closed, newest
// first, 25 at a time with "Mehr laden"; the search field, unit and days ask GET /incidents.
const b = await demoBoard(t);
const make = async (body: Record<string, unknown>) => {
  const res = await b.rest('POST', '/incidents', body);
  if (res.status !== 200) throw new Error(`create ${res.status}: ${res.text}`);
  return res.body.number as number;
};
const harbour = await make({ keyword: 'B2 Lagerhallenbrand', location: { street: 'Hafenstraße 9', postal: '20457' } });
await b.rest('PUT', `/incidents/${harbour}/units/HLF-1`);
await b.rest('POST', `/incidents/${harbour}/close`);
for (let i = 1; i <= 30; i++) await make({ keyword: `RD 1 Einsatz ${i}` });
const newest = await make({ keyword: 'RD 2 Sturz', location: 'Marktplatz' });
const shown = (page: import('playwright-core').Page) =>
  page.locator('#sheets-history [data-history-sheet]').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.historySheet)));

t.test('the history pages through every sheet, newest first, and says open or closed', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'incidents', viewport: { width: 1280, height: 800 } });
  await page.locator('#history-more').waitFor();
  const first = await shown(page);
  t.equal(first.length, 25, 'a page of 25');
  t.equal(first[0], newest, 'newest first');
  await page.click('#history-more');
  await page.locator('#history-more').waitFor({ state: 'detached' });
  const all = await shown(page);
  t.equal(all.length, 32, 'all 32 after "Mehr laden"');
  t.same(all, [...all].sort((x, y) => y - x), 'no gaps, no repeats, newest first');
  t.match(await page.locator(`#sheets-history [data-history-sheet="${harbour}"]`).textContent(), /B2 Lagerhallenbrand[\s\S]*Abgeschlossen/);
  t.match(await page.locator(`#sheets-history [data-history-sheet="${newest}"]`).textContent(), /Offen/);
});

t.test('search words, a unit and days; a closed sheet opens from the results', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'incidents', viewport: { width: 1280, height: 800 } });
  await page.locator('#history-more').waitFor();
  await page.fill('#history-q', 'hafenstr');
  await page.waitForFunction(() => document.querySelectorAll('#sheets-history [data-history-sheet]').length === 1, null, { timeout: 3000 });
  t.same(await shown(page), [harbour]);
  await page.fill('#history-q', '');
  await page.selectOption('#history-unit', 'HLF-1');
  await page.waitForFunction(() => document.querySelectorAll('#sheets-history [data-history-sheet]').length === 1, null, { timeout: 3000 });
  t.same(await shown(page), [harbour], 'the unit filter');
  await page.selectOption('#history-unit', '');
  await page.fill('#history-from', '2020-01-01');
  await page.fill('#history-to', '2020-01-31');
  await page.locator('#history-none').getByText('Keine Einsätze gefunden.').waitFor({ timeout: 3000 });
  await page.fill('#history-from', '2020-02-01');
  await page.locator('#history-range').waitFor();
  t.pass('"Von" after "Bis" is said in place, not sent');
  await page.click('#history-reset');
  await page.fill('#history-q', 'lagerhalle');
  await page.locator(`#sheets-history [data-history-sheet="${harbour}"]`).waitFor({ timeout: 3000 });
  await screenshot(page, 'incident-history-desk');
  await page.click(`#sheets-history [data-history-sheet="${harbour}"]`);
  await page.locator(`#sheet article[data-number="${harbour}"] #sheet-readonly`).waitFor();
  t.pass('the closed sheet opens read-only');
});

t.test('at phone width', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'incidents', viewport: { width: 390, height: 844 } });
  await page.locator('#history-more').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  t.equal(overflow, 0, 'no sideways scrolling');
  await page.locator('#history-q').scrollIntoViewIfNeeded();
  await screenshot(page, 'incident-history-phone');
});
