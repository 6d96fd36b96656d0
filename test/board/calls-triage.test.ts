import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// Call triage on "Meldungen aus dem Spiel" in Chromium against the real server: a dispatcher
// dismisses a junk call with a reason, attaches a call to an open incident (shown on the sheet),
// and takes two selected calls together; a second board sees each change live. The game's id of a
// call is no longer shown as if it meant something.
const b = await demoBoard(t);
const gameKey = (await b.rest('POST', '/admin/apikeys', { name: 'game', scopes: ['calls:call.report'] })).body.key as string;
const report = async (body: Record<string, unknown>) => {
  const res = await call(b.server.url, 'POST', '/integrations/ingame/calls', { key: gameKey, body });
  if (res.status !== 200) throw new Error(`report ${res.status}: ${res.text}`);
  return res.body;
};
const order = (page: Page) => page.locator('#calls > li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.call));
const row = (page: Page, id: string) => page.locator(`#calls > li[data-call="${id}"]`);

await report({ externalId: 't1', kind: 'notruf', title: 'Verkehrsunfall B1', message: 'Zwei PKW', location: 'B1 Höhe Tankstelle', source: 'qb-phone', caller: { name: 'Max' } });
await report({ externalId: 't2', kind: 'hinweis', priority: 3, title: 'Spaßanruf', message: 'haha' });
await report({ externalId: 't3', kind: 'notruf', title: 'Rauch aus Keller', location: 'Hafenstraße 3' });
await report({ externalId: 't4', kind: 'panik', title: 'Panikknopf Streife 2', location: 'Mission Row' });
await report({ externalId: 't5', kind: 'notruf', priority: 1, title: 'Person unter PKW', location: 'B1 Höhe Tankstelle' });
const onDuty = await b.rest('POST', '/admin/clock-in', { badge: '02' }); // the dispatcher works calls only on duty
if (onDuty.status !== 200) throw new Error(`clock-in ${onDuty.status}: ${onDuty.text}`);
const fire = await b.rest('POST', '/incidents', { keyword: 'B3 Kellerbrand', location: 'Hafenstraße 3', priority: 1 });
const page = await b.open(demo.dispatcher, { tab: 'calls', viewport: { width: 1280, height: 800 } });
const other = await b.open(demo.admin, { tab: 'calls' });
t.teardown(() => other.context().close());

t.test('the game\'s id of a call is not shown in the row, only as a tooltip', async (t) => {
  await row(page, 't1').waitFor();
  const text = (await row(page, 't1').textContent()) ?? '';
  t.match(text, /Quelle: qb-phone/);
  t.notMatch(text, /\bt1\b/, 'no "t1" in the row');
  t.notMatch((await page.locator('#calls').textContent()) ?? '', /\bt[1-5]\b/, 'no call id anywhere in the list');
  t.equal(await row(page, 't1').locator('.call-meta').getAttribute('title'), 'Kennung im Spiel: t1');
});

t.test('dismiss a junk call with a preset reason: gone from both boards at once', async (t) => {
  await row(page, 't2').locator('[data-dismiss]').click();
  const panel = row(page, 't2').locator('[data-dismiss-panel]');
  await panel.waitFor();
  t.match(await panel.textContent(), /Warum verwerfen\?[\s\S]*Fehlalarm[\s\S]*Doppelt[\s\S]*Erledigt/);
  await screenshot(page, 'calls-triage-dismiss-desk');
  const started = Date.now();
  await panel.locator('[data-reason="Fehlalarm"]').click();
  await row(page, 't2').waitFor({ state: 'detached', timeout: 2000 });
  await row(other, 't2').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.ok(Date.now() - started < LIVE_MS, `gone from the other board ${Date.now() - started} ms after the answer`);
  await page.locator('#calls-notice').getByText('„Spaßanruf“ verworfen: Fehlalarm.').waitFor();
  const stored = await b.rest('GET', '/stats/einsatz?period=daily');
  t.match(stored.body.calls, { dismissed: 1, dismissedByReason: { Fehlalarm: 1 } }, 'counted in the statistics');
});

t.test('dismiss with the dispatcher\'s own words', async (t) => {
  await report({ externalId: 't6', title: 'Test bitte ignorieren' });
  await row(page, 't6').locator('[data-dismiss]').click();
  const panel = row(page, 't6').locator('[data-dismiss-panel]');
  t.ok(await panel.locator('[data-dismiss-own]').isDisabled(), 'no empty reason');
  await panel.locator('[data-own-reason]').fill('Testmeldung des Skripts');
  await panel.locator('[data-dismiss-own]').click();
  await row(page, 't6').waitFor({ state: 'detached', timeout: 2000 });
  const audit = await b.server.sql`select data from audit_log where action = 'calls.dismiss' order by id desc limit 1`;
  t.equal(audit[0].data.reason, 'Testmeldung des Skripts');
});

t.test('attach a call to an open incident: the sheet shows it and its timeline says so', async (t) => {
  await row(page, 't3').locator('[data-attach]').click();
  const panel = row(page, 't3').locator('[data-attach-panel]');
  await panel.locator('[data-attach-sheet]').waitFor();
  t.match(await panel.locator('[data-attach-sheet]').textContent(), `${fire.body.number} – B3 Kellerbrand`);
  await screenshot(page, 'calls-triage-attach-desk');
  await panel.locator('[data-attach-sheet]').selectOption(String(fire.body.number));
  await panel.locator('[data-attach-go]').click();
  await row(page, 't3').waitFor({ state: 'detached', timeout: 2000 });
  await row(other, 't3').waitFor({ state: 'detached', timeout: LIVE_MS });
  const notice = page.locator('#calls-notice');
  await notice.getByText(`„Rauch aus Keller“ an Einsatz ${fire.body.number} angehängt.`).waitFor();
  await notice.getByRole('button', { name: 'Zum Einsatz' }).click();
  await page.locator('#sheet-title').getByText('B3 Kellerbrand').waitFor();
  await page.locator('#timeline').getByText('Meldung angehängt: Rauch aus Keller').waitFor();
  const linked = page.locator('#sheet-calls [data-sheet-call="t3"]');
  await linked.waitFor();
  t.match(await linked.textContent(), /Rauch aus Keller[\s\S]*angehängt/);
  t.match(await page.locator('#sheet-calls').textContent(), /Meldungen aus dem Spiel/);

  await report({ externalId: 't3', title: 'Rauch aus Keller', message: 'Jetzt Flammen sichtbar' });
  await page.locator('#timeline').getByText('Erneute Meldung (2.): Rauch aus Keller – Jetzt Flammen sichtbar').waitFor({ timeout: 2000 });
  await page.locator('#sheet-calls [data-sheet-call="t3"]').getByText('2× gemeldet').waitFor({ timeout: 2000 });
  t.pass('the re-report lands on the sheet, live');
  await screenshot(page, 'calls-triage-sheet-desk');
  await page.click('#tab-calls');
  t.notOk(await row(page, 't3').count(), 'not an open call again');
});

t.test('select two calls and take them together into one incident', async (t) => {
  await row(page, 't1').locator('[data-pick]').check();
  await page.locator('#calls-merge').getByText('1 ausgewählt').waitFor();
  t.ok(await page.locator('#calls-merge-go').isDisabled(), 'one call is not a merge');
  await row(page, 't5').locator('[data-pick]').check();
  await page.locator('#calls-merge').getByText('2 ausgewählt').waitFor();
  await screenshot(page, 'calls-triage-merge-desk');
  await page.click('#calls-merge-go');
  await page.locator('#tab-incidents[aria-selected="true"]').waitFor();
  await page.locator('#sheet-title').getByText('Person unter PKW').waitFor(); // t5 is the more urgent: the sheet is made of it
  await page.locator('#timeline').getByText('Meldung angehängt: Verkehrsunfall B1 – Zwei PKW (Anrufer: Max)').waitFor();
  await page.locator('#sheet-calls [data-sheet-call="t1"]').waitFor();
  t.equal(await page.locator('#sheet-calls [data-sheet-call]').count(), 2);
  await row(other, 't1').waitFor({ state: 'detached', timeout: LIVE_MS });
  await row(other, 't5').waitFor({ state: 'detached', timeout: LIVE_MS });
  t.same(await order(other), ['t4'], 'only the panic call is left on the other board');
});

t.test('at phone width the row\'s actions and the forms fit', async (t) => {
  const phone = await b.openFor(t, demo.dispatcher, { tab: 'calls', viewport: { width: 390, height: 844 } });
  await report({ externalId: 't7', kind: 'alarm', title: 'BMA Schule', location: 'Schulstraße 1' });
  await row(phone, 't7').waitFor();
  await row(phone, 't4').locator('[data-pick]').check();
  await row(phone, 't7').locator('[data-pick]').check();
  await row(phone, 't7').locator('[data-dismiss]').click();
  await row(phone, 't7').locator('[data-dismiss-panel]').waitFor();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
  for (const sel of ['[data-take="t7"]', '[data-attach="t7"]', '[data-dismiss="t7"]', '#calls-merge-go', '[data-reason="Doppelt"]']) {
    const box = await phone.locator(sel).boundingBox();
    t.ok(box && box.x >= 0 && box.x + box.width <= 390, `${sel} within the screen`);
  }
  await screenshot(phone, 'calls-triage-phone');
  await row(phone, 't7').locator('[data-reason="Doppelt"]').click();
  await row(phone, 't7').waitFor({ state: 'detached', timeout: 2000 });
  await phone.locator('#calls-merge').getByText('1 ausgewählt').waitFor();
  t.pass('a dismissed call leaves the selection');
});

t.test('English board: the presets in English, the stored reason is the preset', async (t) => {
  const en = await b.openFor(t, demo.dispatcher, { tab: 'calls', lang: 'en' });
  await report({ externalId: 't8', title: 'Doppelte Meldung' });
  await row(en, 't8').locator('[data-dismiss]').click();
  const panel = row(en, 't8').locator('[data-dismiss-panel]');
  t.match(await panel.textContent(), /Why dismiss it\?[\s\S]*False alarm[\s\S]*Duplicate[\s\S]*Done/);
  await panel.getByRole('button', { name: 'Duplicate' }).click();
  await en.locator('#calls-notice').getByText('“Doppelte Meldung” dismissed: Duplicate.').waitFor();
  const [stored] = await b.server.sql`select dismiss_reason from calls where external_id = 't8'`;
  t.equal(stored.dismiss_reason, 'Doppelt');
});

t.test('off duty, a dismiss fails in place and leads to the time clock', async (t) => {
  t.equal((await b.rest('POST', '/admin/clock-out', { badge: '02' })).status, 200);
  await page.click('#tab-calls');
  await row(page, 't4').locator('[data-dismiss]').click();
  await row(page, 't4').locator('[data-reason="Erledigt"]').click();
  await page.locator('#calls-result').getByText('Du bist außer Dienst. Stemple dich ein, um Meldungen zu bearbeiten.').waitFor();
  t.ok(await row(page, 't4').isVisible(), 'the call stays');
});

t.test('a reader without dispatch.manage sees no triage controls', async (t) => {
  t.equal((await b.rest('PATCH', '/admin/ranks/praktikant', { capabilities: ['timeclock.own.use', 'dispatch.view'] })).status, 200);
  const trainee = await b.openFor(t, demo.trainee, { tab: 'calls' });
  await row(trainee, 't4').waitFor();
  for (const sel of ['[data-pick]', '[data-dismiss]', '[data-attach]', '#calls-merge']) t.equal(await trainee.locator(sel).count(), 0, `no ${sel}`);
  t.notMatch((await trainee.locator('main').textContent()) ?? '', /\b[a-z]+\.[a-z]+(\.[a-z]+)?\b/, 'no raw capability name');
});
