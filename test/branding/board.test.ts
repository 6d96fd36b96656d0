import t from 'tap';
import { createCanvas } from '@napi-rs/canvas';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// Einstellungen → Erscheinungsbild in Chromium against the real server: name and colours saved
// and shown at once, an icon made from an upload and back to the default, the server's message on
// a bad upload id.
const b = await demoBoard(t);
const page = await b.open(demo.admin, { tab: 'settings' });
const card = page.locator('#settings-branding');
await card.locator('#branding-form').waitFor();

async function upload(): Promise<string> {
  const c = createCanvas(300, 120);
  const g = c.getContext('2d');
  g.fillStyle = '#1e88e5';
  g.fillRect(0, 0, 300, 120);
  const png = await c.encode('png');
  const [row] = await b.server.sql`insert into uploads (guild_id, name, content_type, size, width, height, data, created_by_kind, created_by_id)
    values (${demo.guildId}, 'wappen.png', 'image/png', ${png.length}, 300, 120, ${png}, 'key', 'test') returning id`;
  return String(row.id);
}

t.test('name and colours: saved, public at once, and this board follows', async (t) => {
  await page.fill('#branding-name', 'Berufsfeuerwehr Los Santos');
  await page.fill('#branding-color', '#2e7d32');
  await page.click('#branding-save');
  await card.locator('#branding-result').getByText('Gespeichert.').waitFor();
  const pub = (await b.rest('GET', `/branding/${demo.guildId}`)).body;
  t.equal(pub.name, 'Berufsfeuerwehr Los Santos');
  t.equal(pub.color, '#2e7d32');
  t.equal(await page.locator('#guild-name').innerText(), 'Berufsfeuerwehr Los Santos', 'the header shows the new name');
  t.equal(await page.evaluate(() => document.documentElement.style.getPropertyValue('--accent')), '#2e7d32', 'the accent colour');
  const audit = await b.server.sql`select data from audit_log where guild_id = ${demo.guildId} and action = 'settings.branding_set' order by id desc limit 1`;
  t.same(audit[0].data, { name: 'Berufsfeuerwehr Los Santos', color: '#2e7d32' }, 'only the edited fields are sent');
});

t.test('the icon from an upload, then the default again; a bad id shows the server\'s message', async (t) => {
  await page.fill('#branding-upload-id', '999999');
  await page.click('#branding-use-upload');
  await card.locator('#branding-icon-result.error').getByText(/999999 is not an upload of this guild/).waitFor();

  const id = await upload();
  await page.fill('#branding-upload-id', id);
  await page.click('#branding-use-upload');
  await card.locator('#branding-icon-result').getByText('Icon gesetzt.').waitFor();
  t.match(await card.locator('#branding-icon-kind').innerText(), `(${id})`);
  const pub = (await b.rest('GET', `/branding/${demo.guildId}`)).body;
  t.equal(await page.locator('#icon').getAttribute('src'), pub.iconUrl, 'the header icon is the new one');
  await page.waitForFunction(() => (document.querySelector('#branding-icon') as HTMLImageElement).naturalWidth === 256);
  t.pass('the preview loaded a 256×256 icon');
  await screenshot(page, 'settings-branding');

  await page.click('#branding-default-icon');
  await card.locator('#branding-icon-result').getByText('Standard-Icon wiederhergestellt.').waitFor();
  t.equal(await card.locator('#branding-icon-kind').innerText(), 'Standard-Icon in der Akzentfarbe');
  t.equal((await b.rest('GET', '/admin/branding')).body.customIcon, false);
});

t.test('the tab order: moved in the card, saved, and this board\'s tabs follow at once', async (t) => {
  const tabs = async () => page.locator('nav.tabs [role=tab]').allInnerTexts();
  const before = await tabs();
  t.ok(before.indexOf('Statistik') > before.indexOf('Einsätze'), 'Statistik after Einsätze by default');
  for (let i = 0; i < 3; i++) await page.click('#branding-tabs li[data-tab=stats] button[aria-label="Statistik nach oben"]');
  await page.click('#branding-tabs-save');
  await card.locator('#branding-tabs-result').getByText('Reihenfolge gespeichert.').waitFor();
  const saved = (await b.rest('GET', `/branding/${demo.guildId}`)).body.tabOrder;
  t.same(saved.slice(0, 3), ['dispatch', 'stats', 'timeclock'], 'public at once');
  const after = await tabs();
  t.ok(after.indexOf('Statistik') < after.indexOf('Stempeluhr'), 'this board shows Statistik before Stempeluhr now');
  await screenshot(page, 'settings-branding-tabs');
});

t.test('another board follows a branding change at once (topic access)', async (t) => {
  const other = await b.open(demo.admin, { tab: 'dispatch' });
  await other.locator('#guild-name').waitFor();
  const res = await b.rest('PATCH', '/admin/branding', { name: 'Wache Nord', color: '#6a1b9a' });
  t.equal(res.status, 200, res.text);
  await other.locator('#guild-name').getByText('Wache Nord').waitFor({ timeout: 5000 });
  t.equal(await other.evaluate(() => document.documentElement.style.getPropertyValue('--accent')), '#6a1b9a', 'the accent colour too');
  await other.close();
});
