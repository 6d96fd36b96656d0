import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAGE_CLOCK } from './alarm-clock.ts';

/**
 * The pages of `bench alarm` and the probe that times them from inside. The probe (an init
 * script, plain JavaScript: nothing of the bench's transpiling reaches the page) watches the DOM
 * with a MutationObserver; once armed with conditions, the first mutation after which every
 * condition holds is the arrival (`dom`), and the start of the next animation frame after it
 * (`frame`) is when it goes to the screen. Nothing in the product changes.
 */
const PROBE = `(() => {
  const now = () => ${PAGE_CLOCK};
  const probe = { want: null, dom: null, frame: null };
  const holds = ([selector, text]) => {
    for (const el of document.querySelectorAll(selector)) if (!text || (el.textContent || '').includes(text)) return true;
    return false;
  };
  const check = () => {
    if (!probe.want || probe.dom !== null || !probe.want.every(holds)) return;
    probe.dom = now();
    requestAnimationFrame(() => { probe.frame = now(); });
  };
  probe.arm = (want) => { probe.want = want; probe.dom = null; probe.frame = null; check(); };
  window.__alarmProbe = probe;
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
})();`;

/** What a page must show, each `[selector, text]`: an element matching the selector whose text contains the text ('' for any). */
export type Want = [selector: string, text: string][];
export interface Arrival { dom: number; frame: number | null }

type ProbeWindow = { __alarmProbe: { arm(want: Want): void; dom: number | null; frame: number | null } };

export function arm(page: Page, want: Want): Promise<void> {
  return page.evaluate((w) => (window as unknown as ProbeWindow).__alarmProbe.arm(w), want);
}

/** The arrival the probe recorded since it was armed, or null. */
export function arrival(page: Page): Promise<Arrival | null> {
  return page.evaluate(() => {
    const p = (window as unknown as ProbeWindow).__alarmProbe;
    return p.dom === null ? null : { dom: p.dom, frame: p.frame };
  });
}

export const DESK = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

async function probedContext(browser: Browser, viewport: { width: number; height: number }, colorScheme?: 'dark'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, colorScheme });
  await context.addInitScript({ content: PROBE });
  return context;
}

/** Opens a one-time login link (`link`) as the person it was made for would; resolves with the board live. */
async function signedIn(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(link);
  await page.locator('#connection.conn-live').waitFor({ timeout: 30_000 });
  return page;
}

/** The dispatcher's desk on the Einsätze tab. */
export async function openDesk(browser: Browser, link: string): Promise<Page> {
  const page = await signedIn(await probedContext(browser, DESK), link);
  await page.locator('#tab-incidents').click();
  await page.locator('#sheets-open').waitFor({ state: 'attached', timeout: 15_000 });
  return page;
}

/** Opens sheet `n` on the desk (from the list of open sheets). */
export async function openSheet(desk: Page, n: number): Promise<void> {
  await desk.locator(`#sheets-open [data-sheet="${n}"]`).click({ timeout: 10_000 });
  await desk.locator(`#sheet article[data-number="${n}"]`).waitFor({ timeout: 10_000 });
}

/** The crew's phone: the person chooses `callsign` under Mein Fahrzeug (the click also allows sound), as in test/evening. */
export async function openPhone(browser: Browser, link: string, callsign: string): Promise<Page> {
  const page = await signedIn(await probedContext(browser, PHONE), link);
  await page.locator('#tab-units').click();
  await page.locator(`#own-unit .own-pick[data-callsign="${callsign}"]`).click({ timeout: 15_000 });
  await page.locator('#own-current').getByText(callsign).waitFor({ timeout: 10_000 });
  await page.locator('#alarm-strip').getByText(/Alarm bereit/).waitFor({ timeout: 10_000 });
  if (await page.locator('#alarm-unlock').isVisible()) await page.click('#alarm-unlock');
  return page;
}

/** The station monitor (/dispatch/alarm), signed in as the person of `link`, quiet. */
export async function openMonitor(browser: Browser, base: string, link: string): Promise<Page> {
  const context = await probedContext(browser, DESK, 'dark');
  const board = await signedIn(context, link);
  const page = await context.newPage();
  await page.goto(`${base}/dispatch/alarm`);
  await board.close();
  await page.locator('#kiosk-connection.conn-live').waitFor({ timeout: 30_000 });
  await page.locator('#kiosk-quiet').waitFor({ timeout: 10_000 });
  return page;
}

/** The floor's page (bench/targets/alarm-floor.ts), its WebSocket open. */
export async function openFloor(browser: Browser, floorBase: string): Promise<Page> {
  const page = await (await probedContext(browser, DESK)).newPage();
  await page.goto(floorBase);
  await page.locator('body[data-live="1"]').waitFor({ timeout: 10_000 });
  return page;
}
