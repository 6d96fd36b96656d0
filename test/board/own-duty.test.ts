import t from 'tap';
import { demo, demoBoard, LIVE_MS } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// Counters and buttons that agree: a crew member who may only clock themselves (Praktikant, only
// timeclock.own.use) never reads "Im Dienst 0" beside "Du bist im Dienst", and their own clock
// follows a clock-out made elsewhere (the desk, the Discord panel) without a reload.
const b = await demoBoard(t);

t.test('a crew member\'s clock tab: no count it cannot know, and the own state live', async (t) => {
  const page = await b.openFor(t, demo.trainee, { tab: 'clock', viewport: { width: 390, height: 844 } });
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  await page.click('#clock-in');
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  const heading = await page.locator('#onduty-title').innerText();
  t.notMatch(heading, /\d/, `no count beside "Im Dienst" that the rank cannot see (heading: ${JSON.stringify(heading)})`);
  t.match(await page.locator('#panel').innerText(), /Wer im Dienst ist, sehen Ränge mit dem Recht „die Stempeluhr für andere bedienen“/);
  await screenshot(page, 'own-duty-trainee-phone');

  t.equal((await b.rest('POST', '/admin/clock-out', { badge: 5 })).status, 200, 'clocked out by the desk');
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor({ timeout: 2000 });
  t.ok(await page.locator('#clock-in').isEnabled(), 'and may clock in again');
  t.ok(await page.locator('#clock-out').isDisabled());

  t.equal((await b.rest('POST', '/admin/clock-in', { badge: 5 })).status, 200, 'clocked in by the desk');
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor({ timeout: 2000 });
  await page.locator('#tab-overview').click();
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  t.equal(await page.locator('[data-count=onDuty]').count(), 0, 'the overview shows no on-duty counter to a rank that cannot see who is on duty');
});

t.test('a dispatcher: the overview counter and the own clock say the same', async (t) => {
  const page = await b.openFor(t, demo.dispatcher);
  const count = page.locator('[data-count=onDuty] .value');
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  const before = Number(await count.innerText());
  await page.click('#clock-in');
  await page.locator('#duty').getByText('Du bist im Dienst.').waitFor();
  await count.getByText(String(before + 1), { exact: true }).waitFor({ timeout: LIVE_MS });
  await page.click('#clock-out');
  await page.locator('#duty').getByText('Du bist außer Dienst.').waitFor();
  await count.getByText(String(before), { exact: true }).waitFor({ timeout: LIVE_MS });
});
