import t from 'tap';
import type { Page } from 'playwright-core';
import { createLoginLink } from '../../server/auth/login-links.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer } from '../helpers/server.ts';

// The setup wizard in a real browser against a real server: a brand-new guild (no ranks, statuses,
// units or letterheads) and its admin. The board opens on Einrichtung, the wizard shows what the
// chosen template creates, one run fills the areas (checked through the API), and a second look
// says nothing is left to do — on this board and, live, on a second one.
const GUILD = '400000000000000001';
const ADMIN = '400000000000000002';
const server = await startTestServer(t);
await insertGuild(server.sql, GUILD, 'Neue Wache');
await insertPerson(server.sql, GUILD, { userId: ADMIN, nickname: 'Gründerin', badge: null, rankId: null, isAdmin: true });
// A guild starts with the default FMS catalogue; this one has none either, so every area is empty.
await server.sql`delete from unit_statuses where guild_id = ${GUILD}`;
const key = await unscopedKey(server.sql, GUILD);
const rest = (method: string, path: string, body?: unknown) => call(server.url, method, path, { key, body });
const browser = await launchBrowser(t);

async function open(viewport = { width: 1400, height: 900 }, lang: 'de' | 'en' = 'de'): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((l) => localStorage.setItem('dt.lang', l), lang);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto(await createLoginLink(server.sql, server.url, GUILD, ADMIN));
  await page.locator('#connection.conn-live').waitFor();
  return { page, errors };
}

t.test('a new guild is offered the wizard; one run sets it up; a second run finds nothing left', async (t) => {
  const { page, errors } = await open();
  const other = await open({ width: 390, height: 844 });
  await page.locator('#tab-setup[aria-selected="true"]').waitFor();
  t.pass('the board opens on Einrichtung for an empty guild');
  await page.locator('#setup-new').waitFor();
  t.equal(await page.locator('#setup-template-feuerwehr-rettungsdienst').isChecked(), true, 'Feuerwehr/Rettungsdienst is the first choice');
  for (const area of ['ranks', 'statuses', 'units', 'letterheads']) {
    t.equal(await page.locator(`#setup-area-${area}`).isChecked(), true, `${area}: empty, so chosen`);
    t.match(await page.locator(`li.area[data-area="${area}"] small`).innerText(), /legt \d+ Einträge? an/, `${area}: says how much it creates`);
  }
  await page.locator('li.area[data-area="units"] summary').click();
  const fireUnits = await page.locator('li.area[data-area="units"] ul.plan-items li').allInnerTexts();
  t.ok(fireUnits.length > 0, `the units the template creates are listed (${fireUnits[0]} …)`);

  // Keyboard: the second template by the arrow key, the plan follows.
  await page.locator('#setup-template-feuerwehr-rettungsdienst').focus();
  await page.keyboard.press('ArrowDown');
  t.equal(await page.locator('#setup-template-polizei').isChecked(), true, 'the arrow key picks Polizei');
  const policeUnits = await page.locator('li.area[data-area="units"] ul.plan-items li').allInnerTexts();
  t.not(policeUnits.join(), fireUnits.join(), 'the plan shows what Polizei creates');
  await screenshot(page, 'setup-wizard');
  await page.keyboard.press('ArrowUp');
  await page.uncheck('#setup-area-clock');
  t.equal(await page.locator('#setup-area-clock').isChecked(), false, 'an area can be left out');

  await page.click('#setup-run');
  await page.locator('#setup-result').waitFor();
  for (const area of ['ranks', 'statuses', 'units', 'letterheads']) {
    t.match(await page.locator(`#setup-result li[data-area="${area}"]`).innerText(), /\d+ angelegt/, `${area}: created`);
  }
  t.equal(await page.locator('#setup-result li[data-area="clock"]').count(), 0, 'the area left out was not asked for');
  await screenshot(page, 'setup-result');

  const ranks = await rest('GET', '/admin/ranks');
  const units = await rest('GET', '/units');
  const statuses = await rest('GET', '/admin/statuses');
  const letterheads = await rest('GET', '/letterheads');
  t.ok(ranks.body.ranks?.length > 0, `ranks exist (${ranks.body.ranks?.length})`);
  t.ok(units.body.units?.length > 0, `units exist (${units.body.units?.length})`);
  t.ok(statuses.body.statuses?.length > 0, `statuses exist (${statuses.body.statuses?.length})`);
  t.ok(letterheads.body.letterheads?.length > 0, `letterheads exist (${letterheads.body.letterheads?.length})`);
  const seedable = await rest('GET', `/onboarding/${GUILD}/seedable`);
  t.same(seedable.body.areas.filter((a: { empty: boolean }) => a.empty).map((a: { area: string }) => a.area), ['clock'], 'only the area left out is still empty');

  // The clock too, then nothing is left: the wizard says so, here and on the other board (live).
  await page.check('#setup-area-clock');
  await page.click('#setup-run');
  await page.locator('#setup-done').waitFor();
  await page.locator('#setup-result li[data-area="clock"]').getByText(/angelegt/).waitFor();
  t.pass('after the last area: nothing left to do');
  await other.page.locator('#tab-setup').click();
  await other.page.locator('#setup-done').waitFor();
  t.pass('the second board shows it too');
  await screenshot(other.page, 'setup-done-phone');
  t.ok(await other.page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the wizard fits a phone');

  const again = await rest('POST', `/onboarding/${GUILD}/seed`, {});
  t.equal(again.status, 200);
  t.same(Object.values(again.body.areas).filter((r: any) => 'created' in r), [], 'a second run through the API creates nothing');
  t.same([...errors, ...other.errors], [], 'no errors in the console');
});

t.test('a guild that is set up opens on Übersicht; the wizard is there and has nothing to do', async (t) => {
  const { page } = await open();
  await page.waitForTimeout(300);
  t.equal(await page.locator('#tab-overview').getAttribute('aria-selected'), 'true', 'Übersicht, not the wizard');
  await page.click('#tab-setup');
  await page.locator('#setup-done').waitFor();
  t.pass('Einrichtung: nothing left');
});

t.test('in English', async (t) => {
  const { page, errors } = await open(undefined, 'en');
  await page.click('#tab-setup');
  await page.locator('#setup-done').getByText('Everything is set up – nothing left to do here.', { exact: false }).waitFor();
  t.equal(await page.locator('#setup-title').innerText(), 'Setup');
  t.same(errors, [], 'no errors in the console');
});
