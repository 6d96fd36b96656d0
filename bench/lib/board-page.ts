import { build } from 'esbuild';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { NaiveView, Probe } from '../board/probe.ts';
import { cpuWindow } from './board-cpu.ts';
import type { Measured } from './board-report.ts';
import { launchBrowser } from '../../test/helpers/browser.ts';
import { ensureDebianPackages } from '../../test/helpers/debian.ts';

const file = (rel: string) => new URL(rel, import.meta.url).pathname;
export const DESK = { width: 1400, height: 900 };

/** The probe (an init script) and the naive reference view, bundled for the page. */
export async function pageScripts(): Promise<{ probe: string; naive: string }> {
  const bundle = async (entry: string) => {
    const out = await build({
      entryPoints: [file(entry)], bundle: true, write: false, format: 'iife', target: 'es2020', platform: 'browser',
      minify: true, jsx: 'automatic', jsxImportSource: 'preact', logLevel: 'silent',
    });
    return out.outputFiles[0].text;
  };
  return { probe: await bundle('../board/probe.ts'), naive: await bundle('../board/naive.tsx') };
}

/** Debian's Chromium (installed when missing), launched as the board's browser tests do. */
export async function openBrowser(closers: (() => unknown)[]): Promise<Browser> {
  ensureDebianPackages([['chromium', 'chromium']]);
  return launchBrowser({ teardown: (fn) => closers.push(fn) });
}

/** A desk-sized context with the probe in every page; `cookies` carry a signed-in session. */
export async function boardContext(browser: Browser, probe: string, cookies: Awaited<ReturnType<BrowserContext['cookies']>> = []): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESK });
  await context.addInitScript({ content: probe });
  if (cookies.length) await context.addCookies(cookies);
  return context;
}

/** What a tab shows when it is drawn: the last names of its list (no name is a prefix of another). */
export interface TabSpec { id: 'units' | 'calls'; names: string[] }

/**
 * Opens `tab` and waits until its panel shows every name; false when it does not within
 * `timeoutMs` (a tab still a placeholder, or missing): the bench then leaves the tab out.
 */
export async function showTab(page: Page, tab: TabSpec, timeoutMs = 15_000): Promise<boolean> {
  const button = page.locator(`#tab-${tab.id}`);
  if (!(await button.count())) return false;
  await button.click();
  try {
    await page.waitForFunction((n) => (window as unknown as ProbeWindow).benchProbe.readyAt(n), tab.names, { timeout: timeoutMs, polling: 100 });
    return true;
  } catch {
    return false;
  }
}

type ProbeWindow = { benchProbe: Probe; benchNaive: { mount(view: string, statuses: unknown): NaiveView }; dtBoard: { counters: { snapshots: number; deltas: number } } };

/** The deltas the board's WebSocket carried so far (counted by the probe). */
export function deltaFrames(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as ProbeWindow).benchProbe.deltaFrames);
}

/** Waits until the page has seen `count` delta frames; the number it saw when it gave up or got there. */
export async function untilFrames(page: Page, count: number, timeoutMs = 15_000): Promise<number> {
  try {
    await page.waitForFunction((n) => (window as unknown as ProbeWindow).benchProbe.deltaFrames >= n, count, { timeout: timeoutMs, polling: 50 });
  } catch {
    // reported by the caller from the count
  }
  return deltaFrames(page);
}

/**
 * Measures the deltas `drive` makes: starts the probe, runs `drive`, waits until the page saw as
 * many delta frames as writes succeeded, plus a few frames for the last paint, and returns the records.
 */
export async function measureDeltas(page: Page, cdp: CDPSession, drive: () => Promise<{ writes: number }>): Promise<Measured> {
  const before = await deltaFrames(page);
  await page.evaluate(() => (window as unknown as ProbeWindow).benchProbe.start());
  const cpu = cpuWindow();
  const main = await mainThread(cdp);
  const { writes } = await drive();
  const frames = (await untilFrames(page, before + writes)) - before;
  const [busy, thread] = [cpu(), await main()];
  await page.waitForFunction((n) => (window as unknown as ProbeWindow).benchProbe.records.length >= n, frames, { timeout: 5_000, polling: 50 }).catch(() => {});
  const records = await page.evaluate(() => (window as unknown as ProbeWindow).benchProbe.stop());
  return { records, writes, frames, cpu: busy, main: thread };
}

export interface MainThread { wallMs: number; taskMs: number; scriptMs: number; styleMs: number; layoutMs: number }

/**
 * Starts a window on the page's main thread (the CDP Performance domain's cumulative durations);
 * the function it returns gives what the main thread did meanwhile.
 */
export async function mainThread(cdp: CDPSession): Promise<() => Promise<MainThread>> {
  await cdp.send('Performance.enable');
  const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value * 1000]));
  const start = await read();
  const t0 = performance.now();
  return async () => {
    const end = await read();
    const d = (name: string) => end[name] - start[name];
    return { wallMs: performance.now() - t0, taskMs: d('TaskDuration'), scriptMs: d('ScriptDuration'), styleMs: d('RecalcStyleDuration'), layoutMs: d('LayoutDuration') };
  };
}

/** Mounts the naive reference of `view` below the board (the probe renders it on every delta); returns its unmount. */
export async function mountNaive(page: Page, naive: string, view: 'units' | 'calls', statuses: unknown): Promise<() => Promise<void>> {
  await page.addScriptTag({ content: naive });
  await page.evaluate(([v, s]) => {
    const w = window as unknown as ProbeWindow;
    w.benchProbe.naive = w.benchNaive.mount(v as string, s);
  }, [view, statuses] as const);
  return () => page.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    w.benchProbe.naive?.unmount();
    w.benchProbe.naive = null;
  });
}

/**
 * The floor of `delta -> next paint` on this box: a page of one line changes its text `count`
 * times at about `rate`/s (a timer instead of a WebSocket frame) and times each change to the end
 * of the next frame's rendering, as the probe does. What Chromium's frame clock and the box cost.
 */
export async function paintFloor(browser: Browser, rate: number, count: number): Promise<number[]> {
  const page = await browser.newPage({ viewport: DESK });
  try {
    await page.setContent('<p id="line">–</p>');
    // A string, not a function: nothing of the bench's own transpiling reaches the page.
    return await page.evaluate(`new Promise((resolve) => {
      const took = [];
      const channel = new MessageChannel();
      const queue = [];
      let started = 0;
      channel.port1.onmessage = () => {
        took.push(performance.now() - queue.shift());
        if (took.length === ${count}) resolve(took);
      };
      function change() {
        const start = performance.now();
        started++;
        document.getElementById('line').textContent = String(start);
        void document.body.offsetHeight;
        requestAnimationFrame(() => { queue.push(start); channel.port2.postMessage(null); });
        if (started < ${count}) setTimeout(change, ${1000 / rate} * (0.5 + Math.random()));
      }
      change();
    })`) as number[];
  } finally {
    await page.close();
  }
}

/** The page's live JS heap after full garbage collections (two, a pause for pending work, one more), bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

export interface LoadTiming {
  /** Navigation start to the board live with the tab's list drawn (ms, the page's clock). */
  interactive: number;
  firstContentfulPaint: number | null;
  /** Bytes on the wire (gzip) of the board's script and style, from Resource Timing. */
  jsBytes: number; cssBytes: number; jsRawBytes: number; cssRawBytes: number;
  gzip: boolean;
}

/**
 * One first visit: a fresh context (no cache) with the session's cookie opens `/dispatch#<tab>`;
 * interactive when the connection shows live and the tab's list is drawn, checked every frame.
 */
export async function loadOnce(browser: Browser, base: string, probe: string, cookies: Awaited<ReturnType<BrowserContext['cookies']>>, tab: TabSpec | null, opened = () => {}): Promise<LoadTiming> {
  const context = await boardContext(browser, probe, cookies);
  try {
    const page = await context.newPage();
    opened();
    await page.goto(`${base}/dispatch${tab ? `#${tab.id}` : ''}`);
    const interactive = await (await page.waitForFunction((n) => (window as unknown as ProbeWindow).benchProbe.readyAt(n), tab?.names ?? [], { polling: 'raf', timeout: 30_000 })).jsonValue() as number;
    return { interactive, ...(await page.evaluate(() => (window as unknown as ProbeWindow).benchProbe.loaded())) };
  } finally {
    await context.close();
  }
}
