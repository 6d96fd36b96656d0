import t, { type Test } from 'tap';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { capabilities } from '../../contract/capabilities.ts';
import { seedDemoHistory } from '../../server/seed/demo.ts';
import { demo, demoBoard } from '../helpers/board.ts';

// Accessibility of the whole board in real Chromium: axe-core on every tab (and the station kiosk
// /dispatch/alarm) at desk and phone width, in dark and light colours, finds nothing serious or
// critical; and no person — admin, dispatcher, a crew member with only timeclock.own.use — ever
// reads a raw capability name ("dispatch.view") anywhere on the board.
const b = await demoBoard(t);
// Data on every tab: shifts and a patient file, someone on duty, a call, a unit in alarm, a sheet, a dispatcher seat.
await seedDemoHistory(b.server.deps.db);
for (const badge of [1, 2, 5]) await b.rest('POST', '/admin/clock-in', { badge });
await b.rest('POST', '/integrations/ingame/calls', { externalId: 'a11y-1', kind: 'notruf', title: 'Verkehrsunfall B51', message: 'Zwei PKW, eine Person eingeklemmt', priority: 1, location: { street: 'Hauptstraße 12', postal: '1010' } });
await b.rest('POST', '/integrations/ingame/calls', { externalId: 'a11y-2', kind: 'panik', title: 'Panikknopf Streife', priority: 1 });
await b.rest('POST', '/incidents', { keyword: 'RD1 Sturz', priority: 2, location: { street: 'Alta Street 12', postal: '7001' } });
await b.rest('PUT', '/units/RTW-2/status', { status: '3' });
await b.rest('PUT', '/units/NEF-1/status', { status: '0' });

const axeScript = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));
const desk = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

interface Finding { id: string; impact: string; help: string; nodes: string[] }

/** axe-core on the page as it stands: the serious and critical findings, each with the first elements it names. */
async function seriousFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}`) }));
}

/** Every capability name the page shows: its text, and the names, titles and placeholders of its elements. */
async function capabilityNames(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]'))) {
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) parts.push(el.getAttribute(a) ?? '');
    }
    return parts.join('\n');
  });
  const found = text.match(/\b[a-z]+(\.[a-z]+)+\b/g) ?? [];
  return [...new Set(found.filter((w) => (capabilities as readonly string[]).includes(w)))];
}

const tabIds = (page: Page) => page.locator('nav.tabs [role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.id.slice('tab-'.length)));

/** Opens each tab in turn and hands it to `check` once it has rendered. */
async function eachTab(page: Page, check: (id: string) => Promise<void>): Promise<string[]> {
  const ids = await tabIds(page);
  for (const id of ids) {
    await page.locator(`#tab-${id}`).click();
    await page.locator(`#tab-${id}[aria-selected=true]`).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(200);
    await check(id);
  }
  return ids;
}

async function axeEveryTab(t: Test, viewport: { width: number; height: number }, colorScheme: 'dark' | 'light') {
  const context = await b.browser.newContext({ viewport, colorScheme });
  t.teardown(() => context.close());
  const page = await b.open(demo.admin, { context });
  const ids = await eachTab(page, async (id) => {
    t.same(await seriousFindings(page), [], `${id}: no serious or critical axe finding`);
  });
  t.equal(ids.length, 12, 'the admin saw all 12 tabs');
}

t.test('axe: every tab at desk width, light and dark', async (t) => {
  await t.test('light', (t) => axeEveryTab(t, desk, 'light'));
  await t.test('dark', (t) => axeEveryTab(t, desk, 'dark'));
});

t.test('axe: every tab on a phone, dark and light', async (t) => {
  await t.test('dark', (t) => axeEveryTab(t, phone, 'dark'));
  await t.test('light', (t) => axeEveryTab(t, phone, 'light'));
});

t.test('axe: the station kiosk /dispatch/alarm (NEF-1 in alarm), desk and phone', async (t) => {
  for (const viewport of [desk, phone]) {
    const context = await b.browser.newContext({ viewport, colorScheme: 'dark' });
    t.teardown(() => context.close());
    const board = await b.open(demo.dispatcher, { context });
    const page = await context.newPage();
    await page.goto(`${b.server.url}/dispatch/alarm`);
    await board.close();
    await page.locator('#kiosk-connection.conn-live').waitFor();
    await page.waitForTimeout(200);
    t.same(await seriousFindings(page), [], `kiosk ${viewport.width} px: no serious or critical axe finding`);
    t.same(await capabilityNames(page), [], `kiosk ${viewport.width} px: no capability name`);
  }
});

t.test('no raw capability name on any tab, for an admin, a dispatcher and a crew member with only timeclock.own.use', async (t) => {
  for (const [who, userId] of [['admin', demo.admin], ['dispatcher', demo.dispatcher], ['trainee', demo.trainee]] as const) {
    for (const lang of ['de', 'en'] as const) {
      const context = await b.browser.newContext({ viewport: desk });
      t.teardown(() => context.close());
      const page = await b.open(userId, { context, lang });
      await eachTab(page, async (id) => {
        t.same(await capabilityNames(page), [], `${who} (${lang}), ${id}: no capability name`);
      });
      await context.close();
    }
  }
});
