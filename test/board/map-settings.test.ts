import t from 'tap';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { insertUpload } from '../letterheads/world.ts';
import { mapImage } from '../helpers/map-image.ts';

// Einstellungen → Karte (issue 31), real Chromium against the real server with the demo guild:
// the admin picks an uploaded image, calibrates it by clicking two places and typing their game
// coordinates, sets the stale time, and uploads a FiveM postal file; refusals show the server's
// reason in German. At desk and phone width.
const b = await demoBoard(t);

const uploadId = String(await insertUpload(b.server.sql, demo.guildId, mapImage(), 800, 600));

/** The card alone (the sticky page header made static, so it does not lie over the card in the shot). */
async function cardShot(page: Awaited<ReturnType<typeof b.open>>, name: string) {
  const style = await page.addStyleTag({ content: 'header.top { position: static !important; }' });
  await page.locator('#settings-map').screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname });
  await style.evaluate((el) => (el as HTMLElement).remove());
}

/** Clicks the image at (fx, fy) of its shown size; the pixel that is on the 800×600 image. */
async function clickAt(page: Awaited<ReturnType<typeof b.open>>, fx: number, fy: number) {
  const img = page.locator('#map-pick-image');
  const box = (await img.boundingBox())!;
  await img.click({ position: { x: box.width * fx, y: box.height * fy } });
  return { px: 800 * fx, py: 600 * fy };
}

t.test('desk: choose the image, click two points, type their coordinates, save; the server has the calibration', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'settings', viewport: { width: 1280, height: 800 } });
  const card = page.locator('#settings-map');
  await card.locator('#map-calibration-now').waitFor();
  t.match(await card.locator('#map-calibration-now').innerText(), /Nicht kalibriert/);
  await page.selectOption('#map-image', uploadId);
  await page.locator('#map-pick-image').waitFor();
  t.equal(await page.locator('#map-pick-image').evaluate((i: HTMLImageElement) => i.naturalWidth), 800, 'the chosen upload is shown');

  // Two points that lie on one line first: the server refuses, the board says why in German.
  await clickAt(page, 0.1, 0.5);
  await clickAt(page, 0.9, 0.5);
  for (const [id, v] of [['1-x', '-3000'], ['1-y', '0'], ['2-x', '3000'], ['2-y', '1000']]) await page.fill(`#map-point-${id}`, v);
  await page.click('#map-image-save');
  await page.locator('#map-image-result.error').getByText('Die beiden Punkte liegen zu nah beieinander', { exact: false }).waitFor();
  t.pass('a bad calibration is refused with the translated reason');

  await page.click('#map-pick-1');
  const p1 = await clickAt(page, 0.125, 0.875);
  await page.click('#map-pick-2');
  const p2 = await clickAt(page, 0.875, 0.125);
  const shown = (await page.locator('#map-point-1-px').innerText()).match(/Bild: (\d+), (\d+) px/)!;
  t.ok(Math.abs(Number(shown[1]) - p1.px) <= 2 && Math.abs(Number(shown[2]) - p1.py) <= 2, `point 1 shown where it was clicked (${shown[0]})`);
  await page.fill('#map-point-1-y', '-3000');
  await page.fill('#map-point-2-y', '3000');
  await page.click('#map-image-save');
  await page.locator('#map-image-result').getByText('Bild und Kalibrierung gespeichert.').waitFor();
  const map = (await b.rest('GET', '/map')).body;
  t.equal(map.image.uploadId, uploadId);
  const [a, c] = map.calibration.points;
  t.ok(Math.abs(a.px - p1.px) <= 2 && Math.abs(a.py - p1.py) <= 2, `point 1 stored at the clicked pixel (${a.px}, ${a.py})`);
  t.ok(Math.abs(c.px - p2.px) <= 2 && Math.abs(c.py - p2.py) <= 2, `point 2 stored at the clicked pixel (${c.px}, ${c.py})`);
  t.same([a.x, a.y, c.x, c.y], [-3000, -3000, 3000, 3000], 'with the typed game coordinates');
  await page.locator('#map-calibration-now').getByText('Kalibriert:', { exact: false }).waitFor();
  t.equal(await page.locator('.map-marker').count(), 2, 'both markers on the image');

  await page.fill('#map-stale', '5');
  await page.click('#map-stale-save');
  await page.locator('#map-stale-result.error').getByText('staleAfterSeconds', { exact: false }).waitFor();
  await page.fill('#map-stale', '120');
  await page.click('#map-stale-save');
  await page.locator('#map-stale-result').getByText('Gespeichert: Positionen gelten nach 120 s als veraltet.').waitFor();
  t.equal((await b.rest('GET', '/map')).body.staleAfterSeconds, 120);

  const postals = [{ code: '101', x: -1148.4921264648438, y: -1596.8839111328125 }, { code: '102', x: 215.5, y: -810.25 }, { code: '8012', x: 1000, y: 2000 }];
  await page.setInputFiles('#map-postals-file', { name: 'postals.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(postals)) });
  await page.locator('#map-postals-in-file').getByText('3 PLZ in der Datei.').waitFor();
  await page.click('#map-postals-replace');
  await page.locator('#map-postals-result').getByText('3 PLZ gespeichert.').waitFor();
  await page.locator('#map-postals-count').getByText('3 PLZ gespeichert.').waitFor();
  const stored = (await b.rest('GET', '/map/postals')).body.postals;
  t.same(stored.map((p: any) => [p.code, p.x, p.y]), [['101', -1148.49, -1596.88], ['102', 215.5, -810.25], ['8012', 1000, 2000]], 'the file\'s entries, at centimetres');

  await page.locator('#settings-map').scrollIntoViewIfNeeded();
  await screenshot(page, 'map-settings-desk');
  await cardShot(page, 'map-settings-desk-card');

  await page.setInputFiles('#map-postals-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify([...postals, { code: '101', x: 1, y: 1 }])) });
  await page.click('#map-postals-replace');
  await page.locator('#map-postals-result.error').getByText('Die PLZ 101 steht zweimal in der Datei', { exact: false }).waitFor();
  await page.setInputFiles('#map-postals-file', { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{oops') });
  await page.locator('#map-postals-file-error').getByText('Die Datei ist kein gültiges JSON.').waitFor();
  t.equal((await b.rest('GET', '/map')).body.postals, 3, 'refused files change nothing');
});

t.test('phone: the card fits 390 px; the stored calibration is shown; clear the postal codes', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'settings', viewport: { width: 390, height: 844 } });
  await page.locator('#map-pick-image').waitFor();
  t.match(await page.locator('#map-calibration-now').innerText(), /Kalibriert: P1 .* = \(-3000, -3000\) · P2 .* = \(3000, 3000\)/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  t.ok(width <= 390, `no sideways scrolling (${width} px)`);
  const box = (await page.locator('#map-pick-image').boundingBox())!;
  t.ok(box.width <= 360 && box.width > 200, `the image fits the phone (${Math.round(box.width)} px)`);
  await cardShot(page, 'map-settings-phone-card');
  await screenshot(page, 'map-settings-phone');
  await page.click('#map-postals-clear');
  await page.click('#map-postals-clear-confirm');
  await page.locator('#map-postals-count').getByText('Keine PLZ gespeichert.').waitFor();
  t.equal((await b.rest('GET', '/map')).body.postals, 0);
});

t.test('a rank with settings.manage and no dispatch.view sees the stored map and changes it', async (t) => {
  t.equal((await b.rest('POST', '/admin/ranks', { id: 'karte', name: 'Karte', position: 3, capabilities: ['settings.manage'] })).status, 200);
  t.equal((await b.rest('POST', '/personnel', { userId: '200000000000000019', nickname: 'Kim Karte', badge: 19, rank: 'karte' })).status, 200);
  const page = await b.openFor(t, '200000000000000019', { tab: 'settings' });
  await page.locator('#map-pick-image').waitFor();
  t.match(await page.locator('#map-calibration-now').innerText(), /Kalibriert: P1 .* = \(-3000, -3000\)/, 'the stored calibration is shown');
  t.equal(await page.locator('#tab-map').count(), 0, 'no Karte tab without dispatch.view');
  await cardShot(page, 'map-settings-settings-only-card');
  await page.fill('#map-stale', '90');
  await page.click('#map-stale-save');
  await page.locator('#map-stale-result').getByText('Gespeichert: Positionen gelten nach 90 s', { exact: false }).waitFor();
  t.equal((await b.rest('GET', '/map')).body.staleAfterSeconds, 90);
});
