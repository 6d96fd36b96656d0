import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { DEMO_ADMIN, DEMO_GUILD, seedDemo } from '../../server/seed/demo.ts';
import { launchBrowser } from './browser.ts';
import { call, startTestServer, type ApiResponse, type TestServer } from './server.ts';

/**
 * How long a board test waits for a change made elsewhere to show. The board learns of changes
 * pushed over its socket, so on a quiet box they show within well under a second; this is long
 * enough that a CI box running many browsers on 2 cores never trips it, and short enough that a
 * board that only learned by reloading would fail. How soon is a benchmark's figure, not a test's:
 * `npm run bench -- alarm` (target: every crew device within 1 s of the alarm).
 */
export const LIVE_MS = 5000;

/** The demo guild's people (server/seed/demo.ts) by role. */
export const demo = {
  guildId: DEMO_GUILD,
  /** Wachleitung, guild admin: every capability. */
  admin: DEMO_ADMIN,
  /** Leitstellendisponent: dispatch.view and dispatch.manage, no settings. */
  dispatcher: '200000000000000002',
  /** Praktikant: only timeclock.own.use. */
  trainee: '200000000000000005',
} as const;

export interface BoardOptions {
  /** Desk 1400×900 unless given (a phone: 390×844). */
  viewport?: { width: number; height: number };
  /** The board's language (default German). */
  lang?: 'de' | 'en';
  /** Tab to open (`units`, `calls`, …): the page waits until its tab button is there. */
  tab?: string;
  /** A context of its own (its own cookies), e.g. a second person beside the first. */
  context?: BrowserContext;
}

export interface DemoBoard {
  server: TestServer;
  browser: Browser;
  /** The demo guild's unscoped API key. */
  key: string;
  /** REST with the demo key: `rest('PUT', '/units/RTW-1/status', { status: '3' })`. */
  rest(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** Signs `userId` in through a real one-time login link and returns the board page, live. */
  open(userId: string, opts?: BoardOptions): Promise<Page>;
  /** `open`, with the page's context closed with the subtest `t`, so earlier pages do not keep rendering in the background. */
  openFor(t: { teardown(fn: () => unknown): void }, userId: string, opts?: BoardOptions): Promise<Page>;
}

/** A real server with the demo guild, and Chromium; both closed with the test. */
export async function demoBoard(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}): Promise<DemoBoard> {
  const server = await startTestServer(t, env);
  const seeded = await seedDemo(server.deps.db, server.url);
  if (!seeded) throw new Error('the demo guild already existed');
  const browser = await launchBrowser(t);
  const rest = (method: string, path: string, body?: unknown) => call(server.url, method, path, { key: seeded.apiKey, body });
  async function open(userId: string, opts: BoardOptions = {}): Promise<Page> {
    const context = opts.context ?? await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    if (opts.lang) await context.addInitScript((lang) => localStorage.setItem('dt.lang', lang), opts.lang);
    const page = await context.newPage();
    await page.goto(await createLoginLink(server.sql, server.url, DEMO_GUILD, userId));
    await page.locator('#connection.conn-live').waitFor();
    if (opts.tab) await page.locator(`#tab-${opts.tab}`).click();
    return page;
  }
  async function openFor(t: { teardown(fn: () => unknown): void }, userId: string, opts: BoardOptions = {}): Promise<Page> {
    const page = await open(userId, opts);
    t.teardown(() => page.context().close());
    return page;
  }
  return { server, browser, key: seeded.apiKey, rest, open, openFor };
}
