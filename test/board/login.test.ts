import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn } from '../helpers/fixtures.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { createLoginLink } from '../../server/auth/login-links.ts';

// The first minutes of a dispatcher, in a real browser: the login link opens the signed-in board
// with its guild, a click clocks in, the board is still signed in in a new tab, guilds can be
// switched, and a used link or a missing session says in German what to do.
const NORD = '640000000000000001';
const SUED = '640000000000000002';
const server = await startTestServer(t);
await seedGuild(server.sql, NORD, [
  { userId: 'mia', nickname: 'Mia Nord', badge: '1', rank: 'crew' },
  { userId: 'ole', nickname: 'Ole', badge: '2', rank: 'crew' },
]);
await seedGuild(server.sql, SUED, [{ userId: 'mia', nickname: 'Mia Süd', badge: '5', rank: 'crew' }]);
await server.sql`update guilds set name = 'Rettungswache Nord' where id = ${NORD}`;
await server.sql`update guilds set name = 'Rettungswache Süd' where id = ${SUED}`;
const browser = await launchBrowser(t);
const context = await browser.newContext();

const openShifts = async (guildId: string, userId: string) =>
  (await server.sql`select count(*)::int as n from shifts where guild_id = ${guildId} and user_id = ${userId} and clock_out_at is null`)[0].n as number;
const visible = (page: Page, selector: string) => page.locator(selector).isVisible();
const textOf = (page: Page, selector: string) => page.locator(selector).innerText();

t.test('the login link opens the signed-in board with its guild, and a click clocks in', async (t) => {
  const page = await context.newPage();
  const link = await createLoginLink(server.sql, server.url, NORD, 'mia');
  const res = await page.goto(link);
  t.equal(res?.status(), 200, 'the redirect ends on a page, not an error');
  t.equal(page.url(), `${server.url}/dispatch?guild=${NORD}`);
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  t.equal(await textOf(page, '#guild-name'), 'Rettungswache Nord', 'the guild of the link is selected');
  t.equal(await textOf(page, '#who'), 'Mia Nord', 'signed in as the link\'s person');
  t.notOk(await visible(page, '#signed-out'), 'not asked to sign in');
  t.notMatch(await page.content(), /Melde dich über einen Login-Link an/);

  await page.click('#clock-in');
  await page.locator('#result').getByText(/^Eingestempelt um \d\d:\d\d Uhr\.$/).waitFor();
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.equal(await openShifts(NORD, 'mia'), 1, 'the click opened a shift in that guild');
  t.ok(await page.locator('#clock-in').isDisabled(), 'clock-in is off while on duty');
  t.ok((await screenshot(page, 'login-link-board-clocked-in')).length > 1000);
});

t.test('a new tab later (a bookmark of /dispatch) shows the board signed in, guild remembered', async (t) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/dispatch`);
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.equal(await textOf(page, '#guild-name'), 'Rettungswache Nord');
  t.equal(page.url(), `${server.url}/dispatch?guild=${NORD}`, 'the address names the guild, so a reload keeps it');
  t.notOk(await visible(page, '#signed-out'));
  const root = await page.goto(server.url);
  t.equal(root?.url(), `${server.url}/dispatch`, '/ opens the board');
});

t.test('a member of several guilds switches between them on the board', async (t) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/dispatch?guild=${NORD}`);
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.ok(await visible(page, '#guild-select'), 'a guild switch is shown');
  await page.selectOption('#guild-select', SUED);
  await page.locator('#guild-name').getByText('Rettungswache Süd').waitFor();
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  t.equal(await textOf(page, '#who'), 'Mia Süd');
  await page.click('#clock-in');
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.equal(await openShifts(SUED, 'mia'), 1, 'clocked in in the chosen guild');
  t.equal(await openShifts(NORD, 'mia'), 1, 'the other guild is untouched');
  await screenshot(page, 'switched-guild');
  const later = await context.newPage();
  await later.goto(`${server.url}/dispatch`);
  await later.locator('#guild-name').getByText('Rettungswache Süd').waitFor();
  t.pass('the last chosen guild is remembered');
});

t.test('in a browser that never chose, a member of several guilds picks one', async (t) => {
  const fresh = await browser.newContext();
  t.teardown(() => fresh.close());
  const { cookie } = await signIn(server, SUED, 'mia');
  const [name, value] = cookie.split('=');
  await fresh.addCookies([{ name, value, url: server.url }]);
  const page = await fresh.newPage();
  await page.goto(`${server.url}/dispatch`);
  await page.locator('#choose').waitFor();
  t.same(await page.locator('#guild-list button').allInnerTexts(), ['Rettungswache Nord', 'Rettungswache Süd']);
  t.notOk(await visible(page, '#signed-out'));
  await screenshot(page, 'choose-guild');
  await page.getByRole('button', { name: 'Rettungswache Süd' }).click();
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.equal(page.url(), `${server.url}/dispatch?guild=${SUED}`);

  await page.goto(`${server.url}/dispatch?guild=999999999999999999`);
  await page.locator('#notice').getByText('Der Link gehört zu einer Wache, in der du nicht Mitglied bist.').waitFor();
  t.equal(await textOf(page, '#guild-name'), 'Rettungswache Süd', 'a guild the user is not in falls back to the remembered one');
});

t.test('a used login link shows a readable German page with what to do', async (t) => {
  const fresh = await browser.newContext();
  t.teardown(() => fresh.close());
  const link = await createLoginLink(server.sql, server.url, NORD, 'ole');
  const first = await fresh.newPage();
  await first.goto(link);
  await first.locator('#duty').getByText('Du bist außer Dienst.').waitFor();

  const other = await browser.newContext(); // another browser: the link is spent
  t.teardown(() => other.close());
  const page = await other.newPage();
  const res = await page.goto(link);
  t.equal(res?.status(), 410);
  t.equal(await textOf(page, 'h1'), 'Dieser Login-Link wurde bereits benutzt');
  t.match(await page.locator('body').innerText(), /So bekommst du einen neuen Link/);
  t.notMatch(await page.locator('body').innerText(), /"error"/, 'not JSON');
  await screenshot(page, 'used-login-link');

  const again = await first.goto(link); // a second click in the browser it signed in: on to the board
  t.equal(again?.url(), `${server.url}/dispatch?guild=${NORD}`);
});

t.test('without a session the board says how to sign in; logging out returns there', async (t) => {
  const fresh = await browser.newContext();
  t.teardown(() => fresh.close());
  const page = await fresh.newPage();
  await page.goto(`${server.url}/dispatch`);
  await page.locator('#signed-out').waitFor();
  t.match(await textOf(page, '#signed-out'), /Nicht angemeldet[\s\S]*Login-Link/);
  t.notOk(await visible(page, '#clock'));
  await screenshot(page, 'signed-out');

  const board = await context.newPage();
  await board.goto(`${server.url}/dispatch`);
  await board.locator('#logout').click();
  await board.locator('#signed-out').getByText('Du hast dich abgemeldet.').waitFor();
  await board.reload();
  await board.locator('#signed-out').waitFor();
  t.pass('the session is gone after a reload too');
});

t.test('at phone width (390 px) the board, the guild choice, the link page and the signed-out page fit without sideways scrolling', async (t) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  t.teardown(() => phone.close());
  const page = await phone.newPage();
  const fits = async (what: string, on = page) => {
    const { scroll, width } = await on.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    t.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px viewport`);
    await screenshot(on, `phone-${what}`);
  };
  await page.goto(await createLoginLink(server.sql, server.url, SUED, 'mia'));
  await page.locator('#duty').getByText(/Du bist (im|außer) Dienst\./).waitFor();
  t.ok(await page.locator('#clock-in').isVisible(), 'the clock buttons are on screen');
  await fits('board');
  await page.evaluate(() => localStorage.removeItem('dt.guild'));
  await page.goto(`${server.url}/dispatch`);
  await page.locator('#choose').waitFor();
  await fits('choose-guild');
  await page.goto(`${server.url}/auth/login/${'A'.repeat(43)}`);
  await fits('unknown-login-link');
  const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  t.teardown(() => fresh.close());
  const signedOut = await fresh.newPage();
  await signedOut.goto(`${server.url}/dispatch`);
  await signedOut.locator('#signed-out').waitFor();
  await fits('signed-out', signedOut);
});
