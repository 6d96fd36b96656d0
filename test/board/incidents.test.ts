import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// Einsätze in a real browser against the real server: two people (the guild's admin and its
// dispatcher) run the same sheet on two open boards; every change one makes (or a REST client makes) shows on the other without reload, and a
// stale edit is refused with "Zwischenzeitlich geändert" instead of overwriting the other's save.
const b = await demoBoard(t);
const create = async (body: Record<string, unknown>) => {
  const res = await b.rest('POST', '/incidents', body);
  if (res.status !== 200) throw new Error(`create ${res.status}: ${res.text}`);
  return res.body as { number: number; version: number };
};
const fire = await create({ keyword: 'B2 Wohnungsbrand', priority: 1, location: { text: 'Mehrfamilienhaus', street: 'Alta Street 12', postal: '7001', x: -250, y: 1020.5 } });
const fall = await create({ keyword: 'RD1 Sturz', priority: 3, location: 'Legion Square' });

const sheetText = async (page: Page) => (await page.locator('#sheet').textContent()) ?? '';
const listed = (page: Page) => page.locator('#sheets-open [data-sheet]').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.sheet)));
/** Waits until the input shows `value` (a live change: within LIVE_MS). */
const valueIs = (page: Page, selector: string, value: string) =>
  page.waitForFunction(([s, v]) => (document.querySelector(s) as HTMLInputElement | null)?.value === v, [selector, value] as const, { timeout: LIVE_MS });
const openOn = async (page: Page, n: number) => {
  await page.click(`[data-sheet="${n}"]`);
  await page.locator(`#sheet article[data-number="${n}"] #timeline`).waitFor();
};

const a = await b.open(demo.admin, { tab: 'incidents' });
const other = await b.open(demo.dispatcher, { tab: 'incidents' });

t.test('the list shows open sheets, most urgent first; a sheet opens with fields, units and timeline', async (t) => {
  await a.locator(`[data-sheet="${fall.number}"]`).waitFor();
  t.same(await listed(a), [fire.number, fall.number], 'priority 1 before priority 3');
  t.match(await a.locator(`[data-sheet="${fire.number}"]`).textContent(), /B2 Wohnungsbrand[\s\S]*Mehrfamilienhaus · Alta Street 12, 7001[\s\S]*P1/);
  await openOn(a, fire.number);
  t.equal(await a.locator('#sheet-keyword').inputValue(), 'B2 Wohnungsbrand');
  t.equal(await a.locator('#sheet-priority').inputValue(), '1');
  t.equal(await a.locator('#sheet-loc-text').inputValue(), 'Mehrfamilienhaus');
  t.equal(await a.locator('#sheet-street').inputValue(), 'Alta Street 12');
  t.equal(await a.locator('#sheet-x').inputValue(), '-250');
  t.equal(await a.locator('#sheet-y').inputValue(), '1020.5');
  t.match(await a.locator('#timeline').textContent(), /Angelegt[\s\S]*Einsatzblatt angelegt/);
  t.equal(await a.locator('#sheet-save').isDisabled(), true, 'nothing to save before an edit');
  await openOn(other, fire.number);
});

t.test('a stale edit shows the conflict in place and reloads the other person\'s values', async (t) => {
  await a.fill('#sheet-keyword', 'B3 Wohnungsbrand, Menschenleben in Gefahr');
  await a.selectOption('#sheet-priority', '2');
  const theirs = await b.rest('PATCH', `/incidents/${fire.number}`, { version: 1, keyword: 'B2 Küchenbrand' });
  t.equal(theirs.status, 200, 'someone else saved version 1 first');
  await a.locator('#sheet-stale').waitFor({ timeout: LIVE_MS });
  t.equal(await a.locator('#sheet-keyword').inputValue(), 'B3 Wohnungsbrand, Menschenleben in Gefahr', 'the typed value is kept while the sheet changes underneath');
  await a.click('#sheet-save');
  const conflict = a.locator('#sheet-conflict');
  await conflict.getByText(/^Zwischenzeitlich geändert/).waitFor();
  t.match(await conflict.textContent(), /demo hat dieses Einsatzblatt um \d\d:\d\d gespeichert/, 'names who saved (the API key "demo")');
  t.match(await conflict.textContent(), /Deine Eingabe war: Stichwort „B3 Wohnungsbrand, Menschenleben in Gefahr“ · Priorität 2 \(Normal\)/, 'what was typed is shown, to enter again');
  t.equal(await a.locator('#sheet-keyword').inputValue(), 'B2 Küchenbrand', 'the sheet shows the other person\'s save');
  t.equal(await a.locator('#sheet-priority').inputValue(), '1');
  t.equal(await a.locator('#sheet article').getAttribute('data-version'), '2');
  const stored = await b.rest('GET', `/incidents/${fire.number}`);
  t.equal(stored.body.keyword, 'B2 Küchenbrand', 'nothing was overwritten');
  t.equal(stored.body.priority, 1);
  await screenshot(a, 'incident-conflict');

  await a.fill('#sheet-keyword', 'B3 Küchenbrand');
  await a.fill('#sheet-postal', '7002');
  await a.click('#sheet-save');
  await a.locator('#sheet-result').getByText('Gespeichert.').waitFor();
  await valueIs(other, '#sheet-keyword', 'B3 Küchenbrand');
  t.pass('the other board shows the save live');
  t.equal(await other.locator('#sheet-postal').inputValue(), '7002');
  t.match(await other.locator(`[data-sheet="${fire.number}"]`).textContent(), /B3 Küchenbrand/, 'and its list');
  t.equal((await b.rest('GET', `/incidents/${fire.number}`)).body.location.postal, '7002');
});

t.test('units assigned and released, and entries, show on the other board live', async (t) => {
  await a.selectOption('#assign-unit', 'RTW-1');
  await a.click('#assign');
  await other.locator('#sheet-units [data-unit="RTW-1"]').waitFor({ timeout: LIVE_MS });
  t.match(await other.locator(`[data-sheet="${fire.number}"]`).textContent(), /RTW-1/, 'the list row names the unit');
  t.match(await other.locator('#sheet-units [data-unit="RTW-1"] .unit-status').textContent(), '2', 'with its status');
  await a.selectOption('#assign-unit', 'HLF-1');
  await a.click('#assign');
  await other.locator('#sheet-units [data-unit="HLF-1"]').waitFor({ timeout: LIVE_MS });
  t.equal(await a.locator('#assign-unit option[value="RTW-1"]').count(), 0, 'an assigned unit is not offered again');

  t.equal((await b.rest('PUT', '/units/RTW-1/status', { status: '3' })).status, 200);
  await other.locator('#sheet-units [data-unit="RTW-1"] .unit-status').getByText('3').waitFor({ timeout: LIVE_MS });

  await a.click('[data-release="RTW-1"]');
  await other.locator('#sheet-units [data-unit="RTW-1"]').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.match(await other.locator('#timeline').textContent(), /RTW-1 aus dem Einsatz entlassen[\s\S]*RTW-1 zugewiesen/, 'newest first');

  await a.fill('#entry-text', 'Lage: Rauch aus dem 2. OG, zwei Personen am Fenster');
  await a.press('#entry-text', 'Enter');
  await other.locator('#timeline li:first-child').getByText('Lage: Rauch aus dem 2. OG, zwei Personen am Fenster').waitFor({ timeout: LIVE_MS });
  t.equal(await a.locator('#entry-text').inputValue(), '', 'the input is empty for the next entry');
  t.equal(await a.locator('#timeline [data-kind="note"]').count(), 1, 'the entry is shown once (answer and notice)');
  await screenshot(a, 'incidents-desk');
  await a.emulateMedia({ colorScheme: 'dark' });
  await screenshot(a, 'incidents-desk-dark');
  await a.emulateMedia({ colorScheme: 'light' });
});

t.test('a sheet made by hand; closing shows on the other board live', async (t) => {
  await a.click('#new-sheet-open');
  await a.fill('#new-keyword', 'TH1 Person eingeklemmt');
  await a.selectOption('#new-priority', '1');
  await a.fill('#new-location', 'Innocence Blvd / Strawberry Ave');
  await a.click('#new-create');
  await a.locator('#sheet-title').getByText('TH1 Person eingeklemmt').waitFor();
  const made = Number(await a.locator('#sheet article').getAttribute('data-number'));
  await other.locator(`[data-sheet="${made}"]`).waitFor({ timeout: LIVE_MS });
  t.same(await listed(other), [made, fire.number, fall.number], 'the new one is the newest of priority 1');

  await a.click(`[data-sheet="${fall.number}"]`);
  await openOn(other, fall.number);
  await a.click('#sheet-close');
  await a.click('#sheet-close-yes');
  await other.locator('#sheet-state').getByText('Abgeschlossen').waitFor({ timeout: LIVE_MS });
  t.ok(await other.locator('#sheet-readonly').isVisible(), 'read-only on the other board');
  t.equal(await other.locator('#sheet-keyword').isDisabled(), true);
  t.equal(await other.locator('#entry-text').count(), 0, 'no entry input on a closed sheet');
  t.same(await listed(other), [made, fire.number], 'it left the open list');
  await other.locator(`#sheets-history [data-history-sheet="${fall.number}"] .sheet-state.closed`).waitFor({ timeout: LIVE_MS });
  t.pass('the history shows it closed');
  t.match(await other.locator('#timeline li:first-child').textContent(), /Einsatz abgeschlossen/);
});

t.test('without incidents.manage the sheets are read-only', async (t) => {
  const view = await b.rest('PATCH', '/admin/ranks/praktikant', { capabilities: ['timeclock.own.use', 'dispatch.view'] });
  t.equal(view.status, 200);
  const trainee = await b.open(demo.trainee, { tab: 'incidents' });
  t.teardown(() => trainee.context().close());
  await openOn(trainee, fire.number);
  t.equal(await trainee.locator('#new-sheet-open').count(), 0, 'no new sheet');
  t.equal(await trainee.locator('#sheet-save').count(), 0, 'no save');
  t.equal(await trainee.locator('#entry-text').count(), 0, 'no entry input');
  t.equal(await trainee.locator('#assign').count(), 0, 'no assign');
  t.equal(await trainee.locator('#sheet-close').count(), 0, 'no close');
  t.match(await sheetText(trainee), /Einsätze bearbeiten/, 'says who may edit, in words');
});

t.test('on a phone: the list, then the sheet over it with a way back', async (t) => {
  const phone = await b.open(demo.admin, { viewport: { width: 390, height: 844 } });
  t.teardown(() => phone.context().close());
  await phone.locator('#tab-incidents').focus(); // by keyboard: a pointer click on the scrolled tab strip misses under the sticky header
  await phone.keyboard.press('Enter');
  await phone.locator(`[data-sheet="${fire.number}"]`).waitFor();
  t.notOk(await phone.locator('#sheet').isVisible(), 'the list alone');
  await phone.click(`[data-sheet="${fire.number}"]`);
  await phone.locator('#sheet #timeline').waitFor();
  t.notOk(await phone.locator('.sheet-list').isVisible(), 'the sheet alone');
  const { scroll, width } = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  t.ok(scroll <= width, `${scroll} px wide in a ${width} px viewport`);
  await screenshot(phone, 'incidents-phone');
  await phone.click('#sheet-back');
  await phone.locator('.sheet-list').waitFor();
  t.pass('back to the list');
});

t.test('in English', async (t) => {
  await a.click(`[data-sheet="${fire.number}"]`);
  await a.click('#lang');
  await a.locator('#tab-incidents').getByText('Incidents').waitFor();
  t.match(await sheetText(a), /Keyword[\s\S]*Priority[\s\S]*Units[\s\S]*Timeline[\s\S]*Close incident/);
  t.equal(await a.locator('#entry-add').textContent(), 'Add');
  await a.click('#lang');
});
