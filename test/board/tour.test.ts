import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// A walk through every tab of the demo guild as its admin, on a desk and on a phone, the way a new
// user clicks through: each renders content, nothing logs an error, nothing scrolls sideways on
// the phone, every control has a name a screen reader can read. Screenshots of each tab are kept.
const b = await demoBoard(t);
// Some life on the board: a call from the game, a unit in alarm, someone on duty.
await b.rest('POST', '/admin/clock-in', { badge: 2 });
await b.rest('POST', '/integrations/ingame/calls', { externalId: 'tour-1', kind: 'notruf', title: 'Verkehrsunfall B51', message: 'Zwei PKW, eine Person eingeklemmt', priority: 1, location: { street: 'Hauptstraße 12', postal: '1010' } });
await b.rest('PUT', '/units/RTW-2/status', { status: '3' });

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  return errors;
}

async function tour(t: Test, page: Page, device: 'desk' | 'phone') {
  const errors = watchErrors(page);
  const ids = await page.locator('nav.tabs [role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.id.slice('tab-'.length)));
  t.same(ids, ['overview', 'units', 'dispatch', 'calls', 'map', 'clock', 'incidents', 'stats', 'documents', 'medic', 'settings', 'setup'], 'the admin sees every tab');
  for (const id of ids) {
    await page.locator(`#tab-${id}`).click();
    t.equal(await page.locator(`#tab-${id}`).getAttribute('aria-selected'), 'true', `${id}: selected`);
    // Lazy tabs (Karte, Statistik …) show "Lädt …" until their code arrives, which on a loaded
    // box can take longer than a moment: wait for the tab's own content, then judge it.
    await page.waitForFunction(() => {
      const shown = document.querySelector<HTMLElement>('#panel')?.innerText.trim() ?? '';
      return shown.length > 20 && !shown.startsWith('Lädt');
    }, null, { timeout: 15_000 }).catch(() => undefined);
    await page.waitForTimeout(150);
    const text = (await page.locator('#panel').innerText()).trim();
    t.ok(text.length > 20, `${id}: renders content (${text.length} characters)`);
    if (device === 'phone') {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      t.ok(width <= 390, `${id}: fits the phone (${width} px)`);
    }
    const unnamed = await page.locator('#panel button, #panel input, #panel select, #panel textarea').evaluateAll((els) =>
      els.filter((el) => {
        const e = el as HTMLInputElement;
        if (e.type === 'hidden') return false;
        const named = e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || e.title || (e.labels && e.labels.length) || (e.tagName === 'BUTTON' && e.textContent!.trim());
        return !named;
      }).map((el) => el.outerHTML.slice(0, 80)));
    t.same(unnamed, [], `${id}: every control has an accessible name`);
    await screenshot(page, `tour-${id}-${device}`);
  }
  t.same(errors, [], 'no errors in the console');
}

t.test('desk, 1400×900', async (t) => {
  const page = await b.open(demo.admin);
  await tour(t, page, 'desk');
  await page.close();
});

t.test('phone, 390×844', async (t) => {
  const page = await b.open(demo.admin, { viewport: { width: 390, height: 844 } });
  await tour(t, page, 'phone');
  await page.close();
});

t.test('loading the board asks for nothing that is not there and logs no error', async (t) => {
  const context = await b.browser.newContext();
  t.teardown(() => context.close());
  const problems: string[] = [];
  context.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
  context.on('response', (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
  const page = await b.open(demo.admin, { context });
  await page.waitForTimeout(500);
  t.same(problems, [], 'no failed request and no console error');
  // Chromium asks for /favicon.ico outside the page's requests (a 404 in the console of a desktop
  // browser): the page names its icon inline.
  t.match(await page.locator('link[rel=icon]').getAttribute('href'), /^data:image\/svg\+xml,/, 'the icon is inline, nothing to fetch');
});

t.test('keyboard: the tabs are reachable and switch with the arrow keys', async (t) => {
  const page = await b.open(demo.admin);
  await page.locator('#tab-overview').focus();
  await page.keyboard.press('ArrowRight');
  t.equal(await page.evaluate(() => document.activeElement?.id), 'tab-units', 'focus moves to the next tab');
  t.equal(await page.locator('#tab-units').getAttribute('aria-selected'), 'true', 'and opens it');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  t.equal(await page.evaluate(() => document.activeElement?.id), 'tab-setup', 'wraps around');
  await page.close();
});
