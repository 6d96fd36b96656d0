import t from 'tap';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, seedGuild, unscopedKey } from '../helpers/fixtures.ts';

/** Every stats parameter at its bounds (spec §4 Statistics, §8): inside answers 200, outside a clear 400. */
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, 'p', [{ userId: 'u', nickname: 'U', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, 'p');
const get = (path: string) => api('GET', path, { key });

async function png(path: string) {
  const res = await fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}
const size = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

t.test('limit 1 and 500 pass, 0 and 501 are 400', async (t) => {
  t.equal((await get('/stats/leaderboard?limit=1')).status, 200);
  t.equal((await get('/stats/leaderboard?limit=500')).status, 200);
  assertError(t, await get('/stats/leaderboard?limit=0'), 400, 'limit 0', /limit must be a whole number from 1 to 500/);
  assertError(t, await get('/stats/leaderboard?limit=501'), 400, 'limit 501', /limit/);
  assertError(t, await get('/stats/leaderboard?limit=ten'), 400, 'limit ten', /limit/);
  assertError(t, await get('/stats/leaderboard?limit=1.5'), 400, 'limit 1.5', /limit/);
  assertError(t, await get('/stats/leaderboard?limit=-1'), 400, 'limit -1', /limit/);
});

t.test('custom: 366 days pass, 367 do not; both ends needed, in order, only with custom', async (t) => {
  const ok = await get('/stats/leaderboard?period=custom&from=2024-01-01&to=2024-12-31');
  t.equal(ok.status, 200, '2024 is a leap year: 366 days');
  t.equal(ok.body.trend.series.length, 366);
  assertError(t, await get('/stats/leaderboard?period=custom&from=2024-01-01&to=2025-01-01'), 400, '367 days', /at most 366 days/);
  assertError(t, await get('/stats/leaderboard?period=custom&from=2026-01-01'), 400, 'no to', /needs both from and to/);
  assertError(t, await get('/stats/leaderboard?period=custom&to=2026-01-01'), 400, 'no from', /needs both from and to/);
  assertError(t, await get('/stats/leaderboard?period=custom'), 400, 'neither', /needs both from and to/);
  assertError(t, await get('/stats/leaderboard?period=custom&from=2026-02-02&to=2026-02-01'), 400, 'from after to', /from must not be after to/);
  assertError(t, await get('/stats/leaderboard?from=2026-01-01&to=2026-01-02'), 400, 'from/to with weekly', /only to period=custom/);
  assertError(t, await get('/stats/leaderboard?period=custom&from=2026-01-01&to=2026-01-02&date=2026-01-01'), 400, 'date with custom', /date does not apply/);
  assertError(t, await get('/stats/leaderboard?period=alltime&date=2026-01-01'), 400, 'date with alltime', /date does not apply/);
  t.equal((await get('/stats/leaderboard?period=custom&from=2026-03-05&to=2026-03-05')).status, 200, 'one day');
});

t.test('dates that do not exist, malformed dates and periods', async (t) => {
  for (const d of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '26-01-01', '2026-1-1', '2026-01-01T00:00:00Z', 'today', '']) {
    assertError(t, await get(`/stats/leaderboard?date=${encodeURIComponent(d)}`), 400, `date ${d}`, /date/);
  }
  t.equal((await get('/stats/leaderboard?date=2024-02-29')).status, 200, 'a leap day exists');
  assertError(t, await get('/stats/leaderboard?period=yearly'), 400, 'period yearly', /period must be daily, weekly, monthly, alltime or custom/);
  assertError(t, await get('/stats/leaderboard?period=custom&from=2026-02-30&to=2026-03-02'), 400, 'from 02-30', /from must be a date/);
  assertError(t, await get('/stats/leaderboard?colour=red'), 400, 'unknown parameter');
  assertError(t, await get('/stats/leaderboard?charts=yes'), 400, 'charts yes', /charts must be true or false/);
  assertError(t, await get('/stats/user/u?detail=1'), 400, 'detail 1', /detail must be true or false/);
  assertError(t, await get('/stats/leaderboard?limit=1&limit=2'), 400, 'a parameter twice');
});

t.test('maxPixels: 50,000 is the least, the image keeps within it', async (t) => {
  const small = await png('/stats/leaderboard/chart/bars.png?maxPixels=50000');
  t.equal(small.status, 200);
  t.equal(small.type, 'image/png');
  const s = size(small.bytes);
  t.ok(s.width * s.height <= 50_000 && s.width * s.height > 45_000, `${s.width}×${s.height}`);
  const under = await get('/stats/leaderboard/chart/bars.png?maxPixels=49999');
  assertError(t, under, 400, 'maxPixels 49999', /maxPixels must be a whole number from 50000/);
  const dflt = size((await png('/stats/leaderboard/chart/trend.png')).bytes);
  t.ok(dflt.width * dflt.height <= 990_000 && dflt.width * dflt.height > 980_000, `default ${dflt.width}×${dflt.height}`);
  const huge = size((await png('/stats/leaderboard/chart/share.png?maxPixels=999999999')).bytes);
  t.ok(huge.width * huge.height <= 4_000_000, `capped at 4,000,000: ${huge.width}×${huge.height}`);
  assertError(t, await get('/stats/user/u?maxPixels=49999'), 400, 'on JSON routes too', /maxPixels/);
  t.equal((await png('/stats/user/u/chart/shifts.png?maxPixels=50000')).status, 200);
});

t.test('unknown chart types are unknown routes', async (t) => {
  assertError(t, await get('/stats/leaderboard/chart/pie.png'), 404, 'pie', /no chart pie\.png/);
  assertError(t, await get('/stats/user/u/chart/bars.png'), 404, 'bars for a person');
  t.equal((await get('/stats/leaderboard/chart/bars.jpg')).status, 404, 'not .png');
});

t.test('charts=true embeds every chart of the route as base64 PNG within maxPixels; without it, none', async (t) => {
  const board = await get('/stats/leaderboard?charts=true&maxPixels=60000');
  t.equal(board.status, 200, board.text);
  t.same(Object.keys(board.body.charts).sort(), ['bars', 'share', 'trend']);
  for (const [name, b64] of Object.entries<string>(board.body.charts)) {
    const bytes = Buffer.from(b64, 'base64');
    t.same([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name} is a PNG`);
    const s = size(bytes);
    t.ok(s.width * s.height <= 60_000, `${name} ${s.width}×${s.height} within maxPixels`);
  }
  const person = await get('/stats/user/u?charts=true');
  t.same(Object.keys(person.body.charts).sort(), ['shifts', 'trend']);
  t.equal((await get('/stats/leaderboard')).body.charts, undefined, 'no charts unless asked');
  t.equal((await get('/stats/leaderboard?charts=false')).body.charts, undefined);
});
