import t from 'tap';
import { leaderboardSpec, personSpec } from '../../server/domains/stats/chart-images.ts';
import { closeCharts } from '../../server/domains/stats/charts/index.ts';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import type { Leaderboard, PersonStats } from '../../server/domains/stats/service.ts';
import { seedDemoHistory } from '../../server/seed/demo.ts';
import { demo, demoBoard } from '../helpers/board.ts';

// Server-drawn charts follow the board's language: `lang=en|de` on the chart routes (German when
// absent: Discord, old links); a public chart link keeps the language it was made with.
t.teardown(() => closeCharts());
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, 'LG', [{ userId: 'u1', nickname: 'Ulla', badge: '1', rank: 'crew' }, { userId: 'boss', nickname: 'Boss', admin: true }]);
const key = await unscopedKey(server.sql, 'LG');
const boss = await signIn(server, 'LG', 'boss');
await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values ('LG', 'u1', now() - interval '3 hours', now() - interval '1 hour', 'CLOSED')`;

t.test('the chart texts in English and German', async (t) => {
  const board = (await api('GET', '/stats/leaderboard?period=weekly', { key })).body as Leaderboard;
  const en = leaderboardSpec('bars', board, 'Station', 'en');
  t.equal(en.title, 'Duty-time leaderboard');
  t.match(en.subtitle, /^Station · Week \d\d\/\d\d\/\d{4} – \d\d\/\d\d\/\d{4} · 2 h by 1 person$/);
  t.equal(leaderboardSpec('bars', board, 'Station').title, 'Dienstzeit-Rangliste', 'German without a language');
  const trend = leaderboardSpec('trend', board, 'Station', 'en') as Extract<ReturnType<typeof leaderboardSpec>, { kind: 'trend' }>;
  t.equal(trend.title, 'Duty time over time');
  t.equal(trend.current.label, 'This period');
  t.match(trend.labels[0], /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d\/\d\d$/, `weekday buckets in English (${trend.labels[0]})`);
  t.notMatch(JSON.stringify(trend), /Dienstzeit|Vorher|Dieser|Woche|Personen|\b(Di|Mi|Do|So)\b/, 'no German word left');
  const person = (await api('GET', '/stats/user/u1?period=monthly', { key })).body as PersonStats;
  const shifts = personSpec('shifts', person, 'Station', 'en');
  t.equal(shifts.title, 'Duty time: 01 Ulla');
  t.match(shifts.subtitle, / · Month .* in 1 shift$/);
  t.equal(personSpec('trend', person, 'Station', 'en').title, 'Trend: 01 Ulla');
});

t.test('lang on the chart routes: en and de draw different images, anything else is a 400', async (t) => {
  const png = async (path: string) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    t.equal(res.status, 200, `${path}: ${res.status}`);
    t.equal(res.headers.get('content-type'), 'image/png');
    return Buffer.from(await res.arrayBuffer());
  };
  for (const path of ['/stats/leaderboard/chart/bars.png', '/stats/leaderboard/chart/share.png', '/stats/user/u1/chart/trend.png']) {
    const de = await png(`${path}?maxPixels=60000`);
    const en = await png(`${path}?maxPixels=60000&lang=en`);
    t.notOk(en.equals(de), `${path}: the English image is not the German one`);
    t.ok((await png(`${path}?maxPixels=60000&lang=de`)).equals(de), `${path}: lang=de is the default`);
  }
  const bad = await api('GET', '/stats/leaderboard/chart/bars.png?lang=fr', { key });
  assertError(t, bad, 400, 'lang=fr');
  t.match(bad.body.error, /lang must be de or en/);
  const json = await api('GET', '/stats/leaderboard?charts=true&maxPixels=50000&lang=en', { key });
  t.equal(json.status, 200, 'the JSON with embedded charts takes lang too');
});

t.test('a public chart link keeps its language; without one it is German', async (t) => {
  const made = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/stats/chart-links', { session: boss, body: { chart: 'leaderboard/bars', period: 'weekly', maxPixels: 60000, ...body } });
    t.equal(res.status, 200, res.text);
    return Buffer.from(await (await fetch(res.body.url)).arrayBuffer());
  };
  const route = async (q: string) => Buffer.from(await (await fetch(`${server.url}/api/v1/stats/leaderboard/chart/bars.png?period=weekly&maxPixels=60000${q}`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
  t.ok((await made({ lang: 'en' })).equals(await route('&lang=en')), 'an English link draws the English chart');
  t.ok((await made({})).equals(await route('')), 'a link without a language draws the German one');
  assertError(t, await api('POST', '/stats/chart-links', { session: boss, body: { chart: 'leaderboard/bars', lang: 'xx' } }), 400, 'an unknown language is refused');
});

t.test('the English board asks for English charts, the German one for German', async (t) => {
  const b = await demoBoard(t);
  await seedDemoHistory(b.server.deps.db);
  for (const lang of ['en', 'de'] as const) {
    const page = await b.openFor(t, demo.admin, { lang, tab: 'stats' });
    const img = page.locator('.chart-box img').first();
    await img.waitFor();
    const src = new URL((await img.getAttribute('src'))!, b.server.url);
    t.equal(src.searchParams.get('lang'), lang, `${lang}: ${src.pathname}`);
    const res = await page.request.get(src.toString());
    t.equal(res.status(), 200, 'and the server draws it');
  }
});
