import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium (test/run.ts installs it), headless, with nothing that calls out of the machine;
 * `args` adds switches (e.g. `--ignore-certificate-errors-spki-list=…` to trust a test certificate).
 */
export async function launchBrowser(t: { teardown(fn: () => unknown): void }, args: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...args],
  });
  t.teardown(() => browser.close());
  return browser;
}

/** Where browser tests keep their screenshots (git-ignored), to look at after a run. */
export const screenshotDir = fileURLToPath(new URL('../board/screenshots/', import.meta.url));

/** Saves a screenshot of the page as `<name>.png` in `screenshotDir` and returns its bytes. */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(screenshotDir, { recursive: true });
  return page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}
