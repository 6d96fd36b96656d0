import type { BrowserContext, Page } from 'playwright-core';
import { heapAfterGc, showTab, untilFrames, type TabSpec } from './board-page.ts';

/**
 * The board's memory under a long evening: a fresh page on `tab` (live, its list drawn), its JS
 * heap after GC once it has had 1000 deltas and once it has had `total`. `write(n)` makes n deltas
 * and says how many writes succeeded; `opened` runs once the page is live. Afterwards the board
 * must still show what the server holds (checked against `GET /units`) from its one snapshot.
 */
export async function heapRun(context: BrowserContext, base: string, rest: (method: string, path: string) => Promise<unknown>, opened: () => void, tab: TabSpec | null, write: (count: number) => Promise<number>, total: number, notes: string[]) {
  const page: Page = await context.newPage();
  await page.goto(`${base}/dispatch${tab ? `#${tab.id}` : ''}`);
  await page.locator('#connection.conn-live').waitFor({ timeout: 30_000 });
  opened();
  if (tab) await showTab(page, tab);
  const cdp = await context.newCDPSession(page);
  let written = await write(1000);
  const seen1000 = await untilFrames(page, written, 30_000);
  const at1000 = await heapAfterGc(cdp);
  written += await write(total - 1000);
  const frames = await untilFrames(page, written, 60_000);
  const atEnd = await heapAfterGc(cdp);
  if (seen1000 < written - (total - 1000) || frames < written) notes.push(`heap run: ${written} writes, the page saw ${frames} delta frames`);
  const counters = await page.evaluate(() => (window as unknown as { dtBoard: { counters: { snapshots: number; deltas: number } } }).dtBoard.counters);
  if (counters.snapshots !== 1) notes.push(`heap run: the board took ${counters.snapshots} snapshots (a gap or a reconnect made it subscribe again)`);
  // The board must show what the server holds: every unit in the status the server has.
  const shown = await page.evaluate(() => {
    const units = (window as unknown as { dtBoard: { live: { units: { keys: { peek(): string[] }; peek(k: string): { status: string } } } } }).dtBoard.live.units;
    return units.keys.peek().map((k) => [k, units.peek(k).status] as [string, string]);
  });
  const { units } = await rest('GET', '/units') as { units: { callsign: string; status: string }[] };
  const board = new Map(shown);
  const wrong = units.filter((u) => board.get(u.callsign) !== u.status);
  if (wrong.length || board.size !== units.length) notes.push(`heap run: after the deltas the board shows ${board.size} units, the server has ${units.length}; ${wrong.length} in another status than the server's`);
  await page.close();
  return { at1000, atEnd, frames };
}
