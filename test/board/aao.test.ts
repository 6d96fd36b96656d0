import t from 'tap';
import { demo, demoBoard } from '../helpers/board.ts';
import { join } from 'node:path';
import { screenshot, screenshotDir } from '../helpers/browser.ts';

// AAO on the board (issue 29), real Chromium against the real server with the demo guild (its
// fire and rescue AAO: RTW-1, RTW-2, NEF-1, HLF-1 typed): the admin edits a keyword in
// Einstellungen, a dispatcher opens a sheet with that keyword, sees the proposal with what is
// missing, changes it, and alarms it with one click; the units are alarmed.
const b = await demoBoard(t);
const admin = await b.open(demo.admin, { tab: 'settings' });
const kw = admin.locator('#aao-keywords [data-keyword="RD 2 NEF"]');

t.test('Einstellungen: edit a keyword\'s units and priority; the server has it', async (t) => {
  await kw.waitFor();
  t.match(await kw.innerText(), /P1[\s\S]*RD 2 NEF[\s\S]*1× RTW, 1× NEF/, 'the keyword with what it sends');
  t.equal(await admin.locator('#aao-types tr[data-type]').count(), 6, 'the template\'s six unit types');
  t.ok(await admin.locator('#aao-available-1').isChecked() && await admin.locator('#aao-available-2').isChecked(), 'FMS 1 and 2 are available');
  t.notOk(await admin.locator('#aao-available-3').isChecked());
  const id = (await kw.getAttribute('id'))!;
  await admin.click(`#${id}-edit`);
  await admin.fill(`#${id}-count-0`, '2');
  await admin.click(`#${id}-add-row`);
  await admin.selectOption(`#${id}-type-2`, 'DLK');
  await admin.selectOption(`#${id}-priority`, '2');
  await admin.click(`#${id}-save`);
  await admin.locator(`#${id}-result`).getByText('Stichwort „RD 2 NEF“ gespeichert.').waitFor();
  t.match(await kw.innerText(), /P2[\s\S]*2× RTW, 1× NEF, 1× DLK/, 'the row shows the saved keyword');
  const stored = (await b.rest('GET', '/admin/keywords')).body.keywords.find((k: any) => k.keyword === 'RD 2 NEF');
  t.same(stored.requirements, [{ type: 'RTW', count: 2 }, { type: 'NEF', count: 1 }, { type: 'DLK', count: 1 }]);
  t.equal(stored.priority, 2);
  await admin.locator('#settings-aao').scrollIntoViewIfNeeded();
  await admin.locator('#settings-aao').screenshot({ path: join(screenshotDir, 'aao-settings-desk.png') });
  await screenshot(admin, 'aao-settings-desk-page');
});

t.test('a type made in settings is offered for units; a unit typed there is typed on the server', async (t) => {
  await admin.fill('#aao-type-new-code', 'ITW');
  await admin.fill('#aao-type-new-label', 'Intensivtransportwagen');
  await admin.click('#aao-type-new-save');
  await admin.locator('#aao-types tr[data-type="ITW"]').waitFor();
  t.equal(await admin.locator('#aao-units').getAttribute('open'), null, 'every unit is typed: the list is folded');
  await admin.click('#aao-units summary');
  await admin.selectOption('#aao-unit-HLF-1', 'ITW');
  await admin.locator('#aao-units-result').getByText('HLF-1 ist jetzt ITW.').waitFor();
  t.equal((await b.rest('GET', '/units')).body.units.find((u: any) => u.callsign === 'HLF-1').type, 'ITW');
  await admin.selectOption('#aao-unit-HLF-1', 'HLF');
  await admin.locator('#aao-units-result').getByText('HLF-1 ist jetzt HLF.').waitFor();
  await admin.click('#aao-type-ITW-delete');
  await admin.click('#aao-type-ITW-confirm');
  await admin.locator('#aao-types tr[data-type="ITW"]').waitFor({ state: 'detached' });
  t.notOk((await b.rest('GET', '/admin/unit-types')).body.types.some((x: any) => x.code === 'ITW'), 'deleted on the server');
});

t.test('the sheet proposes units, names what is missing; the dispatcher changes it and alarms with one click', async (t) => {
  const made = await b.rest('POST', '/incidents', { keyword: 'RD 2 NEF', location: { street: 'Hafenstraße 3', postal: '20457', text: 'Hinterhof' } });
  t.equal(made.status, 200);
  t.equal(made.body.priority, 2, 'the sheet took the keyword\'s new default priority');
  const n = made.body.number as number;
  const desk = await b.openFor(t, demo.dispatcher, { tab: 'incidents' });
  await desk.click(`[data-sheet="${n}"]`);
  const panel = desk.locator('#sheet-proposal');
  await panel.waitFor();
  t.match(await desk.locator('#proposal-matched').innerText(), /Stichwort „RD 2 NEF“ · Priorität 2/);
  t.same(await desk.locator('#proposal-missing li').allInnerTexts(), ['DLK fehlt'], 'the missing type is named');
  const proposed = () => desk.locator('#proposal-units input[data-propose]:checked').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).dataset.propose));
  t.same(await proposed(), ['RTW-1', 'RTW-2', 'NEF-1'], 'two RTW in station order, the NEF');
  t.match(await desk.locator('#proposal-alarm').innerText(), /Vorschlag alarmieren\s*3/);
  await screenshot(desk, 'aao-proposal-desk');

  await desk.uncheck('input[data-propose="RTW-2"]');
  t.match(await desk.locator('#proposal-alarm').innerText(), /Vorschlag alarmieren\s*2/, 'the count follows the change');
  await desk.click('#proposal-alarm');
  await desk.locator('#proposal-result').getByText('Alarmiert: RTW-1, NEF-1.').waitFor();
  const units = (await b.rest('GET', '/units')).body.units;
  const status = (c: string) => units.find((u: any) => u.callsign === c).status;
  t.same([status('RTW-1'), status('NEF-1'), status('RTW-2')], ['A', 'A', '2'], 'the ticked units are alarmed, the unticked one not');
  await desk.locator('#sheet-units [data-unit="RTW-1"]').waitFor();
  await desk.locator('#sheet-units [data-unit="NEF-1"]').waitFor();
  // The proposal is read again: the RTW and NEF on the sheet count; one RTW and the DLK are still wanted.
  await desk.locator('.proposal-on-sheet').getByText('schon im Einsatz: RTW-1, NEF-1').waitFor();
  t.same(await proposed(), ['RTW-2'], 'the second RTW is proposed again');
  t.same(await desk.locator('#proposal-missing li').allInnerTexts(), ['DLK fehlt']);
  await screenshot(desk, 'aao-proposal-after-alarm-desk');
});

t.test('the proposal on a phone', async (t) => {
  const made = await b.rest('POST', '/incidents', { keyword: 'TH VU eingeklemmt B 73', location: 'Autobahn A7, km 12' });
  const phone = await b.openFor(t, demo.dispatcher, { tab: 'incidents', viewport: { width: 390, height: 844 } });
  await phone.click(`[data-sheet="${made.body.number}"]`);
  await phone.locator('#sheet-proposal').waitFor();
  t.same(await phone.locator('#proposal-missing li').allInnerTexts(), ['ELW fehlt', 'HLF fehlt', 'NEF fehlt'], 'no ELW, one HLF of two, the NEF is on the other sheet');
  const box = await phone.locator('#proposal-alarm').boundingBox();
  t.ok(box && box.width > 300, 'the alarm button spans the phone');
  await screenshot(phone, 'aao-proposal-phone');
  const settings = await b.openFor(t, demo.admin, { tab: 'settings', viewport: { width: 390, height: 844 } });
  await settings.locator('#settings-aao').scrollIntoViewIfNeeded();
  await settings.locator('#settings-aao').screenshot({ path: join(screenshotDir, 'aao-settings-phone.png') });
});
