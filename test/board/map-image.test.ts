import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';
import { insertUpload } from '../letterheads/world.ts';
import { mapImage } from '../helpers/map-image.ts';

// Karte with the guild's calibrated image (Einstellungen → Karte, through the real API): a known
// game coordinate lands on the expected pixel of the image, for a call and for a unit; "PLZ 202"
// jumps to the postal; an incident sheet's location is set by clicking the map (x/y and the
// nearest postal), and the picker closes.
const b = await demoBoard(t);

const uploadId = String(await insertUpload(b.server.sql, demo.guildId, mapImage(), 800, 600));
// Per axis: px = 100 + 0.2·(x + 1000), py = 100 − 0.2·(y − 1000).
const points = [{ px: 100, py: 100, x: -1000, y: 1000 }, { px: 700, py: 500, x: 2000, y: -1000 }];
const pixelOf = (x: number, y: number) => ({ px: 100 + 0.2 * (x + 1000), py: 100 - 0.2 * (y - 1000) });
const set = await b.rest('PUT', '/admin/map', { imageUploadId: uploadId, calibration: { points } });
if (set.status !== 200) throw new Error(`PUT /admin/map ${set.status}: ${set.text}`);
const postalsSet = await b.rest('PUT', '/admin/map/postals', { postals: [{ code: '101', x: 500, y: 0 }, { code: '202', x: -500, y: 500 }] });
if (postalsSet.status !== 200) throw new Error(`PUT /admin/map/postals ${postalsSet.status}: ${postalsSet.text}`);
const made = await b.rest('POST', '/admin/apikeys', { name: 'game', scopes: ['calls:call.report', 'units:unit.ingame_position'] });
const gameKey = made.body.key as string;
const reported = await call(b.server.url, 'POST', '/integrations/ingame/calls', { key: gameKey, body: { externalId: 'img:1', kind: 'notruf', title: 'Brand am Hafen', location: { x: 500, y: 0 } } });
if (reported.status !== 200) throw new Error(`report ${reported.status}: ${reported.text}`);
const onDuty = await b.rest('POST', '/admin/clock-in', { badge: '02' });
if (onDuty.status !== 200) throw new Error(`clock-in ${onDuty.status}: ${onDuty.text}`);

/** The screen point of an image pixel, from the image overlay as drawn. */
const screenOfPixel = (page: Page, sel: string, px: number, py: number) => page.locator(`${sel} img.map-image`).evaluate((img, [px, py]) => {
  const r = img.getBoundingClientRect();
  return { x: r.left + (px * r.width) / 800, y: r.top + (py * r.height) / 600 };
}, [px, py] as const);
const centreOf = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
});
const near = (a: { x: number; y: number }, b: { x: number; y: number }, tol = 2) => Math.abs(a.x - b.x) <= tol && Math.abs(a.y - b.y) <= tol;

t.test('a known game coordinate is drawn at its pixel of the calibrated image', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { tab: 'map' });
  await page.locator('#map img.map-image').waitFor();
  await page.waitForFunction(() => (document.querySelector('#map img.map-image') as HTMLImageElement | null)?.complete);
  t.equal(await page.locator('#map .map-grid-label').count(), 0, 'no grid over an image');
  await page.locator('.map-place[data-place="call:img:1"]').waitFor();
  const expected = pixelOf(500, 0);
  t.same(expected, { px: 400, py: 300 });
  const at = await screenOfPixel(page, '#map', expected.px, expected.py);
  const marker = await centreOf(page, '.map-place[data-place="call:img:1"]');
  t.ok(near(marker, at), `the call at game (500, 0) is on image pixel (400, 300): marker ${JSON.stringify(marker)}, pixel ${JSON.stringify(at)}`);

  const put = await call(b.server.url, 'PUT', '/integrations/ingame/positions', { key: gameKey, body: { positions: [{ callsign: 'RTW-1', x: 2000, y: -1000, heading: 0 }] } });
  t.equal(put.status, 200, put.text);
  await page.locator('.map-unit[data-unit="RTW-1"]').waitFor({ timeout: 5000 });
  await page.waitForTimeout(1200);
  const unit = await centreOf(page, '.map-unit[data-unit="RTW-1"] .map-unit-dot');
  const unitAt = await screenOfPixel(page, '#map', 700, 500);
  t.ok(near(unit, unitAt), `the unit at game (2000, −1000) is on pixel (700, 500): ${JSON.stringify(unit)} vs ${JSON.stringify(unitAt)}`);
  await screenshot(page, 'map-image-desk');

  await page.locator('#map-search').fill('PLZ 202');
  await page.locator('#map-search').press('Enter');
  await page.waitForTimeout(800);
  const box = (await page.locator('#map').boundingBox())!;
  const postal = pixelOf(-500, 500);
  const postalAt = await screenOfPixel(page, '#map', postal.px, postal.py);
  t.ok(near(postalAt, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, 3), `PLZ 202 is in the centre (${JSON.stringify(postalAt)})`);
  await page.locator('#map-search').fill('PLZ 999');
  await page.locator('#map-search').press('Enter');
  t.match(await page.locator('#map-search-miss').innerText(), '„PLZ 999“ nicht gefunden');
});

t.test('a sheet\'s location is set by clicking the map: x/y and the nearest postal', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { tab: 'map' });
  await page.locator('.map-place[data-place="call:img:1"]').click();
  await page.locator('#map-take').click();
  await page.locator('#sheet-pick-map').click();
  await page.locator('#map-pick img.map-image').waitFor();
  await page.waitForTimeout(400);
  const target = pixelOf(-480, 520); // beside postal 202 (−500, 500)
  const at = await screenOfPixel(page, '#map-pick', target.px, target.py);
  await screenshot(page, 'map-pick-desk');
  await page.mouse.click(at.x, at.y);
  await page.locator('#map-pick').waitFor({ state: 'detached' });
  const x = Number(await page.locator('#sheet-x').inputValue());
  const y = Number(await page.locator('#sheet-y').inputValue());
  t.ok(Math.abs(x + 480) <= 15 && Math.abs(y - 520) <= 15, `x ${x}, y ${y} where the click was (−480, 520)`);
  t.equal(await page.locator('#sheet-postal').inputValue(), '202', 'the nearest postal');
  await page.locator('#sheet-save').click();
  await page.locator('#sheet-result').getByText('Gespeichert').waitFor().catch(() => {});
  const sheet = await b.rest('GET', '/incidents?state=open');
  const loc = (sheet.body.incidents as { location: { x?: number; postal?: string } }[])[0].location;
  t.equal(loc.postal, '202', 'saved with the sheet');
  t.ok(Math.abs((loc.x ?? 0) + 480) <= 15);
});

t.test('phone: the picker fills the screen', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { tab: 'incidents', viewport: { width: 390, height: 844 } });
  await page.locator('.sheet-list li, #sheets li').first().click().catch(() => {});
  await page.locator('#sheet-pick-map').click();
  await page.locator('#map-pick img.map-image').waitFor();
  const box = (await page.locator('#map-pick').boundingBox())!;
  t.ok(box.width >= 350 && box.height >= 600 && box.y + box.height <= 844, `the picker's map is ${Math.round(box.width)}×${Math.round(box.height)} at y ${Math.round(box.y)}`);
  await screenshot(page, 'map-pick-phone');
  await page.locator('#map-pick-cancel').click();
  await page.locator('#map-pick').waitFor({ state: 'detached' });
});
