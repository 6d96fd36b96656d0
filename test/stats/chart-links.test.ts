import t from 'tap';
import { loadImage } from '@napi-rs/canvas';
import { startTestServer, client } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

/** Public chart links: made by an admin, fetched by anyone with the URL (Discord), current on every fetch, revocable. */
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, 'L', [{ userId: 'u1', nickname: 'Ulla', badge: '1', rank: 'crew' }, { userId: 'boss', nickname: 'Boss', admin: true }]);
await seedGuild(server.sql, 'M', [{ userId: 'm1', nickname: 'Mia', badge: '1', rank: 'crew' }]);
const key = await unscopedKey(server.sql, 'L');
const keyM = await unscopedKey(server.sql, 'M');
const boss = await signIn(server, 'L', 'boss');

t.test('create → fetch without a credential → list → revoke → 404', async (t) => {
  const made = await api('POST', '/stats/chart-links', { session: boss, body: { chart: 'leaderboard/bars', period: 'weekly', label: 'Discord #dienstzeiten', maxPixels: 200000 } });
  t.equal(made.status, 200, made.text);
  t.match(made.body.token, /^[A-Za-z0-9_-]{43}$/);
  t.equal(made.body.url, `${server.url}/embed/chart/${made.body.token}.png`);
  t.same(made.body.params, { period: 'weekly', maxPixels: 200000 });
  const img = await fetch(made.body.url);
  t.equal(img.status, 200);
  t.equal(img.headers.get('content-type'), 'image/png');
  t.match(img.headers.get('cache-control'), /max-age=60/);
  const picture = await loadImage(Buffer.from(await img.arrayBuffer()));
  t.ok(picture.width * picture.height <= 200_000 && picture.width * picture.height > 190_000, `${picture.width}×${picture.height}`);

  const list = await api('GET', '/stats/chart-links', { key });
  t.same(list.body.links.map((l: any) => [l.id, l.chart, l.label, l.tokenLast4, l.fetchCount]), [[made.body.id, 'leaderboard/bars', 'Discord #dienstzeiten', made.body.token.slice(-4), 1]]);
  t.notOk(JSON.stringify(list.body).includes(made.body.token), 'the list never shows the token');
  const stored = await server.sql`select encode(token_hash, 'hex') as h from chart_links`;
  t.notOk(JSON.stringify(stored).includes(made.body.token), 'only its hash is stored');

  assertError(t, await api('DELETE', `/stats/chart-links/${made.body.id}`, { key: keyM }), 404, 'another guild cannot revoke it');
  const revoked = await api('DELETE', `/stats/chart-links/${made.body.id}`, { key });
  t.same(revoked.body, { revoked: true, id: made.body.id });
  t.equal((await fetch(made.body.url)).status, 404, 'revoked → 404 at once');
  assertError(t, await api('DELETE', `/stats/chart-links/${made.body.id}`, { key }), 404, 'twice');
  t.same((await api('GET', '/stats/chart-links', { key })).body.links, []);
  const audit = await server.sql`select action from audit_log where guild_id = 'L' and action like 'stats.chart_link%' order by id`;
  t.same(audit.map((r) => r.action), ['stats.chart_link_create', 'stats.chart_link_revoke']);
});

t.test('unknown and malformed tokens are 404 with JSON errors', async (t) => {
  for (const token of ['x'.repeat(43), 'short', 'a'.repeat(44), '..%2F..%2Fetc']) {
    const res = await fetch(`${server.url}/embed/chart/${token}.png`);
    t.equal(res.status, 404, token);
    t.same(Object.keys(await res.json()), ['error', 'reason']);
  }
  t.equal((await fetch(`${server.url}/embed/chart/${'x'.repeat(43)}.jpg`)).status, 404);
});

t.test('the image follows the data: a new shift changes the next render', async (t) => {
  const made = await api('POST', '/stats/chart-links', { key, body: { chart: 'user/trend', userId: 'u1', period: 'daily' } });
  t.equal(made.status, 200, made.text);
  const first = Buffer.from(await (await fetch(made.body.url)).arrayBuffer());
  await server.sql`insert into shifts (guild_id, user_id, clock_in_at, clock_out_at, status) values ('L', 'u1', now() - interval '50 minutes', now() - interval '10 minutes', 'CLOSED')`;
  await new Promise((r) => setTimeout(r, 15_500)); // past the node's 15 s render cache
  const second = Buffer.from(await (await fetch(made.body.url)).arrayBuffer());
  t.notOk(first.equals(second), 'a different picture after the data changed');
});

t.test('bad links are 400; a person of another guild is 404', async (t) => {
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'pie' } }), 400, 'unknown chart', /chart must be one of/);
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'user/trend' } }), 400, 'user chart without userId', /needs userId/);
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'leaderboard/bars', userId: 'u1' } }), 400, 'userId on a leaderboard', /userId applies only/);
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'leaderboard/bars', period: 'custom', from: '2026-01-01' } }), 400, 'custom without to');
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'leaderboard/bars', token: 'mine' } }), 400, 'a client-chosen token');
  assertError(t, await api('POST', '/stats/chart-links', { key, body: { chart: 'user/shifts', userId: 'm1' } }), 404, 'guild M\'s person');
  const crew = await signIn(server, 'L', 'u1');
  assertError(t, await api('POST', '/stats/chart-links', { session: crew, body: { chart: 'leaderboard/bars' } }), 403, 'no capability');
});
