import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot, screenshotDir } from '../helpers/browser.ts';

// The board's frame on a 390 px phone: the header shows the whole guild name, the 12-tab strip
// keeps the open tab in view (after a click, the arrow keys, a reload on #setup), tabs are big
// enough to hit with a thumb, and no tab label moves when another one turns bold.
const b = await demoBoard(t);
const phone = { width: 390, height: 844 };

/** How far the element's box reaches outside the tab strip's visible box, in px (0: fully visible). */
const outsideStrip = (page: Page, id: string) => page.evaluate((id) => {
  const strip = document.querySelector('nav.tabs [role=tablist]') ?? document.querySelector('nav.tabs')!;
  const s = strip.getBoundingClientRect();
  const r = document.getElementById(id)!.getBoundingClientRect();
  return Math.max(0, s.left - r.left) + Math.max(0, r.right - s.right);
}, id);

/** Waits until the tab is fully in view (the strip scrolls smoothly). */
async function inView(page: Page, id: string): Promise<number> {
  for (const end = Date.now() + 2000; Date.now() < end; await page.waitForTimeout(50)) if ((await outsideStrip(page, id)) < 1) return 0;
  return outsideStrip(page, id);
}

t.test('the header shows the whole guild name on a 390 px phone, in both languages, for every rank', async (t) => {
  for (const lang of ['en', 'de'] as const) {
    for (const [who, userId] of [['admin', demo.admin], ['dispatcher', demo.dispatcher], ['trainee', demo.trainee]] as const) {
      const page = await b.openFor(t, userId, { viewport: phone, lang });
      const name = await page.locator('#guild-name').evaluate((h) => ({ text: h.textContent, shown: h.clientWidth, needs: h.scrollWidth }));
      t.equal(name.text, 'Demo Rettungsdienst');
      t.ok(name.needs <= name.shown && name.shown >= 150, `${who} (${lang}): the name is not cut (needs ${name.needs} px, has ${name.shown} px)`);
      for (const id of ['connection', 'theme', 'lang', 'logout']) {
        const box = (await page.locator(`#${id}`).boundingBox())!;
        t.ok(box.x >= 0 && box.x + box.width <= phone.width, `${who} (${lang}): #${id} is on the screen`);
      }
      t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${who} (${lang}): no sideways scrolling`);
      const header = (await page.locator('header.top').boundingBox())!;
      t.ok(header.height <= 110, `${who} (${lang}): the header stays compact (${header.height} px)`);
      if (who === 'dispatcher') await page.locator('header.top').screenshot({ path: `${screenshotDir}/phone-header-${lang}.png` });
      await page.context().close();
    }
  }
});

t.test('the 12-tab strip keeps the open tab in view on a phone', async (t) => {
  const page = await b.openFor(t, demo.admin, { viewport: phone });
  const ids = await page.locator('nav.tabs [role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.id));
  t.equal(ids.length, 12, 'the admin sees every tab, Karte included');
  const last = ids.length - 1;
  for (const id of [ids[8], ids[last], ids[1], ids[last - 4]]) {
    await page.locator(`#${id}`).click();
    t.equal(await inView(page, id), 0, `${id}: fully in view after a click`);
  }
  await page.locator(`#${ids[last - 4]}`).focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  t.equal(await inView(page, ids[last]), 0, 'the arrow keys bring the open tab into view');
  await screenshot(page, 'phone-tabs-end');

  await page.goto(`${page.url().split('#')[0]}#setup`);
  await page.reload();
  await page.locator('#connection.conn-live').waitFor();
  t.equal(await page.locator('#tab-setup').getAttribute('aria-selected'), 'true');
  t.equal(await inView(page, 'tab-setup'), 0, 'a reload on #setup shows the Setup tab');
  await page.locator('nav.tabs').screenshot({ path: `${screenshotDir}/phone-tabs-reload.png` });

  const heights = await page.locator('nav.tabs [role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.getBoundingClientRect().height));
  t.ok(Math.min(...heights) >= 40, `tabs are at least 40 px high (${Math.min(...heights)} px)`);
});

t.test('no tab label moves when another turns bold', async (t) => {
  const page = await b.openFor(t, demo.admin, { viewport: { width: 1600, height: 800 } });
  const widths = () => page.locator('nav.tabs [role=tab]').evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().width * 10) / 10));
  const first = await widths();
  for (const id of ['units', 'calls', 'documents', 'setup']) {
    await page.locator(`#tab-${id}`).click();
    t.same(await widths(), first, `${id} active: every tab keeps its width`);
  }
});
