import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// A server without a bot token: the emoji routes work on what is stored, and a sync says clearly
// that Discord is not configured (409: retrying cannot help, the server's configuration must change).
const G = '583000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [{ userId: '583000000000000011', nickname: 'Anna Admin', admin: true }]);
const key = await unscopedKey(server.sql, G);
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')]);
await server.sql`insert into emojis (guild_id, id, name, animated, available, content_type, image)
  values (${G}, '583000000000000100', 'gespeichert', false, true, 'image/png', ${png})`;

t.test('POST /emojis/sync without DISCORD_TOKEN: 409 naming the setting, nothing audited', async (t) => {
  const res = await api('POST', '/emojis/sync', { key, body: {} });
  assertError(t, res, 409, 'no token', /DISCORD_TOKEN/);
  const [row] = await server.sql`select count(*)::int as n from audit_log where action = 'emojis.sync'`;
  t.equal(row.n, 0);
});

t.test('stored emojis are still listed and served', async (t) => {
  const session = await signIn(server, G, '583000000000000011');
  const list = await api('GET', '/emojis', { session });
  t.same(list.body.emojis, [{ id: '583000000000000100', name: 'gespeichert', animated: false, available: true, url: `/api/v1/emojis/583000000000000100?guild=${G}` }]);
  const res = await fetch(`${server.url}${list.body.emojis[0].url}`, { headers: { cookie: session.cookie } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.ok(Buffer.from(await res.arrayBuffer()).equals(png));
});
