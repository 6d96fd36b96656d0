import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// The Statistik tab in a real browser against a real server with the demo guild and hand-placed
// shifts in Europe/Berlin (November: UTC+1). The week of Monday 9 Nov 2026:
//   Lena  Mo 18:00–22:30 (4 h 30), Mi 19:00–23:00 (4 h)            = 8 h 30 min, 2 shifts
//   Jonas Di 20:00 – Mi 02:00 (6 h), Sa 10:00–22:15 (12 h 15)       = 18 h 15 min, 2 shifts
//   Mia   So 22:00 – Mo 03:00 (2 h of it in this week, 3 h in the next) = 2 h, 1 shift
//   Paul  Do 17:00–20:45                                           = 3 h 45 min, 1 shift
// The week before: Demo Admin 3 h, Lena 2 h (5 h). Totals 32 h 30 min, 6 shifts, 4 people, +550 %.
const b = await demoBoard(t);
const [lena, jonas, mia, paul] = ['200000000000000002', '200000000000000003', '200000000000000004', demo.trainee];
const shift = (userId: string, from: string, to: string | null) => b.server.sql`
  insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status)
  values (${demo.guildId}, ${userId}, ${from}, ${to}, ${to ? 'CLOSED' : 'OPEN'})`;
await shift(lena, '2026-11-09T17:00:00Z', '2026-11-09T21:30:00Z');
await shift(lena, '2026-11-11T18:00:00Z', '2026-11-11T22:00:00Z');
await shift(jonas, '2026-11-10T19:00:00Z', '2026-11-11T01:00:00Z');
await shift(jonas, '2026-11-14T09:00:00Z', '2026-11-14T21:15:00Z');
await shift(mia, '2026-11-15T21:00:00Z', '2026-11-16T02:00:00Z');
await shift(paul, '2026-11-12T16:00:00Z', '2026-11-12T19:45:00Z');
await shift(demo.admin, '2026-11-02T17:00:00Z', '2026-11-02T20:00:00Z');
await shift(lena, '2026-11-04T17:00:00Z', '2026-11-04T19:00:00Z');
await b.server.sql`update people set org_unit = 'Rettungswache Mitte' where guild_id = ${demo.guildId} and user_id in (${lena}, ${jonas})`;

const admin = await b.open(demo.admin, { tab: 'stats' });
const consoleErrors: string[] = [];
admin.on('pageerror', (err) => consoleErrors.push(err.message));
admin.on('console', (msg) => msg.type() === 'error' && !/status of 400/.test(msg.text()) && consoleErrors.push(msg.text()));
/** Controls without an accessible name (a label, aria-label, title or text), as tour.test.ts checks every tab. */
const unnamed = (page: Page) => page.locator('#panel button, #panel input, #panel select').evaluateAll((els) => els.filter((el) => {
  const e = el as HTMLInputElement;
  return !(e.getAttribute('aria-label') || e.title || (e.labels && e.labels.length) || (e.tagName === 'BUTTON' && e.textContent!.trim()));
}).map((el) => el.outerHTML.slice(0, 80)));
const text = (page: Page, selector: string) => page.locator(selector).innerText();
const rows = (page: Page) => page.$$eval('#leaderboard-table tbody tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.querySelector('.time-text') ?? td).textContent!.trim())));
const imageLoaded = (page: Page, selector: string) => page.waitForFunction((s) => {
  const img = document.querySelector<HTMLImageElement>(s);
  return !!img && img.complete && img.naturalWidth > 0;
}, selector, { timeout: 15_000 });

async function showWeekOf(page: Page, day: string) {
  await page.click('#period-weekly');
  await page.fill('#period-date', day);
}

t.test('the leaderboard of a week: exact figures, the trend, the charts; ‹ › step whole weeks', async (t) => {
  await admin.locator('#leaderboard, #board-empty').first().waitFor();
  await showWeekOf(admin, '2026-11-11');
  await admin.locator('#range-label').getByText('KW 46 · 09.11. – 15.11.2026').waitFor();
  await admin.locator('#total-time .stat-value').getByText('32 h 30 min').waitFor();
  t.equal(await text(admin, '#total-shifts .stat-value'), '6');
  t.equal(await text(admin, '#total-active .stat-value'), '4');
  t.equal(await text(admin, '#total-avg .stat-value'), '8 h 7 min', '32 h 30 min over 4 people, minutes rounded down');
  t.match(await text(admin, '#board-trend'), /▲[\s\S]*\+550 % ggü\. Vorwoche/, 'the change against the week before');
  t.same(await rows(admin), [
    ['1', '03', 'Jonas Krüger', 'Notfallsanitäter', '18 h 15 min', '2'],
    ['2', '02', 'Lena Berger', 'Leitstellendisponent', '8 h 30 min', '2'],
    ['3', '05', 'Paul Wagner', 'Praktikant', '3 h 45 min', '1'],
    ['4', '04', 'Mia Schneider', 'Rettungssanitäter', '2 h', '1'],
  ], 'place, badge, name, rank, duty time, shifts — a shift crossing into the next week counts only its part');
  await imageLoaded(admin, '#chart-bars');
  await imageLoaded(admin, '#chart-trend');
  const src = await admin.locator('#chart-bars').getAttribute('src');
  t.match(src, /^\/api\/v1\/stats\/leaderboard\/chart\/bars\.png\?guild=100000000000000001&period=weekly&date=2026-11-11&limit=25&maxPixels=\d+&theme=(light|dark)&lang=de&v=\d+$/, 'a plain <img> for the open guild and period');
  const px = Number(new URL(src!, b.server.url).searchParams.get('maxPixels'));
  const shown = await admin.locator('#chart-bars').evaluate((img: HTMLImageElement) => ({ w: img.clientWidth, natural: img.naturalWidth }));
  t.ok(px >= 50_000 && px <= 4_000_000 && shown.natural >= shown.w * 0.9 && shown.natural <= shown.w * 1.3, `sized for its box (${shown.natural} px for ${shown.w} px shown, maxPixels ${px})`);
  await admin.click('#chart-pick-share');
  await imageLoaded(admin, '#chart-share');
  t.pass('the share chart loads in its place');
  t.same(await unnamed(admin), [], 'every control of the leaderboard has a name');
  await screenshot(admin, 'stats-leaderboard-light');
  await admin.emulateMedia({ colorScheme: 'dark' });
  await admin.waitForFunction(() => document.querySelector('#chart-share')?.getAttribute('src')?.includes('theme=dark'));
  await imageLoaded(admin, '#chart-share');
  await imageLoaded(admin, '#chart-trend');
  await screenshot(admin, 'stats-leaderboard-dark');
  await admin.emulateMedia({ colorScheme: 'light' });
  await admin.click('#chart-pick-bars');

  await admin.click('#period-next');
  await admin.locator('#range-label').getByText('KW 47 · 16.11. – 22.11.2026').waitFor();
  await admin.locator('#total-time .stat-value').getByText('3 h').waitFor();
  t.same(await rows(admin), [['1', '04', 'Mia Schneider', 'Rettungssanitäter', '3 h', '1']], 'the next week: the rest of Mia\'s shift');
  t.match(await text(admin, '#board-trend'), /▼[\s\S]*−90,8 % ggü\. Vorwoche/);
  await admin.click('#period-next');
  await admin.locator('#range-label').getByText(/^KW 48 · 23\.11\. – 29\.11\.2026$/).waitFor();
  await admin.locator('#board-empty').getByText('Keine Dienstzeiten im Zeitraum.').waitFor();
  t.ok(await admin.locator('#period-next').isDisabled(), 'no stepping past the current week');
  t.ok(await admin.locator('#period-today').isDisabled(), '"Heute" is where we are');
  await admin.click('#period-prev');
  await admin.click('#period-prev');
  await admin.locator('#total-time .stat-value').getByText('32 h 30 min').waitFor();
  await admin.click('#period-today');
  await admin.locator('#board-empty').waitFor();
  t.pass('‹ ‹ back to week 46, Heute back to this week');

  await admin.click('#period-monthly');
  await admin.fill('#period-date', '2026-11-11');
  await admin.locator('#range-label').getByText('November 2026').waitFor();
  await admin.locator('#total-time .stat-value').getByText('40 h 30 min').waitFor();
  t.pass('the month: every shift of November (32 h 30 + 3 h + 5 h)');
  await admin.click('#period-daily');
  await admin.fill('#period-date', '2026-11-14');
  await admin.locator('#range-label').getByText('Sa., 14.11.2026').waitFor();
  await admin.locator('#total-time .stat-value').getByText('12 h 15 min').waitFor();
  await admin.click('#period-prev');
  await admin.locator('#range-label').getByText('Fr., 13.11.2026').waitFor();
  await admin.locator('#board-empty').waitFor();
  t.pass('a day, and the day before');
});

t.test('a custom range: over 366 days the server\'s refusal in place; within, the exact sum; rank and limit filter', async (t) => {
  await admin.click('#period-custom');
  await admin.fill('#period-from', '2025-01-01');
  await admin.fill('#period-to', '2026-11-15');
  await admin.locator('#stats-error').getByText('Ein Zeitraum umfasst höchstens 366 Tage – gewählt sind 684.', { exact: false }).waitFor();
  t.equal(await admin.locator('#leaderboard-table').count(), 0, 'no table for a refused range');
  t.equal(await text(admin, '#range-label'), '01.01.2025 – 15.11.2026 · 684 Tage', 'the bar names what was asked for');
  await screenshot(admin, 'stats-custom-refused');
  await admin.fill('#period-from', '2026-11-09');
  await admin.fill('#period-to', '2026-11-22');
  await admin.locator('#range-label').getByText('09.11. – 22.11.2026 · 14 Tage').waitFor();
  await admin.locator('#total-time .stat-value').getByText('35 h 30 min').waitFor();
  t.equal(await text(admin, '#total-shifts .stat-value'), '6', 'Mia\'s shift counts once');
  await admin.selectOption('#stats-rank', 'leitstelle');
  await admin.locator('#total-time .stat-value').getByText('8 h 30 min').waitFor();
  t.same((await rows(admin)).map((r) => r[2]), ['Lena Berger'], 'only the rank chosen');
  await admin.selectOption('#stats-rank', '');
  await admin.selectOption('#stats-org', 'Rettungswache Mitte');
  await admin.locator('#total-time .stat-value').getByText('26 h 45 min').waitFor();
  t.same((await rows(admin)).map((r) => r[2]), ['Jonas Krüger', 'Lena Berger'], 'only the organisation unit chosen');
  await admin.selectOption('#stats-org', '');
  await admin.selectOption('#stats-limit', '10');
  await admin.locator('#total-time .stat-value').getByText('35 h 30 min').waitFor();
  t.equal((await rows(admin)).length, 4);
  await admin.selectOption('#stats-limit', '25');
});

t.test('a person\'s page: totals, average, longest, weekdays, shifts and both charts', async (t) => {
  await showWeekOf(admin, '2026-11-11');
  await admin.locator('#total-time .stat-value').getByText('32 h 30 min').waitFor();
  await admin.locator('tr[data-user="200000000000000003"] button.person-open').click();
  await admin.locator('#person-name').getByText('Jonas Krüger').waitFor();
  t.equal(await text(admin, '#person-total .stat-value'), '18 h 15 min');
  t.equal(await text(admin, '#person-shifts .stat-value'), '2');
  t.equal(await text(admin, '#person-average .stat-value'), '9 h 7 min');
  t.equal(await text(admin, '#person-longest .stat-value'), '12 h 15 min');
  const weekdays = await admin.$$eval('#person-weekdays li', (lis) => lis.map((li) => li.querySelector('.wd-time')!.textContent));
  t.same(weekdays, ['0 min', '4 h', '2 h', '0 min', '0 min', '12 h 15 min', '0 min'], 'a shift over midnight counts on both days');
  t.equal(await admin.locator('#person-shift-list tbody tr').count(), 2);
  t.match(await text(admin, '#person-shift-list tbody tr:first-child'), /Sa\., 14\.11\., 10:00\s+Sa\., 14\.11\., 22:15\s+12 h 15 min/);
  await imageLoaded(admin, '#chart-user-shifts');
  await imageLoaded(admin, '#chart-user-trend');
  await screenshot(admin, 'stats-person');
  await admin.click('#person-back');
  await admin.locator('#leaderboard-table').waitFor();
  t.pass('back to the list');
});

t.test('coverage: the staffing minimum set in place, the 7×24 grid, understaffed hours and runs', async (t) => {
  await admin.click('#stats-coverage');
  await admin.locator('#heatmap').waitFor();
  await admin.locator('#no-minimum').waitFor();
  t.equal(await admin.locator('#heatmap td.cell').count(), 168, 'Mo–So × 0–23');
  await admin.fill('#staffing-min', '1');
  await admin.click('#staffing-save');
  await admin.locator('#staffing-result').getByText('Mindestbesetzung 1 gespeichert.').waitFor();
  await admin.locator('#understaffed-runs').waitFor();
  t.match((await b.rest('GET', '/stats/staffing')).body, { minOnDuty: 1 }, 'stored on the server');
  t.equal(await text(admin, '#cov-runs .stat-value'), '6', 'six gaps between the week\'s shifts');
  t.equal(await text(admin, '#cov-under-hours .stat-value'), '137', '168 hours, 31 of them fully staffed');
  const cell = (wd: number, hr: number) => admin.locator(`#heatmap td[data-weekday="${wd}"][data-hour="${hr}"]`);
  t.match(await cell(1, 18).getAttribute('class'), /^cell(?!.*under)/, 'Monday 18–19: Lena on duty all hour');
  t.match(await cell(1, 22).getAttribute('class'), /under/, 'Monday 22–23: nobody after 22:30');
  t.match(await cell(1, 17).getAttribute('class'), /under/);
  t.equal(await cell(6, 15).innerText(), '1,0', 'Saturday 15–16: one on duty on average');
  t.match(await cell(6, 15).getAttribute('aria-label') ?? '', /Samstag, 15–16 Uhr: im Schnitt 1,0 im Dienst/);
  t.match(await text(admin, '#understaffed-runs li:first-child'), /^Sa\., 14\.11\., 22:00 – So\., 15\.11\., 22:00/, 'the newest run first');
  t.same(await unnamed(admin), [], 'every control of the coverage has a name');
  await screenshot(admin, 'stats-heatmap');
});

t.test('incident figures of the period', async (t) => {
  for (const [id, kind] of [['e1', 'notruf'], ['e2', 'panik'], ['e3', 'hinweis']]) {
    t.equal((await b.rest('POST', '/integrations/ingame/calls', { externalId: id, title: `Meldung ${id}`, kind })).status, 200);
  }
  const sheet = await b.rest('POST', '/incidents', { keyword: 'Brand Wohnung', priority: 1 });
  t.equal(sheet.status, 200, sheet.text);
  await b.rest('PUT', `/incidents/${sheet.body.number}/units/RTW-1`);
  await admin.click('#stats-incidents');
  await admin.click('#period-today');
  await admin.locator('#e-calls .stat-value').getByText('3').waitFor();
  t.equal(await text(admin, '#e-opened .stat-value'), '1');
  t.equal(await text(admin, '#e-units .stat-value'), '1');
  t.match(await text(admin, '#top-units'), /RTW-1\s+1 Einsatz/);
  await screenshot(admin, 'stats-einsatz');
});

t.test('a public chart link: shown once, loads without credentials, 404 once revoked', async (t) => {
  await admin.click('#stats-links');
  await admin.locator('#links-none').waitFor();
  await admin.fill('#link-label', 'Wochenrangliste');
  await admin.click('#link-create');
  const url = await admin.locator('#created-link-url').inputValue();
  t.match(url, new RegExp(`^${b.server.url}/embed/chart/[A-Za-z0-9_-]{43}\\.png$`), 'the public URL, in full');
  t.match(await text(admin, '#created-link-box'), /nur dieses eine Mal angezeigt/);
  const row = admin.locator('#link-list tr[data-link-label="Wochenrangliste"]');
  await row.waitFor();
  t.match(await row.innerText(), /Rangliste – Balken[\s\S]*Woche, immer aktuell/, 'the list says what it shows');
  t.same(await unnamed(admin), [], 'every control of the links has a name');
  await screenshot(admin, 'stats-link-created');
  const fetched = await fetch(url, { credentials: 'omit' });
  t.equal(fetched.status, 200, 'no cookie, no key: the token is the access');
  t.equal(fetched.headers.get('content-type'), 'image/png');
  t.ok((await fetched.arrayBuffer()).byteLength > 1000);
  await admin.click('#created-link-done');
  const id = await row.getAttribute('data-link-id');
  await admin.click(`#link-${id}-revoke`);
  await admin.click(`#link-${id}-confirm`);
  await admin.locator('#links-result').getByText('Link „Wochenrangliste“ widerrufen', { exact: false }).waitFor();
  await row.waitFor({ state: 'detached' });
  t.equal((await fetch(url)).status, 404, 'revoked: 404 at once');
});

t.test('a crew member without the leaderboard right sees only their own statistics', async (t) => {
  const crew = await b.openFor(t, paul, { tab: 'stats' });
  await crew.locator('#my-stats').waitFor();
  t.equal(await crew.locator('.stats-sections').count(), 0, 'no other sections');
  t.equal(await crew.locator('#leaderboard, #heatmap, #stats-rank').count(), 0, 'no leaderboard, heatmap or filters');
  await showWeekOf(crew, '2026-11-12');
  await crew.locator('#person-total .stat-value').getByText('3 h 45 min').waitFor();
  t.match(await text(crew, '#person-name'), /Paul Wagner/, 'their own name');
  await imageLoaded(crew, '#chart-user-shifts');
  await screenshot(crew, 'stats-crew');
});

t.test('a clock-in anywhere shows on the open leaderboard within seconds', async (t) => {
  await admin.click('#stats-board');
  await admin.click('#period-weekly');
  if (await admin.locator('#period-today').isEnabled()) await admin.click('#period-today');
  await admin.locator('#board-empty').waitFor();
  const started = Date.now();
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: '04' })).status, 200);
  await admin.locator('#leaderboard-table tr[data-user="200000000000000004"]').waitFor({ timeout: 6000 });
  t.ok(Date.now() - started < 6000, `on the board after ${Date.now() - started} ms`);
  t.equal(await text(admin, '#total-active .stat-value'), '1');
  t.same(consoleErrors, [], 'the admin\'s board logged no error all along (the refused custom range is a 400 by design)');
});

t.test('at laptop width nothing overflows; module stats off hides the tab', async (t) => {
  const laptop = await b.openFor(t, demo.admin, { tab: 'stats', viewport: { width: 1280, height: 800 } });
  await showWeekOf(laptop, '2026-11-11');
  await laptop.locator('#total-time .stat-value').getByText('32 h 30 min').waitFor();
  await imageLoaded(laptop, '#chart-bars');
  t.ok(await laptop.evaluate(() => document.documentElement.scrollWidth <= 1280), 'no horizontal scrolling');
  await screenshot(laptop, 'stats-laptop');
  t.equal((await b.rest('PATCH', '/admin/modules', { modules: { stats: false } })).status, 200);
  await laptop.locator('#tab-stats').waitFor({ state: 'detached', timeout: 5000 });
  t.equal(await laptop.locator('#tab-overview[aria-selected="true"]').count(), 1, 'back on the Übersicht');
  await b.rest('PATCH', '/admin/modules', { modules: { stats: true } });
  await laptop.locator('#tab-stats').waitFor({ timeout: 5000 });
});

t.test('on a phone, in English', async (t) => {
  const phone = await b.openFor(t, demo.dispatcher, { lang: 'en', viewport: { width: 390, height: 844 } });
  for (let i = 0; i < 3 && !(await phone.locator('#tab-stats[aria-selected="true"]').count()); i++) {
    await phone.click('#tab-stats'); // see settings.test.ts: the first click after scrolling the tab bar may be lost
    await phone.waitForTimeout(200);
  }
  await showWeekOf(phone, '2026-11-11');
  await phone.locator('#range-label').getByText('Week 46 · 09/11 – 15/11/2026').waitFor();
  await phone.locator('#total-time .stat-value').getByText('32 h 30 min').waitFor();
  t.match(await text(phone, '#board-trend'), /\+550 % vs\. the week before/);
  t.equal(await text(phone, '#stats-board'), 'Leaderboard');
  t.equal(await phone.locator('#staffing-form').count(), 0, 'not for a dispatcher: no settings.manage');
  await imageLoaded(phone, '#chart-bars');
  const wider = () => phone.evaluate(() => Array.from(document.querySelectorAll('#panel *')).filter((el) => el.getBoundingClientRect().right > 391).map((el) => `${el.tagName}.${el.className}`).slice(0, 5));
  t.same(await wider(), [], 'nothing wider than the phone');
  await screenshot(phone, 'stats-phone-en');
  await phone.click('#stats-coverage');
  await phone.locator('#staffing-readonly').getByText('Staffing minimum: 1.', { exact: false }).waitFor();
  await phone.locator('#heatmap').waitFor();
  t.same((await wider()).filter((el) => !/^(TD|TH|TR|TABLE|SPAN)/.test(el)), [], 'the heatmap scrolls inside its card');
  t.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 390));
});
