import { randomFillSync } from 'node:crypto';
import t from 'tap';
import { createCanvas } from '@napi-rs/canvas';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// Dokumente in a real browser against a real server with the demo guild: an image uploaded through
// the page (a real multipart POST with progress), refused files told in German, a letterhead made
// with that logo whose server-rendered preview loads and follows an edit, a stale edit told and
// reloaded, reordering by the buttons and the keyboard (checked through the API), deleting after
// asking — and a second board that follows every change live.
const b = await demoBoard(t);
const admin = await b.openFor(t, demo.admin, { tab: 'documents' });
const errors: string[] = [];
admin.on('pageerror', (err) => errors.push(err.message));
// The refused upload and the stale save are answered 400/413/415/409 on purpose; Chromium logs each such answer.
admin.on('console', (msg) => msg.type() === 'error' && !/status of (400|409|413|415)/.test(msg.text()) && errors.push(msg.text()));
const other = await b.openFor(t, demo.admin, { tab: 'documents', viewport: { width: 390, height: 844 } });

function logoPng(): Buffer {
  const canvas = createCanvas(240, 120);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#c0392b';
  ctx.fillRect(0, 0, 240, 120);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(100, 20, 40, 80);
  ctx.fillRect(80, 40, 80, 40);
  return canvas.toBuffer('image/png');
}
const naturalWidth = (page: Page, selector: string) => page.locator(selector).evaluate(async (img: HTMLImageElement) => {
  if (!img.complete) await new Promise((r) => { img.onload = r; img.onerror = r; });
  return img.naturalWidth;
});
const letterheadIds = async (): Promise<number[]> => (await b.rest('GET', '/letterheads')).body.letterheads.map((l: { id: number }) => l.id);
let logoId = 0;

t.test('an image uploaded through the page is listed, loads, and shows on the other board live', async (t) => {
  await admin.locator('#documents-uploads #uploads-none').waitFor();
  await admin.setInputFiles('#upload-input', { name: 'wappen.png', mimeType: 'image/png', buffer: logoPng() });
  await admin.locator('#upload-result').getByText('„wappen.png“ hochgeladen.').waitFor();
  const item = admin.locator('#upload-list li[data-upload-name="wappen.png"]');
  await item.waitFor();
  logoId = Number(await item.getAttribute('data-upload-id'));
  t.match(await item.innerText(), /240 × 120 px/, 'with its dimensions');
  t.equal(await naturalWidth(admin, '#upload-list li[data-upload-name="wappen.png"] img'), 240, 'its image loads (the real bytes, 240 px wide)');
  const listed = (await b.rest('GET', '/uploads')).body.uploads;
  t.same(listed.map((u: { id: number; contentType: string }) => [u.id, u.contentType]), [[logoId, 'image/png']], 'the server has it, as PNG');
  await other.locator('#upload-list li[data-upload-name="wappen.png"]').waitFor();
  t.pass('the other board lists it without a reload (topic uploads)');
});

t.test('too large, wrong type and empty files: the server refuses, the page says why in German', async (t) => {
  const big = Buffer.alloc(5 * 1024 * 1024 + 1);
  logoPng().copy(big);
  await admin.setInputFiles('#upload-input', { name: 'riesig.png', mimeType: 'image/png', buffer: big });
  await admin.locator('#upload-result.error').getByText('Die Datei ist zu groß: höchstens 5 MB.').waitFor();
  t.pass('5 MiB + 1 byte: 413, told as too large');
  await screenshot(admin, 'documents-too-large');
  await admin.setInputFiles('#upload-input', { name: 'brief.png', mimeType: 'image/png', buffer: Buffer.from('kein Bild, nur Text\n') });
  await admin.locator('#upload-result.error').getByText(/Dieser Dateityp geht nicht/).waitFor();
  t.pass('text named .png: 415, told as the wrong type');
  await admin.setInputFiles('#upload-input', { name: 'leer.png', mimeType: 'image/png', buffer: Buffer.alloc(0) });
  await admin.locator('#upload-result.error').getByText(/leer|empty/).waitFor();
  t.pass('an empty file: refused with a message');
  t.equal((await b.rest('GET', '/uploads')).body.uploads.length, 1, 'nothing of them was stored');
});

t.test('a letterhead with that logo: preview, edit, stale edit, reorder, delete', async (t) => {
  await admin.click('#letterhead-add');
  await admin.fill('#letterhead-new-name', 'Wache Nord');
  await admin.fill('#letterhead-new-organisation', 'Feuerwehr Musterstadt');
  await admin.fill('#letterhead-new-address', 'Hauptstraße 1\n12345 Musterstadt');
  await admin.selectOption('#letterhead-new-logo', String(logoId));
  await admin.click('#letterhead-new-save');
  await admin.locator('#letterheads-result').getByText('Briefkopf „Wache Nord“ angelegt.').waitFor();
  const created = (await b.rest('GET', '/letterheads')).body.letterheads.find((l: { name: string }) => l.name === 'Wache Nord');
  t.match(created, { organisation: 'Feuerwehr Musterstadt', addressLines: ['Hauptstraße 1', '12345 Musterstadt'], logoUploadId: logoId }, 'stored as entered, with the logo');
  const id = created.id as number;
  const preview = `#letterhead-${id}-preview`;
  t.ok(await naturalWidth(admin, preview) > 0, 'its preview image loads');
  await other.locator(`#letterhead-${id}`).waitFor();
  t.pass('the other board shows it live (topic letterheads)');
  await screenshot(admin, 'documents-letterhead');

  const before = await admin.locator(preview).getAttribute('src');
  await admin.click(`#letterhead-${id}-edit`);
  await admin.fill(`#letterhead-${id}-form-organisation`, 'Berufsfeuerwehr Musterstadt');
  await admin.press(`#letterhead-${id}-form-footer`, 'Tab');
  await admin.click(`#letterhead-${id}-form-save`);
  await admin.locator('#letterheads-result').getByText('Briefkopf „Wache Nord“ gespeichert.').waitFor();
  // The list shows the saved version when it has read it again, which may be a moment after the message.
  await admin.waitForFunction(([sel, old]) => document.querySelector(sel)?.getAttribute('src') !== old, [preview, before] as const, { timeout: 5000 }).catch(() => {});
  const after = await admin.locator(preview).getAttribute('src');
  t.not(after, before, 'the preview is asked for afresh after saving');
  t.ok(await naturalWidth(admin, preview) > 0, 'and loads');

  // Someone else saves while the form is open: the save is refused, the form says so and shows the current state.
  await admin.click(`#letterhead-${id}-edit`);
  const version = (await b.rest('GET', '/letterheads')).body.letterheads.find((l: { id: number }) => l.id === id).version;
  t.equal((await b.rest('PATCH', `/letterheads/${id}`, { version, footer: 'Geändert von jemand anderem' })).status, 200);
  await admin.fill(`#letterhead-${id}-form-organisation`, 'Meine Änderung');
  await admin.click(`#letterhead-${id}-form-save`);
  await admin.locator(`#letterhead-${id}-form-result`).getByText(/Jemand anderes hat diesen Briefkopf inzwischen geändert/).waitFor();
  t.equal(await admin.inputValue(`#letterhead-${id}-form-footer`), 'Geändert von jemand anderem', 'the form now shows the current letterhead');
  t.equal(await admin.inputValue(`#letterhead-${id}-form-organisation`), 'Berufsfeuerwehr Musterstadt', 'not the lost change');
  await screenshot(admin, 'documents-conflict');
  await admin.click(`#letterhead-${id}-form-save`);
  await admin.locator('#letterheads-result').getByText('Briefkopf „Wache Nord“ gespeichert.').waitFor();
  t.pass('saving again (on the current version) works');

  // Two more letterheads from elsewhere appear live; then reorder by button and by keyboard.
  const second = (await b.rest('POST', '/letterheads', { name: 'Rettungswache Süd' })).body.id as number;
  const third = (await b.rest('POST', '/letterheads', { name: 'Wache Ost' })).body.id as number;
  await admin.locator(`#letterhead-${third}`).waitFor();
  t.pass('letterheads created through the API appear live');
  const shownOrder = (page: Page) => page.locator('#letterhead-list > li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-letterhead-id'))));
  const start = await letterheadIds();
  t.same(start.slice(-3), [id, second, third], 'new ones come last');
  t.same(await shownOrder(admin), start, 'the page shows the server\'s order');
  await admin.click(`#letterhead-${third}-up`);
  await admin.locator('#letterheads-order-result').getByText('„Wache Ost“ verschoben.').waitFor();
  t.same((await letterheadIds()).slice(-3), [id, third, second], 'the up button moved it one place (the server\'s order)');
  await admin.locator(`#letterhead-${third}-up`).focus();
  await admin.keyboard.press('Enter');
  await admin.waitForFunction((ids) => Array.from(document.querySelectorAll('#letterhead-list > li')).map((li) => li.getAttribute('data-letterhead-id')).join() === ids,
    [...start.slice(0, -3), third, id, second].join());
  let twice = await letterheadIds();
  for (let i = 0; i < 50 && twice.slice(-3).join() !== [third, id, second].join(); i++) { // the page shows the new order before the server answers
    await admin.waitForTimeout(100);
    twice = await letterheadIds();
  }
  t.same(twice.slice(-3), [third, id, second], 'Enter on the focused button moved it again (the server\'s order)');
  // At the top its up button is disabled: focus goes to its down button instead of getting lost.
  const expected = twice[0] === third ? `letterhead-${third}-down` : `letterhead-${third}-up`;
  await admin.waitForFunction((id) => document.activeElement?.id === id, expected, { timeout: 3000 }).catch(() => {});
  t.equal(await admin.evaluate(() => document.activeElement?.id), expected, 'focus stays with the moved letterhead');
  await other.waitForFunction((ids) => Array.from(document.querySelectorAll('#letterhead-list > li')).map((li) => li.getAttribute('data-letterhead-id')).join() === ids, twice.join());
  t.pass('the other board shows the new order live');

  await admin.click(`#letterhead-${second}-delete`);
  await admin.locator(`#letterhead-${second}`).getByText('Wirklich löschen?').waitFor();
  t.ok((await letterheadIds()).includes(second), 'asking deletes nothing yet');
  await admin.click(`#letterhead-${second}-confirm`);
  await admin.locator('#letterheads-result').getByText('Briefkopf „Rettungswache Süd“ gelöscht.').waitFor();
  t.notOk((await letterheadIds()).includes(second), 'deleted on the server');
  await other.locator(`#letterhead-${second}`).waitFor({ state: 'detached' });
  t.pass('and gone from the other board');
});

t.test('deleting the logo upload clears it; someone with only documents.letterhead.view sees previews, no buttons', async (t) => {
  await admin.click(`#upload-${logoId}-delete`);
  await admin.click(`#upload-${logoId}-confirm`);
  await admin.locator('#upload-result').getByText('„wappen.png“ gelöscht. Ein Briefkopf hat nun kein Logo mehr.').waitFor();
  const nord = (await b.rest('GET', '/letterheads')).body.letterheads.find((l: { name: string }) => l.name === 'Wache Nord');
  t.equal(nord.logoUploadId, null, 'the letterhead that used it has no logo now');
  await other.waitForFunction((id) => (document.getElementById(`letterhead-${id}-preview`) as HTMLImageElement | null)?.src.endsWith('-0') || false, nord.id);
  t.pass('the other board asks for the preview without the logo');
  await other.locator(`#upload-list li[data-upload-id="${logoId}"]`).waitFor({ state: 'detached' });
  t.pass('gone here and on the other board');
  const dispatcher = await b.openFor(t, demo.dispatcher, { tab: 'documents' });
  await dispatcher.locator('#letterhead-list').waitFor();
  t.equal(await dispatcher.locator('#documents-uploads').count(), 0, 'no images (they need settings.manage)');
  t.equal(await dispatcher.locator('#letterhead-add, [id$="-edit"], [id$="-delete"], [id$="-up"]').count(), 0, 'no buttons to change anything');
  const first = await dispatcher.locator('#letterhead-list li').first().getAttribute('data-letterhead-id');
  t.ok(await naturalWidth(dispatcher, `#letterhead-${first}-preview`) > 0, 'the preview loads for them');
  await screenshot(other, 'documents-phone');
  t.ok(await other.evaluate(() => document.documentElement.scrollWidth <= 390), 'the tab fits a phone');
  t.same(errors, [], 'no errors in the console');
});

t.test('drag and drop: an image dropped on the drop zone is uploaded; a letterhead dragged onto another takes its place', async (t) => {
  const jpeg = createCanvas(64, 48).toBuffer('image/jpeg').toString('base64');
  await admin.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'abzeichen.jpg', { type: 'image/jpeg' }));
    const zone = document.getElementById('upload-drop')!;
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, jpeg);
  await admin.locator('#upload-result').getByText('„abzeichen.jpg“ hochgeladen.').waitFor();
  const listed = (await b.rest('GET', '/uploads')).body.uploads;
  t.match(listed, [{ name: 'abzeichen.jpg', contentType: 'image/jpeg', width: 64, height: 48 }], 'stored as a JPEG of 64 × 48');

  const before = await letterheadIds();
  t.ok(before.length >= 2, `two letterheads to order (${before.length})`);
  const [first, second] = before;
  await admin.dragAndDrop(`#letterhead-${second}`, `#letterhead-${first}`);
  let after = await letterheadIds();
  for (let i = 0; i < 50 && after[0] !== second; i++) {
    await admin.waitForTimeout(100);
    after = await letterheadIds();
  }
  t.same(after.slice(0, 2), [second, first], 'dragged onto the first, it is first now (the server\'s order)');
});

t.test('a larger image on a slow line shows its progress; a taken letterhead name is told in German', async (t) => {
  const canvas = createCanvas(400, 400);
  const ctx = canvas.getContext('2d');
  const noise = ctx.createImageData(400, 400);
  randomFillSync(noise.data); // noise does not compress: about 600 KB of PNG
  ctx.putImageData(noise, 0, 0);
  const png = canvas.toBuffer('image/png');
  const cdp = await admin.context().newCDPSession(admin);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
  await admin.setInputFiles('#upload-input', { name: 'rauschen.png', mimeType: 'image/png', buffer: png });
  await admin.locator('#upload-progress').waitFor();
  t.match(await admin.locator('.upload-progress').innerText(), /„rauschen\.png“ wird hochgeladen/, `while ${Math.round(png.length / 1024)} KB go up, the page says so`);
  let seen = 0;
  for (let i = 0; i < 100 && !(seen > 0 && seen < 1); i++) {
    seen = Number(await admin.locator('#upload-progress').getAttribute('value').catch(() => '1'));
    await admin.waitForTimeout(50);
  }
  t.ok(seen > 0 && seen < 1, `the bar shows a part done (${seen.toFixed(2)})`);
  t.equal(await admin.locator('#upload-pick').isDisabled(), true, 'no second upload meanwhile');
  await admin.locator('#upload-result').getByText('„rauschen.png“ hochgeladen.').waitFor({ timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  t.equal(await admin.locator('#upload-progress').count(), 0, 'the bar goes when it is done');

  const taken = (await b.rest('GET', '/letterheads')).body.letterheads[0].name as string;
  await admin.click('#letterhead-add');
  await admin.fill('#letterhead-new-name', taken);
  await admin.press('#letterhead-new-name', 'Enter');
  await admin.locator('#letterhead-new-result').getByText(`Es gibt schon einen Briefkopf „${taken}“. Wähle einen anderen Namen.`).waitFor();
  t.pass('a taken name: 409, told in German, the form stays open');
  await admin.press('#letterhead-new-name', 'Escape');
  await admin.locator('#letterhead-new').waitFor({ state: 'detached' });
  t.pass('Escape closes the form');
});
