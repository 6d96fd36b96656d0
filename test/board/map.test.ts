import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';
import { call } from '../helpers/server.ts';

// Karte in a real browser against the real server: the grid without a map image, the open calls
// where the game reported them (panic pulsing), Übernehmen from a call's details; units placed by
// the positions the game PUTs, followed as they move. Leaflet and the map's code load only when
// the map is first shown.
const b = await demoBoard(t);
const made = await b.rest('POST', '/admin/apikeys', { name: 'game', scopes: ['calls:call.report', 'units:unit.ingame_position'] });
const gameKey = made.body.key as string;
const report = async (body: Record<string, unknown>) => {
  const res = await call(b.server.url, 'POST', '/integrations/ingame/calls', { key: gameKey, body });
  if (res.status !== 200) throw new Error(`report ${res.status}: ${res.text}`);
};
const putPositions = (positions: Record<string, unknown>[]) => call(b.server.url, 'PUT', '/integrations/ingame/positions', { key: gameKey, body: { positions } });

await report({ externalId: 'm:1', kind: 'notruf', title: 'Verkehrsunfall Legion Square', location: { street: 'Vespucci Blvd', x: 200, y: -900 } });
await report({ externalId: 'm:panic', kind: 'panik', title: 'Panikknopf Streife 7', location: { x: -1000, y: 2000 } });
await report({ externalId: 'm:text', kind: 'hinweis', title: 'Ohne Koordinaten', location: 'irgendwo' });
const onDuty = await b.rest('POST', '/admin/clock-in', { badge: '02' });
if (onDuty.status !== 200) throw new Error(`clock-in ${onDuty.status}: ${onDuty.text}`);

/** Centre of an element on the page. */
const centre = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
});
const placeCentre = (page: Page, key: string) => page.locator(`.map-place[data-place="${key}"] .map-place-badge`).evaluate((el) => {
  const r = (el.parentElement as HTMLElement).getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
});

t.test('the map loads on first show: the grid, the calls where the game put them, panic pulsing', async (t) => {
  const page = await b.openFor(t, demo.dispatcher);
  t.equal(await page.evaluate(() => 'L' in window), false, 'Leaflet is not loaded with the board');
  t.equal(await page.locator('#map-styles').count(), 0, 'nor its style sheet');
  await page.locator('#tab-map').click();
  await page.locator('#map .map-grid-label').first().waitFor();
  t.equal(await page.evaluate(() => 'L' in window), true, 'Leaflet loaded with the map');
  t.equal(await page.locator('#map-styles').count(), 1, 'its style sheet too');
  t.ok(await page.locator('#map .map-grid-label', { hasText: 'X 2000' }).count(), 'the grid is labelled in game coordinates');
  /** The grid's edge labels (X along the bottom, the top Y) cut off by the map's box. */
  const edgeLabels = () => page.locator('#map').evaluate((map) => {
    const box = map.getBoundingClientRect();
    const labels = Array.from(map.querySelectorAll('.map-grid-label.gx'), (el) => el.getBoundingClientRect());
    const top = Array.from(map.querySelectorAll('.map-grid-label.gy')).find((el) => el.textContent === 'Y 9000')?.getBoundingClientRect();
    return { count: labels.length, hidden: labels.filter((r) => r.bottom > box.bottom || r.top < box.top).length, topHidden: !top || top.top < box.top };
  });
  const xLabels = await edgeLabels();
  t.ok(xLabels.count > 0 && xLabels.hidden === 0 && !xLabels.topHidden, `the X labels along the bottom and the top Y are in sight from the start (${xLabels.hidden} of ${xLabels.count} cut off)`);
  // A map nobody has moved follows its box: a shorter window fits it anew, edges included.
  await page.setViewportSize({ width: 1400, height: 640 });
  await page.waitForTimeout(300);
  const shorter = await edgeLabels();
  t.ok(shorter.hidden === 0 && !shorter.topHidden, `a shorter window still shows the whole grid (${shorter.hidden} X labels cut off, top ${shorter.topHidden ? 'cut off' : 'in sight'})`);
  await page.locator('.map-place[data-place="call:m:1"]').waitFor();
  t.equal(await page.locator('.map-place[data-place="call:m:text"]').count(), 0, 'a call without coordinates has no marker');
  // Game north is up, east to the right: the panic (-1000, 2000) is left of and above the crash (200, -900).
  const crash = await placeCentre(page, 'call:m:1');
  const panic = await placeCentre(page, 'call:m:panic');
  t.ok(panic.x < crash.x && panic.y < crash.y, `panic at ${JSON.stringify(panic)} is up-left of the crash at ${JSON.stringify(crash)}`);
  const ratio = (crash.x - panic.x) / (crash.y - panic.y);
  t.ok(Math.abs(ratio - 1200 / 2900) < 0.05, `one scale on both axes (dx/dy ${ratio.toFixed(3)})`);
  t.equal(await page.locator('.map-place[data-place="call:m:panic"]').evaluate((el) => getComputedStyle(el, '::after').animationName), 'map-panic', 'the panic call pulses');
  await screenshot(page, 'map-grid-desk');
  // Once the person has moved it, the view is theirs: a new size keeps its zoom and its centre
  // (Leaflet's own rule on a window resize), instead of fitting the grid again.
  const view = () => page.evaluate(() => {
    const { map } = [...(window as unknown as { dtMap: { scenes: Set<{ scene: { map: { getZoom(): number; getCenter(): { lat: number; lng: number } } } }> } }).dtMap.scenes][0].scene;
    const c = map.getCenter();
    return { zoom: map.getZoom(), lat: Math.round(c.lat), lng: Math.round(c.lng) };
  });
  const box = (await page.locator('#map').boundingBox())!;
  const fitted = await view();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(600); // the drag's inertia runs out
  const dragged = await view();
  t.notSame(dragged, fitted, 'the drag moved the map');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForTimeout(300);
  t.same(await view(), dragged, 'after a drag a taller window keeps its zoom and centre');
});

t.test('a call marker opens its details; Übernehmen takes it into an incident sheet', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { tab: 'map' });
  await page.locator('.map-place[data-place="call:m:1"]').click();
  await page.locator('#map-details[data-kind="call"]').waitFor();
  t.match(await page.locator('#map-details').innerText(), /Verkehrsunfall Legion Square[\s\S]*Vespucci Blvd/);
  await screenshot(page, 'map-call-details-desk');
  await page.locator('#map-take').click();
  await page.locator('#tab-incidents[aria-selected="true"]').waitFor();
  await page.locator('#sheet-keyword').waitFor();
  t.equal(await page.locator('#sheet-keyword').inputValue(), 'Verkehrsunfall Legion Square', 'the sheet made of the call is open');
  const calls = await b.rest('GET', '/calls');
  t.notOk((calls.body.calls as { externalId: string }[]).some((c) => c.externalId === 'm:1'), 'the call is taken: no longer open');
});

t.test('the map\'s positions come over the board\'s own WebSocket: one connection per board', async (t) => {
  const page = await b.openFor(t, demo.dispatcher);
  const sockets: string[] = [];
  page.on('websocket', (ws) => void sockets.push(ws.url()));
  await page.reload();
  await page.locator('#connection.conn-live').waitFor();
  await page.waitForTimeout(500); // and the alarm feed's socket
  const before = sockets.length; // the board's live.watch and the alarm feed's me.alarm.watch
  await page.locator('#tab-map').click();
  await page.locator('#map .map-grid-label').first().waitFor();
  t.equal((await putPositions([{ callsign: 'RTW-1', x: 10, y: 10 }])).status, 200);
  await page.locator('.map-unit[data-unit="RTW-1"]').waitFor({ timeout: 5000 });
  t.equal(sockets.length, before, `the map opened no WebSocket of its own (${sockets.join(', ')})`);
});

t.test('units are placed by the positions the game PUTs and followed as they move', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { tab: 'map' });
  await page.locator('#map .map-grid-label').first().waitFor();
  const put = await putPositions([
    { callsign: 'RTW-1', x: 0, y: 0, heading: 0 },
    { callsign: 'RTW-2', x: 1000, y: 0, heading: 90 },
    { callsign: 'NEF-1', x: 0, y: 1000, heading: 180 },
  ]);
  t.equal(put.status, 200, put.text);
  await page.locator('.map-unit[data-unit="NEF-1"]').waitFor({ timeout: 5000 });
  await page.waitForTimeout(1200); // markers glide for up to a second
  const a = await centre(page, '.map-unit[data-unit="RTW-1"] .map-unit-dot');
  const east = await centre(page, '.map-unit[data-unit="RTW-2"] .map-unit-dot');
  const north = await centre(page, '.map-unit[data-unit="NEF-1"] .map-unit-dot');
  t.ok(Math.abs(east.y - a.y) < 2 && east.x > a.x, '+x is to the right');
  t.ok(Math.abs(north.x - a.x) < 2 && north.y < a.y, '+y is up');
  t.ok(Math.abs((east.x - a.x) - (a.y - north.y)) < 2, 'the same scale on both axes');
  const origin = await page.locator('#map .map-grid-label.gxy').count();
  t.ok(origin > 0);
  const colour = await page.locator('.map-unit[data-unit="RTW-1"]').evaluate((el) => getComputedStyle(el).getPropertyValue('--unit').trim());
  const statuses = await b.rest('GET', '/admin/statuses');
  const two = (statuses.body.statuses as { code: string; color: string }[]).find((s) => s.code === '2')!;
  t.equal(colour, two.color, 'in the colour of its status');
  t.match(await page.locator('.map-unit[data-unit="RTW-2"] .map-unit-arrow').evaluate((el) => (el as HTMLElement).style.transform), 'rotate(270deg)', 'heading 90 (west in GTA) points left');

  // Follow: the unit stays in the centre as it moves; a drag ends following.
  await page.locator('.map-unit[data-unit="RTW-1"]').click();
  await page.locator('#map-follow').click();
  await page.locator('#map-following').waitFor();
  for (let i = 1; i <= 3; i++) {
    t.equal((await putPositions([{ callsign: 'RTW-1', x: 300 * i, y: 200 * i, heading: 45 }])).status, 200);
    await page.waitForFunction((x) => document.querySelector('#map-unit-position')?.textContent?.includes(`X ${x}`), 300 * i, { timeout: 5000 });
  }
  await page.waitForTimeout(1500);
  const box = await page.locator('#map').boundingBox();
  const unit = await centre(page, '.map-unit[data-unit="RTW-1"] .map-unit-dot');
  t.ok(Math.abs(unit.x - (box!.x + box!.width / 2)) < 6 && Math.abs(unit.y - (box!.y + box!.height / 2)) < 6, `the followed unit is in the centre (${JSON.stringify(unit)}, map ${JSON.stringify(box)})`);
  await screenshot(page, 'map-units-desk');
  await page.mouse.move(box!.x + 100, box!.y + box!.height - 60);
  await page.mouse.down();
  await page.mouse.move(box!.x + 300, box!.y + box!.height - 160, { steps: 5 });
  await page.mouse.up();
  t.equal(await page.locator('#map-following').count(), 0, 'a drag ends following');

  // Search: a callsign jumps there.
  await page.locator('#map-search').fill('nef 1');
  await page.locator('#map-search').press('Enter');
  await page.locator('#map-details[data-id="NEF-1"]').waitFor();
  t.pass('the search found NEF-1');
});

t.test('phone width: the map fills the screen, its controls are reachable', async (t) => {
  const page = await b.openFor(t, demo.dispatcher, { viewport: { width: 390, height: 844 } });
  await page.locator('#tab-map').focus();
  await page.keyboard.press('Enter');
  await page.locator('#map .map-grid-label').first().waitFor();
  const box = (await page.locator('#map').boundingBox())!;
  t.ok(box.width >= 340 && box.height >= 500, `the map is ${box.width}×${box.height}`);
  t.ok(box.y + box.height <= 844, 'within the screen');
  const zoom = (await page.locator('#map .leaflet-control-zoom-in').boundingBox())!;
  t.ok(zoom.y + zoom.height <= 844 && zoom.x + zoom.width <= 390, 'zoom in is on screen');
  // The grid fills the width here: every label shown is in sight, clear of the others and of the zoom buttons.
  const labels = await page.locator('#map').evaluate((map) => {
    const inside = map.getBoundingClientRect();
    const buttons = map.querySelector('.leaflet-control-zoom')!.getBoundingClientRect();
    const all = Array.from(map.querySelectorAll('.map-grid-label'), (el) => ({ text: el.textContent!, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0);
    return {
      count: all.length,
      overlapping: all.flatMap((a, i) => all.slice(i + 1).filter((b) => a.r.left < b.r.right && a.r.right > b.r.left && a.r.top < b.r.bottom && a.r.bottom > b.r.top).map((b) => `${a.text} / ${b.text}`)),
      cut: all.filter(({ r }) => r.left < inside.left || r.right > inside.right || r.top < inside.top || r.bottom > inside.bottom).map((l) => l.text),
      covered: all.filter(({ r }) => r.left < buttons.right && r.right > buttons.left && r.top < buttons.bottom && r.bottom > buttons.top).map((l) => l.text),
    };
  });
  t.ok(labels.count >= 15, `${labels.count} grid labels shown`);
  t.same(labels.overlapping, [], 'no two grid labels overlap');
  t.same(labels.cut, [], 'no grid label is cut off by the map\'s edge');
  t.same(labels.covered, [], 'no grid label lies under the zoom buttons');
  await page.locator('.map-place[data-place="call:m:panic"]').click();
  await page.locator('#map-details').waitFor();
  const details = (await page.locator('#map-details').boundingBox())!;
  t.ok(details.x >= 0 && details.x + details.width <= 390 && details.y + details.height <= 844, 'the details fit on the screen');
  await screenshot(page, 'map-phone');
});

t.test('a wide calls tab has the map beside the list; a narrower one loads no map', async (t) => {
  const narrow = await b.openFor(t, demo.dispatcher, { tab: 'calls', viewport: { width: 1280, height: 800 } });
  await narrow.locator('#calls').waitFor();
  t.equal(await narrow.locator('#map-side').count(), 0, 'no map at 1280 px');
  t.equal(await narrow.evaluate(() => 'L' in window), false, 'nor Leaflet');
  await screenshot(narrow, 'map-calls-1280');
  const wide = await b.openFor(t, demo.dispatcher, { tab: 'calls', viewport: { width: 1600, height: 900 } });
  await wide.locator('#map-side .map-place[data-place="call:m:panic"]').waitFor();
  const list = (await wide.locator('#calls').boundingBox())!;
  const map = (await wide.locator('#map-side').boundingBox())!;
  t.ok(map.x > list.x + list.width - 1, 'the map is beside the list');
  t.ok(map.height > 500, `and tall (${map.height} px)`);
  await wide.locator('#map-side .map-place[data-place="call:m:panic"]').click();
  t.match(await wide.locator('#map-details').innerText(), 'Panikknopf Streife 7', 'its markers open their details there too');
  await screenshot(wide, 'map-calls-wide');
});
