import t from 'tap';
import type { Page } from 'playwright-core';
import { startDiscordStandIn } from '../helpers/discord-standin.ts';
import { demo, demoBoard } from '../helpers/board.ts';
import { join } from 'node:path';
import { screenshotDir } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';
import { assertError, signIn } from '../helpers/fixtures.ts';

// Einstellungen → Discord, in a real browser: whether the bot is set up and connected (with its
// name, following the gateway), the invite, and whether "Login with Discord" is on — against the
// Discord stand-in, and on a server without Discord. Plus the procedure behind it (REST /admin/discord).
// No guild in Discord: the bot would create the demo guild's instance itself when it joins one.
const discord = await startDiscordStandIn(t);
const ready = discord.waitForReady(15_000);
const b = await demoBoard(t, discord.env());
await ready;

/** A picture of the card alone (the settings page is long), kept with the other screenshots. */
const cardShot = (page: Page, name: string) => page.locator('#settings-discord').screenshot({ path: join(screenshotDir, `${name}.png`) });

/** The card's bot line once it reads `expected`; "Neu prüfen" asks the server again meanwhile. */
async function botLine(page: Page, expected: RegExp, ms = 20_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = await page.locator('#discord-bot').innerText();
    if (expected.test(text)) return text;
    if (Date.now() - start > ms) throw new Error(`the bot line still reads "${text}" after ${ms} ms`);
    await page.click('#discord-refresh');
    await page.waitForTimeout(250);
  }
}

t.test('the admin sees the bot connected with its name, the invite and "Login with Discord" on', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'settings' });
  await page.locator('#settings-discord #discord-bot').waitFor();
  const line = await botLine(page, /^Verbunden/);
  const [gateway] = await b.server.sql`select bot_name from chat_gateway`;
  t.ok(gateway?.bot_name, 'the bot reported its name');
  t.equal(line, `Verbunden als ${gateway.bot_name}`);
  t.equal(await page.locator('#discord-bot').getAttribute('data-state'), 'on');
  t.equal(await page.locator('#discord-login-state').innerText(), 'Eingerichtet');
  t.equal(await page.locator('#discord-login-hint').count(), 0, 'no set-up hint when it is set up');
  const invite = page.locator('#discord-invite');
  t.equal(await invite.innerText(), 'Bot einladen');
  t.equal(await invite.getAttribute('href'), '/invite');
  await cardShot(page, 'settings-discord-connected');

  const [popup] = await Promise.all([page.context().waitForEvent('page'), invite.click()]);
  await popup.waitForURL(/\/oauth2\/authorize\?/, { waitUntil: 'commit' });
  const to = new URL(popup.url());
  t.equal(`${to.origin}${to.pathname}`, `${discord.origin}/oauth2/authorize`, '"Bot einladen" opens Discord\'s invite page in a new tab');
  t.match(Object.fromEntries(to.searchParams), { client_id: discord.applicationId, scope: 'bot applications.commands', integration_type: '0' });
  await popup.close();
});

t.test('when Discord goes down the card says the bot is not connected, and connected again once it is back', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'settings' });
  await botLine(page, /^Verbunden/);
  discord.down();
  t.teardown(() => discord.up());
  t.equal(await botLine(page, /^Nicht verbunden$/), 'Nicht verbunden');
  t.equal(await page.locator('#discord-bot').getAttribute('data-state'), 'down');
  t.match(await page.locator('#discord-bot-hint').innerText(), /verbindet sich von selbst neu/);
  await cardShot(page, 'settings-discord-disconnected');
  discord.up();
  t.match(await botLine(page, /^Verbunden/, 30_000), /^Verbunden als /, 'back by itself');
});

t.test('in English', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'settings', lang: 'en' });
  t.match(await botLine(page, /^Connected/), /^Connected as /);
  t.equal(await page.locator('#discord-login-state').innerText(), 'Set up');
  t.equal(await page.locator('#discord-invite').innerText(), 'Invite the bot');
});

t.test('the procedure behind the card: GET /admin/discord (admin, settings.manage)', async (t) => {
  const res = await b.rest('GET', '/admin/discord');
  t.equal(res.status, 200);
  t.match(res.body, { enabled: true, connected: Boolean, loginWithDiscord: true, inviteUrl: `${discord.origin}/oauth2/authorize?client_id=${discord.applicationId}` });
  const dispatcher = await signIn(b.server, demo.guildId, demo.dispatcher);
  assertError(t, await call(b.server.url, 'GET', '/admin/discord', { session: dispatcher }), 403, 'without settings.manage');
  assertError(t, await call(b.server.url, 'GET', '/admin/discord'), 401, 'without a credential');
});

t.test('on a server without Discord the card says what is missing and offers no invite', async (t) => {
  const bare = await demoBoard(t);
  const page = await bare.openFor(t, demo.admin, { tab: 'settings' });
  await page.locator('#settings-discord #discord-bot').waitFor();
  t.equal(await page.locator('#discord-bot').innerText(), 'Nicht eingerichtet');
  t.equal(await page.locator('#discord-bot').getAttribute('data-state'), 'off');
  t.match(await page.locator('#discord-bot-hint').innerText(), /DISCORD_TOKEN/);
  t.equal(await page.locator('#discord-login-state').innerText(), 'Nicht eingerichtet');
  t.match(await page.locator('#discord-login-hint').innerText(), /DISCORD_CLIENT_ID und DISCORD_CLIENT_SECRET/);
  t.equal(await page.locator('#discord-invite').count(), 0, 'no invite without a client id');
  await cardShot(page, 'settings-discord-off');
  t.same((await bare.rest('GET', '/admin/discord')).body, { enabled: false, connected: false, botName: null, inviteUrl: null, loginWithDiscord: false });
});
