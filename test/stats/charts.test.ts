import t from 'tap';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { closeCharts, formatDuration, renderChart, type ChartSpec, type ChartStyle } from '../../server/domains/stats/charts/index.ts';
import { drawChart } from '../../server/domains/stats/charts/draw.ts';

t.teardown(() => closeCharts());

const H = 3_600_000;
const MIN = 60_000;
/** An accent readable on both backgrounds as it is (contrast ≥ 3 on #2b2d31 and on white), so its exact pixels can be looked for. */
const ACCENT = '#3a7bd5';
const BACKGROUND = { dark: 0x2b2d31, light: 0xffffff };
const style = (width: number, height: number, theme: 'dark' | 'light' = 'dark'): ChartStyle => ({ width, height, theme, color: ACCENT });
const rgb = (hex: string) => parseInt(hex.slice(1), 16);

const people = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `${String(i + 1).padStart(2, '0')} Person ${i + 1}`, ms: Math.round(60 * H / (1 + i * 0.1)) }));
const week = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];
const specs: Record<ChartSpec['kind'], ChartSpec> = {
  bars: { kind: 'bars', title: 'Dienstzeit-Rangliste', subtitle: 'Test · Woche', rows: people(12) },
  share: { kind: 'share', title: 'Anteil an der Dienstzeit', subtitle: 'Test · Woche', slices: [...people(5), { label: 'Andere', ms: 40 * H }] },
  trend: { kind: 'trend', title: 'Dienstzeit im Verlauf', subtitle: 'Test · Woche', labels: week, current: { label: 'Diese Woche', ms: [3, 5, 4, 8, 9, 12, 7].map((h) => h * H) }, previous: { label: 'Vorwoche', ms: [2, 6, 6, 5, 7, 10, 9].map((h) => h * H) } },
  shifts: { kind: 'shifts', title: 'Dienstzeit: 01 Anna', subtitle: 'Test · Woche', labels: week, ms: [2.5 * H, 0, 8 * H, 4 * H, 30 * MIN, 11 * H, 6 * H] },
};
const empties: ChartSpec[] = [
  { kind: 'bars', title: 'Rangliste', subtitle: 'leer', rows: [] },
  { kind: 'share', title: 'Anteil', subtitle: 'leer', slices: [] },
  { kind: 'share', title: 'Anteil', subtitle: 'nur Nullen', slices: [{ label: 'A', ms: 0 }, { label: 'Andere', ms: 0 }] },
  { kind: 'trend', title: 'Verlauf', subtitle: 'leer', labels: [], current: { label: 'Jetzt', ms: [] }, previous: null },
  { kind: 'shifts', title: 'Schichten', subtitle: 'leer', labels: [], ms: [] },
];

/** A decoded PNG: its size, the set of its colours (0xRRGGBB) and a pixel reader. */
async function decode(png: Buffer) {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const colours = new Set<number>();
  for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  const pixel = (x: number, y: number) => { const i = (y * image.width + x) * 4; return (data[i] << 16) | (data[i + 1] << 8) | data[i + 2]; };
  const opaque = data.every((v, i) => i % 4 !== 3 || v === 255);
  return { width: image.width, height: image.height, colours, pixel, opaque };
}

t.test('formatDuration: German hours and minutes, never days', async (t) => {
  const table: [number, string][] = [
    [0, '0 min'], [-5, '0 min'], [Number.NaN, '0 min'], [1, '< 1 min'], [59_000, '< 1 min'], [59_999, '< 1 min'],
    [60_000, '1 min'], [45 * MIN, '45 min'], [59 * MIN + 59_999, '59 min'], [H, '1 h'], [12.5 * H, '12 h 30 min'],
    [72 * H, '72 h'], [100 * H, '100 h'], [100 * H + 5 * MIN, '100 h 5 min'], [1234 * H, '1.234 h'],
  ];
  for (const [ms, text] of table) t.equal(formatDuration(ms), text, `${ms} ms → ${text}`);
});

t.test('each kind renders a PNG of exactly the size asked, in both themes, with the accent colour', async (t) => {
  for (const theme of ['dark', 'light'] as const) {
    for (const spec of Object.values(specs)) {
      const img = await decode(await renderChart(spec, style(800, 500, theme)));
      t.same([img.width, img.height], [800, 500], `${spec.kind} ${theme}: 800×500`);
      t.ok(img.opaque, `${spec.kind} ${theme}: opaque (a transparent PNG is unreadable on Discord)`);
      t.equal(img.pixel(0, 0), BACKGROUND[theme], `${spec.kind} ${theme}: theme background`);
      t.ok(img.colours.has(rgb(ACCENT)), `${spec.kind} ${theme}: the accent colour is drawn`);
      t.ok(img.colours.size > 50, `${spec.kind} ${theme}: not blank (${img.colours.size} colours)`);
    }
  }
});

t.test('the worker draws exactly what drawChart draws in the calling thread', async (t) => {
  for (const spec of Object.values(specs)) {
    t.ok((await renderChart(spec, style(640, 400))).equals(drawChart(spec, style(640, 400))), spec.kind);
  }
});

t.test('no data: title and "Keine Daten im Zeitraum", no chart', async (t) => {
  for (const spec of empties) {
    const img = await decode(await renderChart(spec, style(800, 500)));
    t.same([img.width, img.height], [800, 500]);
    t.notOk(img.colours.has(rgb(ACCENT)), `${spec.kind} (${spec.subtitle}): no bars, slices or lines`);
    let marked = 0; // the message, centred below the header
    for (let x = 250; x < 550; x++) if (img.pixel(x, 290) !== BACKGROUND.dark) marked++;
    t.ok(marked > 20, `${spec.kind} (${spec.subtitle}): the message is drawn in the middle`);
  }
});

t.test('zero values, and series shorter or longer than their labels, render', async (t) => {
  const odd: ChartSpec[] = [
    { kind: 'bars', title: 'Null', subtitle: '', rows: [{ label: 'A', ms: 0 }, { label: 'B', ms: 0 }] },
    { kind: 'share', title: 'Eine', subtitle: '', slices: [{ label: 'A', ms: H }, { label: 'B', ms: 0 }] },
    { kind: 'trend', title: 'Null', subtitle: '', labels: week, current: { label: 'x', ms: week.map(() => 0) }, previous: { label: 'y', ms: [] } },
    { kind: 'trend', title: 'Länger', subtitle: '', labels: week, current: { label: 'x', ms: [H, 2 * H] }, previous: { label: 'y', ms: Array.from({ length: 30 }, () => H) } },
    { kind: 'shifts', title: 'Null', subtitle: '', labels: week, ms: week.map(() => 0) },
    { kind: 'shifts', title: 'Kurz', subtitle: '', labels: week, ms: [H] },
  ];
  for (const spec of odd) t.same((await decode(await renderChart(spec, style(400, 300)))).width, 400, `${spec.kind}: ${spec.title}`);
});

t.test('500 rows: the first ones that fit are drawn, the rest only counted', async (t) => {
  const rows = people(500);
  for (const [w, h] of [[1280, 773], [2000, 2000], [200, 250]]) {
    const img = await decode(await renderChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows }, style(w, h)));
    t.same([img.width, img.height], [w, h], `${w}×${h}`);
    t.ok(img.colours.has(rgb(ACCENT)), `${w}×${h}: bars drawn`);
  }
  // Rows beyond the fitting ones are not drawn: renaming them changes nothing, dropping one changes the count.
  const renamed = rows.map((r, i) => (i >= 100 ? { ...r, label: `Ganz anders ${i}` } : r));
  const a = drawChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows }, style(1280, 773));
  t.ok(a.equals(drawChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows: renamed }, style(1280, 773))), 'hidden rows are not drawn');
  t.notOk(a.equals(drawChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows: rows.slice(0, 499) }, style(1280, 773))), '"+ N weitere" counts them');
});

t.test('names: emoji and characters the font lacks are left out, long names cut with "…"', async (t) => {
  const bars = (labels: string[]): ChartSpec => ({ kind: 'bars', title: 'Namen', subtitle: '', rows: labels.map((label, i) => ({ label, ms: (10 - i) * H })) });
  const s = style(800, 500);
  t.ok(drawChart(bars(['Dora 🚑 Delta', 'Ben👮‍♂️', '  Cem\tCharlie\u0000 ']), s).equals(drawChart(bars(['Dora Delta', 'Ben', 'Cem Charlie']), s)),
    'emoji (also joined ones), control characters and extra white space do not show as boxes');
  t.ok(drawChart(bars(['Ä'.repeat(2000)]), s).equals(drawChart(bars(['Ä'.repeat(300)]), s)), 'a very long name is cut to the same width');
  t.notOk(drawChart(bars(['Äb']), s).equals(drawChart(bars(['Äc']), s)), 'different short names differ');
  const odd = await decode(await renderChart(bars(['🚓🚓🚓', '李小龙', 'Zoë Ñandú', 'x'.repeat(10_000)]), s));
  t.equal(odd.width, 800, 'a name with nothing drawable renders (as "?")');
});

t.test('extreme but valid sizes never throw', async (t) => {
  const sizes = [[1000, 50], [50, 1000], [250, 200], [200, 250], [500, 100], [100, 500], [2000, 2000], [4000, 1000], [1, 1], [16_384, 1]];
  for (const [w, h] of sizes) {
    for (const spec of [...Object.values(specs), empties[0]]) {
      const img = await decode(await renderChart(spec, style(w, h, 'light')));
      t.same([img.width, img.height], [w, h], `${spec.kind} ${w}×${h}`);
    }
  }
});

t.test('sizes out of bounds are refused before any drawing', async (t) => {
  for (const [w, h] of [[0, 100], [100, 0], [10.5, 100], [2001, 2000], [16_385, 10], [Number.NaN, 5]]) {
    await t.rejects(renderChart(specs.bars, style(w, h)), RangeError, `${w}×${h}`);
    t.throws(() => drawChart(specs.bars, style(w, h)), RangeError);
  }
  const odd = await decode(await renderChart(specs.bars, { width: 300, height: 200, theme: 'light', color: 'red' }));
  t.ok(odd.colours.has(0x5865f2), 'a colour that is not #rrggbb falls back to the default accent');
});

t.test('20 concurrent renders all succeed, each with its own size', async (t) => {
  const kinds = Object.values(specs);
  const pngs = await Promise.all(Array.from({ length: 20 }, (_, i) => renderChart(kinds[i % 4], style(300 + i * 10, 250))));
  for (const [i, png] of pngs.entries()) t.equal((await decode(png)).width, 300 + i * 10, `render ${i}`);
});

t.test('rendering runs off the event loop', async (t) => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = performance.now();
  await renderChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows: people(500) }, style(2000, 2000));
  const took = performance.now() - started;
  clearInterval(timer);
  t.ok(ticks >= Math.min(3, Math.floor(took / 20)), `timers ran during a ${took.toFixed(0)} ms render (${ticks} ticks)`);
});

t.test('at most 32 renders wait: more are refused with 503 at once', async (t) => {
  // All 40 are asked for before the first is answered: one renders, 32 wait, 7 are refused.
  const results = await Promise.allSettled(Array.from({ length: 40 }, () => renderChart(specs.bars, style(400, 300))));
  const refused = results.filter((r) => r.status === 'rejected');
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 33, 'one rendering and 32 waiting are served');
  t.equal(refused.length, 7);
  for (const r of refused) t.match((r as PromiseRejectedResult).reason, { code: 'SERVICE_UNAVAILABLE', retryAfterS: 1 });
  t.equal((await decode(await renderChart(specs.bars, style(300, 200)))).width, 300, 'the pool serves again afterwards');
});

t.test('closeCharts mid-render fails that render with 503; the next render gets a new worker', async (t) => {
  const running = t.rejects(renderChart({ kind: 'bars', title: 'Rangliste', subtitle: 'alle', rows: people(500) }, style(2000, 2000)), { code: 'SERVICE_UNAVAILABLE' });
  const waiting = t.rejects(renderChart(specs.share, style(400, 300)), { code: 'SERVICE_UNAVAILABLE' });
  await closeCharts();
  await closeCharts(); // twice is fine
  await running;
  await waiting;
  t.equal((await decode(await renderChart(specs.trend, style(400, 300)))).width, 400);
});
