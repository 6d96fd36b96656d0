import t from 'tap';
import type { Page } from 'playwright-core';
import { demo, demoBoard } from '../helpers/board.ts';
import { screenshot } from '../helpers/browser.ts';

// Vital signs on the Medic tab are judged against adult normal ranges: a heart rate of 97 and an
// SpO₂ of 97 % read as plain text; values outside (HR 112, SpO₂ 93 %) are amber with an arrow;
// critical ones (HR 150, SpO₂ 84 %, GCS 7) red. In the list, the chart's legend and its tip.
const b = await demoBoard(t);
const now = Date.now() - 60_000;
let seq = 0;
const ev = (citizenId: string, type: string, fields: Record<string, unknown>, at = now) => ({ id: `v-${++seq}`, type, citizenId, at, ...fields });
const patients = {
  CALM1: { heartRate: 97, spo2: 97, systolic: 128, diastolic: 82, respRate: 16, temperature: 37.2, gcs: 15 },
  ODD1: { heartRate: 112, spo2: 93, systolic: 150, diastolic: 95, respRate: 22, temperature: 38.4, gcs: 14 },
  BAD1: { heartRate: 150, spo2: 84, systolic: 75, diastolic: 38, respRate: 32, temperature: 34.5, gcs: 7 },
};
const events = Object.entries(patients).flatMap(([cid, v]) => [ev(cid, 'patient_admitted', { name: `Patient ${cid}` }), ev(cid, 'vitals', v, now + 1000)]);
const res = await b.rest('POST', '/medic/events', { events });
if (res.status !== 200) throw new Error(`events ${res.status}: ${res.text}`);

/** Level and colour of a value shown in the element, and the panel's plain text colour. */
const looks = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const plain = getComputedStyle(document.querySelector('#medic-list-title')!).color;
  const b = el.querySelector('b')!;
  return { level: b.dataset.level, color: getComputedStyle(b).color, plain, text: (el as HTMLElement).innerText };
});
const row = (cid: string, kind: 'hr' | 'spo2') => `#medic-patients [data-citizen="${cid}"] .vital.${kind}`;

for (const scheme of ['light', 'dark'] as const) {
  t.test(`the patient list (${scheme}): normal values plain, others coloured with an arrow`, async (t) => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    t.teardown(() => context.close());
    const page = await b.open(demo.admin, { context, tab: 'medic' });
    await page.locator(row('BAD1', 'hr')).waitFor();

    const calm = await looks(page, row('CALM1', 'hr'));
    t.equal(calm.level, 'normal', 'HR 97 is normal');
    t.equal(calm.color, calm.plain, 'HR 97 in the plain text colour, not red');
    t.notMatch(calm.text, /[↑↓]/, 'no arrow');
    const calmSpo2 = await looks(page, row('CALM1', 'spo2'));
    t.equal(calmSpo2.color, calmSpo2.plain, 'SpO₂ 97 % plain');

    const odd = await looks(page, row('ODD1', 'hr'));
    t.equal(odd.level, 'abnormal', 'HR 112 is abnormal');
    t.not(odd.color, odd.plain, 'and coloured');
    t.match(odd.text, /112 ↑/, 'with an arrow up');
    t.equal((await looks(page, row('ODD1', 'spo2'))).level, 'abnormal', 'SpO₂ 93 % is abnormal');

    const bad = await looks(page, row('BAD1', 'hr'));
    t.equal(bad.level, 'critical', 'HR 150 is critical');
    t.not(bad.color, odd.color, 'red, not amber');
    const badSpo2 = await looks(page, row('BAD1', 'spo2'));
    t.equal(badSpo2.level, 'critical', 'SpO₂ 84 % is critical');
    t.match(badSpo2.text, /84 %\s*↓/);
    await screenshot(page, `medic-vitals-list-${scheme}`);
  });
}

t.test('the file\'s legend judges every vital, temperature and GCS too', async (t) => {
  const page = await b.openFor(t, demo.admin, { tab: 'medic' });
  const levels = async (cid: string) => {
    await page.locator(`#medic-patients [data-citizen="${cid}"]`).click();
    await page.waitForFunction((cid) => document.querySelector('.file-head')?.textContent?.includes(cid), cid);
    return page.locator('#vitals-legend [data-level]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.level));
  };
  t.same(await levels('CALM1'), ['normal', 'normal', 'normal', 'normal', 'normal', 'normal', 'normal'], 'HR, systolic, diastolic, RR, SpO₂, temperature, GCS of a calm patient: all normal');
  t.same(await levels('ODD1'), ['abnormal', 'abnormal', 'abnormal', 'abnormal', 'abnormal', 'abnormal', 'abnormal'], 'all outside the normal range');
  t.same(await levels('BAD1'), ['critical', 'critical', 'critical', 'critical', 'critical', 'critical', 'critical'], 'all critical');
  await screenshot(page, 'medic-vitals-critical-file');
});
