import t from 'tap';
import { randomBytes } from 'node:crypto';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { botWorld, crew, GUILD, until } from '../helpers/discord-bot.ts';
import { call, startTestServer } from '../helpers/server.ts';
import { openBoard, wsWithCookie } from '../helpers/live.ts';
import type { StandInEmoji } from '../helpers/discord-standin.ts';

// Emoji sync against the Discord stand-in through the real server: by route, by gateway event,
// while Discord is down; the images served from our own copy.
const w = await botWorld(t);
const { discord, server, api } = w;
const [anna, ben] = crew; // Anna: admin; Ben: crew (no settings.manage)
const anchor = `${server.url}`;

/** Image bytes of each type: the magic bytes, then noise, so a byte-exact comparison means something. */
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const gif = () => Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(120)]);
const webp = () => {
  const body = Buffer.concat([Buffer.from('WEBPVP8 ', 'latin1'), randomBytes(90)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]);
};

const e = {
  alarm: { id: '581000000000000001', name: 'alarm', image: png() },
  blaulicht: { id: '581000000000000002', name: 'Blaulicht', animated: true, image: gif() },
  zzz: { id: '581000000000000003', name: 'zzz', available: false, image: png() },
  wache: { id: '581000000000000004', name: 'wache', image: webp() },
  riesig: { id: '581000000000000005', name: 'riesig', image: Buffer.concat([png(), Buffer.alloc(300 * 1024)]) },
  kaputt: { id: '581000000000000006', name: 'kaputt', image: Buffer.from('<html>not an image</html>') },
} satisfies Record<string, StandInEmoji>;

// The bot syncs each guild's emojis once, 1 s after it connected; the tests set Discord's emojis only
// after that sync read the (still empty) list, so it cannot take the additions the tests make.
await until(() => discord.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/guilds/${GUILD}/emojis`)), 'the bot\'s first emoji sync', 10_000);

const annaSession = await signIn(server, GUILD, anna.userId);
const benSession = await signIn(server, GUILD, ben.userId);

/** GET of an image with the raw bytes (the JSON helper would decode them as text). */
async function image(path: string, cookie: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, anchor), { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}
const stored = async (guildId = GUILD) =>
  (await server.sql`select id, name, animated, available, content_type, image from emojis where guild_id = ${guildId} order by id`).map((r) => ({ ...r }));
const cdnRequests = () => discord.cdnRequests.filter((r) => r.path.startsWith('/cdn/emojis/')).length;
const urlOf = (id: string, guildId = GUILD) => `/api/v1/emojis/${id}?guild=${guildId}`;

t.test('POST /emojis/sync stores Discord\'s emojis with their images, skips oversized and non-images, audits and emits', async (t) => {
  discord.setEmojis(GUILD, Object.values(e), { dispatch: false });
  const board = openBoard(server.url, { guildId: GUILD, WebSocket: wsWithCookie(benSession.cookie), topics: ['emojis'] });
  t.teardown(board.close);
  await board.until(() => board.state.stats.snapshots === 1);
  const eventsBefore = server.events.length;
  const cdnBefore = cdnRequests();
  const res = await api('POST', '/emojis/sync', { session: annaSession, body: {} });
  t.equal(res.status, 200);
  t.equal(cdnRequests() - cdnBefore, 6, 'each new emoji\'s image was requested once');
  t.match(res.body, { added: 4, updated: 0, removed: 0 });
  t.same(res.body.skipped.map((s: { id: string }) => s.id).sort(), [e.riesig.id, e.kaputt.id]);
  t.match(res.body.skipped.find((s: { id: string }) => s.id === e.kaputt.id).reason, /not PNG, GIF or WebP/);
  t.match(res.body.skipped.find((s: { id: string }) => s.id === e.riesig.id).reason, /bytes/);
  t.same(res.body.emojis.map((x: { name: string }) => x.name), ['alarm', 'Blaulicht', 'wache', 'zzz'], 'every stored emoji, by name, unavailable ones too');
  t.same(res.body.emojis.find((x: { id: string }) => x.id === e.zzz.id), { id: e.zzz.id, name: 'zzz', animated: false, available: false, url: urlOf(e.zzz.id) });

  const rows = await stored();
  t.same(rows.map((r) => [r.name, r.content_type]), [['alarm', 'image/png'], ['Blaulicht', 'image/gif'], ['zzz', 'image/png'], ['wache', 'image/webp']]);
  t.ok(rows.every((r) => r.image.length <= 256 * 1024), 'nothing over 256 KiB is stored');

  const [audit] = await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${GUILD} and action = 'emojis.sync' order by id desc limit 1`;
  t.same({ ...audit }, { actor_kind: 'session', actor_id: anna.userId, data: { added: 4, updated: 0, removed: 0, skipped: 2 } });

  await until(() => server.events.length > eventsBefore, 'the emojis event on the bus');
  const event = server.events.slice(eventsBefore).find((ev) => ev.guildId === GUILD && ev.deltas.emojis);
  t.ok(event, 'one event on topic emojis');
  t.match(event!.deltas.emojis![0], { op: 'synced', added: 4, updated: 0, removed: 0 });
  t.same((event!.deltas.emojis![0].emojis as Array<{ name: string }>).map((x) => x.name), ['alarm', 'Blaulicht', 'wache'], 'the event carries the selectable list');
  const notice = () => board.frames.flatMap((f: any) => f.kind === 'delta' ? f.topics.emojis ?? [] : []);
  await board.until(() => notice().length > 0);
  t.match(notice(), [{ op: 'synced', added: 4, emojis: [{ name: 'alarm' }, { name: 'Blaulicht' }, { name: 'wache' }] }], 'a member\'s board watching emojis gets the notice');
});

t.test('GET /emojis lists the available emojis by name, for any member and unscoped keys', async (t) => {
  const res = await api('GET', '/emojis', { session: benSession });
  t.equal(res.status, 200);
  t.same(res.body, {
    emojis: [
      { id: e.alarm.id, name: 'alarm', animated: false, available: true, url: urlOf(e.alarm.id) },
      { id: e.blaulicht.id, name: 'Blaulicht', animated: true, available: true, url: urlOf(e.blaulicht.id) },
      { id: e.wache.id, name: 'wache', animated: false, available: true, url: urlOf(e.wache.id) },
    ],
  });
  t.same((await api('GET', '/emojis', { key: w.key })).body, res.body, 'the same for an unscoped key');
});

t.test('GET /emojis/{id}: the stored image, byte-exact, with its type, for a session without x-guild-id (an <img>)', async (t) => {
  for (const [emoji, type] of [[e.alarm, 'image/png'], [e.blaulicht, 'image/gif'], [e.wache, 'image/webp'], [e.zzz, 'image/png']] as const) {
    const res = await image(urlOf(emoji.id), benSession.cookie);
    t.equal(res.status, 200, `${emoji.name}: 200`);
    t.equal(res.headers.get('content-type'), type, `${emoji.name}: ${type}`);
    t.equal(res.headers.get('cache-control'), 'private, max-age=86400');
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    t.ok(res.bytes.equals(emoji.image), `${emoji.name}: the bytes Discord served`);
  }
  const viaHeader = await image(`/api/v1/emojis/${e.alarm.id}`, annaSession.cookie, { 'x-guild-id': GUILD });
  t.equal(viaHeader.status, 200, 'x-guild-id instead of ?guild= works too');
  t.ok(viaHeader.bytes.equals(e.alarm.image));
  const head = await fetch(new URL(urlOf(e.alarm.id), anchor), { method: 'HEAD', headers: { cookie: benSession.cookie } });
  t.equal(head.status, 200);
  t.equal(head.headers.get('content-length'), String(e.alarm.image.length), 'HEAD: the length, no body');

  const img = await image(`/api/v1/emojis/${e.alarm.id}`, benSession.cookie);
  t.equal(img.status, 400, 'a session naming no guild at all: 400');
  t.match(img.json(), { error: /x-guild-id/ });
  const mismatch = await api('GET', `/emojis/${e.alarm.id}?guild=${GUILD}2`, { session: annaSession });
  assertError(t, mismatch, 400, 'guild and x-guild-id disagree', /different guilds/);
  assertError(t, await api('GET', '/emojis/not-a-number', { session: annaSession }), 400, 'a malformed id');
  assertError(t, await api('GET', `/emojis/${e.alarm.id}?size=64`, { session: annaSession }), 400, 'an unknown query parameter');
});

t.test('GET /emojis/{id}: 404 for unknown ids, removed ids, skipped ids and emojis of another guild', async (t) => {
  assertError(t, await api('GET', '/emojis/581999999999999999', { session: annaSession }), 404, 'unknown', /no emoji/);
  assertError(t, await api('GET', `/emojis/${e.kaputt.id}`, { session: annaSession }), 404, 'skipped, never stored');

  const other = '571000000000000002';
  const foreign = { id: '582000000000000001', name: 'fremd', image: png() };
  await seedGuild(server.sql, other, [{ userId: '572000000000000099', nickname: 'Otto Other', admin: true }]);
  discord.addGuild({ id: other, name: 'Wache Süd', emojis: [foreign] });
  const synced = await api('POST', '/emojis/sync', { key: await unscopedKey(server.sql, other) });
  t.match(synced.body, { added: 1 });
  assertError(t, await api('GET', `/emojis/${foreign.id}?guild=${GUILD}`, { session: annaSession }), 404, 'another guild\'s emoji through our guild');
  const elsewhere = await image(urlOf(foreign.id, other), annaSession.cookie);
  t.equal(elsewhere.status, 403, 'naming a guild the user is not a member of: 403');
  t.same(Object.keys(elsewhere.json()), ['error', 'reason']);
  const ours = (await api('GET', '/emojis', { session: annaSession })).body.emojis.map((x: { id: string }) => x.id);
  t.notOk(ours.includes(foreign.id), 'and it is not in our list');
});

t.test('who may do what: 401 without credentials, 403 without settings.manage, keys on the image route', async (t) => {
  for (const [method, path] of [['GET', '/emojis'], ['GET', `/emojis/${e.alarm.id}`], ['POST', '/emojis/sync']] as const) {
    assertError(t, await api(method, path, { body: method === 'POST' ? {} : undefined }), 401, `${method} ${path} without credentials`);
  }
  const refused = await api('POST', '/emojis/sync', { session: benSession, body: {} });
  assertError(t, refused, 403, 'a member without settings.manage', /settings\.manage/);

  await server.sql`insert into ranks (guild_id, id, name, position, capabilities) values (${GUILD}, 'it', 'IT', 5, '{settings.manage}')`;
  await server.sql`insert into people (guild_id, user_id, nickname, rank_id) values (${GUILD}, '572000000000000050', 'Ida IT', 'it')`;
  const ida = await signIn(server, GUILD, '572000000000000050');
  t.equal((await api('POST', '/emojis/sync', { session: ida })).status, 200, 'a non-admin rank with settings.manage may sync (no body at all)');

  const scoped = await scopedKey(server.sql, GUILD, specScopes);
  assertError(t, await api('GET', `/emojis/${e.alarm.id}`, { key: scoped }), 403, 'a scoped key on the image route');
  assertError(t, await api('GET', `/emojis/${e.alarm.id}`, { key: w.key }), 403, 'an unscoped key on the session-only image route', /session/);
  assertError(t, await api('GET', '/emojis', { key: scoped }), 403, 'a scoped key on the list');
  assertError(t, await api('POST', '/emojis/sync', { key: scoped, body: {} }), 403, 'a scoped key on sync');
  t.equal((await api('POST', '/emojis/sync', { key: w.key })).status, 200, 'an unscoped key acts as the guild\'s admin');

  const watcher = openBoard(server.url, { apiKey: scoped, topics: ['emojis'] });
  t.teardown(watcher.close);
  await watcher.until(() => watcher.errors.length > 0);
  t.match(String(watcher.errors[0]), /may not watch emojis/, 'who may not read GET /emojis may not watch the topic either');
});

t.test('bad bodies are 400/415 and sync nothing', async (t) => {
  const auditsBefore = (await server.sql`select count(*)::int as n from audit_log where action = 'emojis.sync'`)[0].n;
  assertError(t, await api('POST', '/emojis/sync', { key: w.key, body: { force: true } }), 400, 'an unknown field', /force/);
  assertError(t, await api('POST', '/emojis/sync', { key: w.key, body: [] }), 400, 'an array');
  assertError(t, await api('POST', '/emojis/sync', { key: w.key, raw: '{"a":', contentType: 'application/json', skipContract: true }), 400, 'broken JSON');
  assertError(t, await api('POST', '/emojis/sync', { key: w.key, raw: 'x=1', contentType: 'application/x-www-form-urlencoded' }), 415, 'not JSON');
  assertError(t, await api('POST', '/emojis/sync?now=1', { key: w.key }), 400, 'a query parameter');
  t.equal((await server.sql`select count(*)::int as n from audit_log where action = 'emojis.sync'`)[0].n, auditsBefore);
});

t.test('a later sync: renamed and (un)available ones are updates, deleted ones go, known images are not downloaded again', async (t) => {
  const cdnBefore = discord.cdnRequests.length;
  const neu = { id: '581000000000000007', name: 'neu', image: png() };
  discord.setEmojis(GUILD, [
    { ...e.alarm, name: 'alarm_rot', image: png() }, // renamed; the CDN now serves other bytes
    { ...e.zzz, available: true }, // available again
    e.wache, // unchanged
    neu,
    // Blaulicht deleted in Discord
  ], { dispatch: false });
  const res = await api('POST', '/emojis/sync', { session: annaSession, body: {} });
  t.equal(res.status, 200);
  t.match(res.body, { added: 1, updated: 2, removed: 1, skipped: [] });
  t.same(res.body.emojis.map((x: { name: string }) => x.name), ['alarm_rot', 'neu', 'wache', 'zzz']);
  t.same(discord.cdnRequests.slice(cdnBefore).map((r) => r.path), [`/cdn/emojis/${neu.id}.png`], 'one image downloaded: the new one');

  const alarm = await image(urlOf(e.alarm.id), annaSession.cookie);
  t.ok(alarm.bytes.equals(e.alarm.image), 'the renamed emoji keeps the image stored first: not downloaded again');
  t.ok((await image(urlOf(neu.id), annaSession.cookie)).bytes.equals(neu.image));
  t.equal((await image(urlOf(e.blaulicht.id), annaSession.cookie)).status, 404, 'the deleted emoji is gone, image too');
  t.same((await api('GET', '/emojis', { session: annaSession })).body.emojis.map((x: { name: string }) => x.name), ['alarm_rot', 'neu', 'wache', 'zzz']);

  const again = await api('POST', '/emojis/sync', { session: annaSession, body: {} });
  t.match(again.body, { added: 0, updated: 0, removed: 0 }, 'a sync without changes changes nothing');
});

t.test('concurrent syncs of one guild: each emoji added once, the answers add up', async (t) => {
  const burst = Array.from({ length: 6 }, (_, i) => ({ id: `58100000000000010${i}`, name: `burst_${i}`, image: png() }));
  const before = await stored();
  discord.setEmojis(GUILD, [...before.map((r) => ({ id: r.id, name: r.name, animated: r.animated, available: r.available, image: r.image })), ...burst], { dispatch: false });
  const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/emojis/sync', { key: w.key })));
  t.same(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
  t.equal(answers.reduce((n, a) => n + a.body.added, 0), burst.length, 'six emojis added in all, by one of the syncs');
  const rows = await stored();
  t.equal(rows.length, before.length + burst.length);
  t.equal(new Set(rows.map((r) => r.id)).size, rows.length);
});

t.test('concurrent syncs on two nodes of one database: each emoji added once (the advisory lock)', async (t) => {
  const second = await startTestServer(t, discord.env(), { databaseUrl: server.databaseUrl });
  const burst = Array.from({ length: 6 }, (_, i) => ({ id: `58100000000000020${i}`, name: `zwei_${i}`, image: png() }));
  const before = await stored();
  discord.setEmojis(GUILD, [...before.map((r) => ({ id: r.id, name: r.name, animated: r.animated, available: r.available, image: r.image })), ...burst], { dispatch: false });
  // Someone holds the guild's emoji lock: both nodes' syncs wait for it and write nothing meanwhile.
  const lockKey = `emojis:${GUILD}`;
  const holder = await server.sql.reserve();
  await holder`select pg_advisory_lock(hashtextextended(${lockKey}, 0))`;
  const pending = Promise.all([server, second, server, second].map((node) => call(node.url, 'POST', '/emojis/sync', { key: w.key })));
  await until(async () => (await server.sql`select count(*)::int as n from pg_locks
    where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`)[0].n === 2, 'a sync of each node waiting for the lock');
  t.same((await stored()).map((r) => r.id), before.map((r) => r.id), 'nothing written while the lock is held');
  await holder`select pg_advisory_unlock(hashtextextended(${lockKey}, 0))`;
  holder.release();
  const answers = await pending;
  t.same(answers.map((a) => a.status), [200, 200, 200, 200]);
  t.equal(answers.reduce((n, a) => n + a.body.added, 0), burst.length, 'six emojis added in all');
  const rows = await stored();
  t.equal(rows.length, before.length + burst.length);
});

t.test('while Discord is down: sync answers 503 with Retry-After, the stored emojis stay and are served', async (t) => {
  const before = await stored();
  const list = (await api('GET', '/emojis', { session: annaSession })).body;
  discord.setEmojis(GUILD, [e.alarm], { dispatch: false }); // what Discord would say if it could
  discord.down();
  try {
    const res = await api('POST', '/emojis/sync', { session: annaSession, body: {} });
    assertError(t, res, 503, 'Discord down', /Discord/);
    t.ok(Number(res.headers.get('retry-after')) > 0, 'with Retry-After');
    t.same(await stored(), before, 'nothing stored changed');
    t.same((await api('GET', '/emojis', { session: annaSession })).body, list, 'the list is still served');
    const img = await image(urlOf(e.wache.id), annaSession.cookie);
    t.equal(img.status, 200);
    t.ok(img.bytes.equals(e.wache.image), 'images are served from our copy');
  } finally {
    discord.up();
  }
  t.equal((await api('POST', '/emojis/sync', { key: w.key })).status, 200, 'back up: sync works again');
  t.same((await stored()).map((r) => r.id), [e.alarm.id]);
});

t.test('module emojis switched off: all three routes answer 404', async (t) => {
  t.equal((await api('PATCH', '/admin/modules', { key: w.key, body: { modules: { emojis: false } } })).status, 200);
  try {
    assertError(t, await api('GET', '/emojis', { session: annaSession }), 404, 'list', /module/);
    assertError(t, await api('GET', `/emojis/${e.alarm.id}`, { session: annaSession }), 404, 'image', /module/);
    assertError(t, await api('POST', '/emojis/sync', { session: annaSession, body: {} }), 404, 'sync', /module/);
  } finally {
    t.equal((await api('PATCH', '/admin/modules', { key: w.key, body: { modules: { emojis: true } } })).status, 200);
  }
});

t.test('Discord\'s GUILD_EMOJIS_UPDATE syncs by itself, audited as the system actor discord', async (t) => {
  const gateway = { id: '581000000000000200', name: 'per_gateway', image: png() };
  discord.setEmojis(GUILD, [e.alarm, gateway]); // dispatches GUILD_EMOJIS_UPDATE
  await until(async () => (await stored()).some((r) => r.id === gateway.id), 'the gateway sync', 8_000);
  t.ok((await image(urlOf(gateway.id), annaSession.cookie)).bytes.equals(gateway.image));
  const [audit] = await server.sql`select actor_kind, actor_id, data from audit_log where guild_id = ${GUILD} and action = 'emojis.sync' order by id desc limit 1`;
  t.same({ ...audit }, { actor_kind: 'system', actor_id: 'discord', data: { added: 1, updated: 0, removed: 0, skipped: 0 } });
});
