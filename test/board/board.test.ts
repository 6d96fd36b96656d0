import t from 'tap';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// The board as a whole: the tabs each person gets, the overview and the time clock following REST
// writes live, the English switch, and the same board on a phone.
const b = await demoBoard(t);

async function waitFor(check: () => Promise<boolean>, ms = 2000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return;
  throw new Error('timed out');
}
const tabsOf = async (page: import('playwright-core').Page) => page.locator('nav.tabs [role=tab]').allInnerTexts();

t.test('each person gets the tabs their rank allows, in the guild\'s tab order', async (t) => {
  const admin = await b.open(demo.admin);
  t.same(await tabsOf(admin), ['Übersicht', 'Einheiten', 'Leitstelle', 'Meldungen aus dem Spiel', 'Karte', 'Stempeluhr', 'Einsätze', 'Statistik', 'Dokumente', 'Medic', 'Einstellungen', 'Einrichtung']);
  const dispatcher = await b.open(demo.dispatcher);
  t.same(await tabsOf(dispatcher), ['Übersicht', 'Einheiten', 'Leitstelle', 'Meldungen aus dem Spiel', 'Karte', 'Stempeluhr', 'Einsätze', 'Statistik', 'Dokumente'], 'no settings without settings.manage (letterheads they may view)');
  const trainee = await b.open(demo.trainee);
  t.notOk((await tabsOf(trainee)).includes('Einstellungen'), 'a trainee sees no admin tab');
  t.notOk((await tabsOf(trainee)).includes('Meldungen aus dem Spiel'), 'nor the calls, which need dispatch.view');

  await b.server.sql`update guilds set tab_order = ${['incidents', 'timeclock', 'dispatch', 'settings']} where id = ${demo.guildId}`;
  const reordered = await b.open(demo.admin);
  t.same(await tabsOf(reordered), ['Übersicht', 'Einsätze', 'Stempeluhr', 'Einheiten', 'Leitstelle', 'Meldungen aus dem Spiel', 'Karte', 'Einstellungen', 'Einrichtung', 'Statistik', 'Dokumente', 'Medic'], 'tabOrder of the branding decides (groups it does not name come last)');
  await b.server.sql`update guilds set tab_order = '{}' where id = ${demo.guildId}`;
  for (const page of [admin, dispatcher, trainee, reordered]) await page.close();
});

t.test('a clock-in by REST shows on open boards, live: overview count and the on-duty list', async (t) => {
  const overview = await b.open(demo.dispatcher);
  const clock = await b.open(demo.dispatcher, { tab: 'clock' });
  const count = overview.locator('[data-count=onDuty] .value');
  const before = Number(await count.innerText());
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: 3 })).status, 200);
  const answered = Date.now();
  await Promise.all([
    overview.locator('[data-count=onDuty] .value').getByText(String(before + 1), { exact: true }).waitFor({ timeout: LIVE_MS }),
    clock.locator('#on-duty tr', { hasText: 'Jonas Krüger' }).waitFor({ timeout: LIVE_MS }),
  ]);
  t.ok(Date.now() - answered < LIVE_MS, `both boards followed ${Date.now() - answered} ms after the answer`);
  t.match(await clock.locator('#on-duty tr', { hasText: 'Jonas Krüger' }).innerText(), /03\s+Jonas Krüger\s+Notfallsanitäter\s+\d\d:\d\d\s+\d+ s/);
  await screenshot(overview, 'overview-desk');
  await screenshot(clock, 'clock-desk');

  t.equal((await b.rest('POST', '/admin/clock-out', { badge: 3 })).status, 200);
  await clock.locator('#on-duty tr', { hasText: 'Jonas Krüger' }).waitFor({ state: 'detached', timeout: LIVE_MS });
  await overview.locator('[data-count=onDuty] .value').getByText(String(before), { exact: true }).waitFor({ timeout: LIVE_MS });
  await overview.close();
  await clock.close();
});

t.test('the own clock: the buttons follow the live on-duty state, also when clocked in elsewhere', async (t) => {
  const page = await b.open(demo.dispatcher, { tab: 'clock' });
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  t.equal((await b.rest('POST', '/admin/clock-in', { badge: 2 })).status, 200, 'clocked in by someone else');
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor({ timeout: LIVE_MS });
  t.ok(await page.locator('#clock-in').isDisabled());
  await page.click('#clock-out');
  await page.locator('#result').getByText(/^Ausgestempelt um \d\d:\d\d Uhr \(\d+ s\)\.$/).waitFor();
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  await page.close();
});

t.test('the English switch changes every label and is remembered', async (t) => {
  const page = await b.open(demo.admin);
  await page.click('#lang');
  t.same(await tabsOf(page), ['Overview', 'Units', 'Dispatch', 'Calls from the game', 'Map', 'Time clock', 'Incidents', 'Statistics', 'Documents', 'Medic', 'Settings', 'Setup']);
  t.equal(await page.locator('#connection').innerText(), 'Live');
  t.equal(await page.locator('#logout').innerText(), 'Sign out');
  t.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await t.resolves(waitFor(async () => (await b.server.sql`select prefs->>'language' as l from preferences where guild_id = ${demo.guildId} and user_id = ${demo.admin}`)[0]?.l === 'en'), 'kept in the person\'s preferences too');
  await page.reload();
  await page.locator('#connection.conn-live').waitFor();
  t.equal(await page.locator('#tab-overview').innerText(), 'Overview', 'still English after a reload');
  await screenshot(page, 'overview-english');
  await page.click('#lang');
  t.equal(await page.locator('#tab-overview').innerText(), 'Übersicht');
  await page.close();
});

t.test('the colour scheme: system, dark, light, kept in the preferences', async (t) => {
  const page = await b.open(demo.dispatcher);
  await page.click('#theme');
  t.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  t.equal(background, 'rgb(15, 20, 25)', 'dark control-room colours');
  await t.resolves(waitFor(async () => (await b.server.sql`select prefs->>'theme' as v from preferences where guild_id = ${demo.guildId} and user_id = ${demo.dispatcher}`)[0]?.v === 'dark'));
  await screenshot(page, 'overview-dark');
  await page.click('#theme');
  t.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.click('#theme');
  t.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined, 'back to the system\'s choice');
  await page.close();
});

t.test('a phone: header, tabs and the overview fit 390 px', async (t) => {
  const page = await b.open(demo.dispatcher, { viewport: { width: 390, height: 844 } });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  t.ok(width <= 390, `no sideways scrolling (page is ${width} px wide)`);
  t.ok(await page.locator('#clock-in').isVisible());
  await screenshot(page, 'overview-phone');
  await page.close();
});
