import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Incident history search (issue 29): GET /incidents?q=&unit=&from=&to=&cursor=, keyset pages.
const G = '576000000000000001';
const H = '576000000000000002'; // noise: the same words in another guild
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'emil', nickname: 'Emil Einsatz' }, { userId: 'nora', nickname: 'Nora Notiz' },
  { userId: 'view', nickname: 'Vera View' }, { userId: 'guest', nickname: 'Gast', rank: 'none' },
]);
await seedGuild(server.sql, H, []);
await insertRank(server.sql, G, { id: 'sheets', name: 'Einsatzleitung', position: 5, capabilities: ['dispatch.view', 'incidents.manage'] });
await insertRank(server.sql, G, { id: 'view', name: 'Mitlesen', position: 4, capabilities: ['dispatch.view'] });
await server.sql`update people set rank_id = 'sheets' where guild_id = ${G} and user_id in ('emil', 'nora')`;
await server.sql`update people set rank_id = 'view' where guild_id = ${G} and user_id = 'view'`;
await server.sql`insert into units (guild_id, callsign, label) values (${G}, 'RTW 1', 'Rettungswagen 1'), (${G}, 'RTW 10', 'Rettungswagen 10'), (${G}, 'NEF 2', 'Notarzt'),
  (${H}, 'RTW 1', 'Fremder RTW')`;
const key = await unscopedKey(server.sql, G, 'Leitstellenrechner');
const keyH = await unscopedKey(server.sql, H);
const emil = await signIn(server, G, 'emil');
const nora = await signIn(server, G, 'nora');
const ok = async (p: Promise<{ status: number; body: any; text: string }>) => {
  const res = await p;
  if (res.status !== 200) throw new Error(`set-up failed: ${res.status} ${res.text}`);
  return res.body;
};

// 1: by Emil, at the harbour, RTW 1 on it.
await ok(api('POST', '/incidents', { session: emil, body: { keyword: 'Brand Wohnhaus', location: { street: 'Hafenstraße 5', postal: '20095', text: 'Hinterhof' }, priority: 1 } }));
await ok(api('PUT', '/incidents/1/units/RTW 1', { key }));
// 2: a text location, RTW 10 alarmed, a note by Nora, closed.
await ok(api('POST', '/incidents', { key, body: { keyword: 'VU PKW', location: 'A7 Richtung Norden' } }));
await ok(api('POST', '/incidents/2/alarm', { key, body: { callsigns: ['RTW 10'] } }));
await ok(api('POST', '/incidents/2/entries', { session: nora, body: { text: 'Zwei Verletzte' } }));
await ok(api('POST', '/incidents/2/close', { key }));
// 3: made of a game call with a caller.
await ok(api('POST', '/integrations/ingame/calls', { key, body: { externalId: 'c-3', title: 'Herzinfarkt', caller: { name: 'Karl Kaller', phone: '555-0101' } } }));
await ok(api('POST', '/calls/c-3/take', { key }));
// 4: NEF 2 assigned, then released: the history keeps it.
await ok(api('POST', '/incidents', { key, body: { keyword: 'Brand Garage' } }));
await ok(api('PUT', '/incidents/4/units/NEF 2', { key }));
await ok(api('DELETE', '/incidents/4/units/NEF 2', { key }));
// Noise guild: the same words, its own sheet 1.
const keyHBody = { keyword: 'Brand Wohnhaus', location: { street: 'Hafenstraße 5' } };
await ok(api('POST', '/incidents', { key: keyH, body: keyHBody }));
await ok(api('PUT', '/incidents/1/units/RTW 1', { key: keyH }));
// Creation days (the guild's zone is Europe/Berlin): 2 late on 20 January local time, 22:30 UTC.
await server.sql`update incidents set created_at = case number when 1 then timestamptz '2026-01-10 12:00Z' when 2 then timestamptz '2026-01-20 22:30Z'
  when 3 then timestamptz '2026-01-21 08:00Z' else timestamptz '2026-02-01 09:00Z' end where guild_id = ${G}`;

const numbers = async (query: string, who: object = { key }) => {
  const res = await api('GET', `/incidents?${query}`, who);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  return (res.body.incidents as { number: number }[]).map((i) => i.number);
};
const q = (s: string) => `q=${encodeURIComponent(s)}`;

t.test('q finds keyword, location, units, caller, creator and writers, in any case; every word must match', async (t) => {
  t.same(await numbers(q('brand')), [4, 1], 'keyword');
  t.same(await numbers(q('BRAND wohnhaus')), [1], 'two words, any case');
  t.same(await numbers(q('brand norden')), [], 'each word must match');
  t.same(await numbers(q('hafenstr')), [1], 'street, part of a word');
  t.same(await numbers(q('hinterhof')), [1], 'location text');
  t.same(await numbers(q('a7 norden')), [2], 'a location given as text');
  t.same(await numbers(q('karl')), [3], 'the game caller');
  t.same(await numbers(q('555-0101')), [3], 'the caller\'s phone');
  t.same(await numbers(q('emil')), [1], 'the creator');
  t.same(await numbers(q('nora')), [2], 'who wrote to the timeline');
  t.same(await numbers(q('rtw')), [2, 1], 'unit callsigns');
  t.same(await numbers(q('nef')), [4], 'a unit released from the sheet stays in its history');
  t.same(await numbers(q('   ')), [4, 3, 2, 1], 'blank q: no filter');
  t.same(await numbers(q('a7')), [2], 'a word of two characters (no trigram: filtered, not indexed)');
  t.same(await numbers(q('7 a7')), [2], 'one character and two');
});

t.test('q as a number: that sheet, or (without #) text with the digits', async (t) => {
  t.same(await numbers(q('#2')), [2]);
  t.same(await numbers(q('3')), [3], 'sheet 3 (no text carries a 3)');
  t.same(await numbers(q('20095')), [1], 'a postal code is text, no sheet has that number');
  t.same(await numbers(q('#99')), []);
});

t.test('unit: exactly that callsign (any case), ever on the sheet', async (t) => {
  t.same(await numbers('unit=rtw%201'), [1], 'RTW 1, not RTW 10');
  t.same(await numbers('unit=RTW%2010'), [2]);
  t.same(await numbers('unit=NEF%202'), [4], 'released, still in the history');
  t.same(await numbers('unit=LF%2099'), [], 'unknown unit: nothing');
  t.same(await numbers(`unit=RTW%201&${q('hafen')}`), [1]);
});

t.test('from/to: local days of the guild, both included; state combines', async (t) => {
  t.same(await numbers('from=2026-01-20&to=2026-01-20'), [2], 'created 23:30 Berlin time on the 20th');
  t.same(await numbers('from=2026-01-21'), [4, 3]);
  t.same(await numbers('to=2026-01-20'), [2, 1]);
  t.same(await numbers('from=2026-01-01&to=2026-01-31&state=open'), [3, 1]);
  t.same(await numbers(`state=closed&${q('rtw')}`), [2]);
});

t.test('guild isolation: the other guild\'s sheets never show', async (t) => {
  t.same(await numbers(q('hafenstraße'), { key: keyH }), [1]);
  const res = await api('GET', `/incidents?${q('hafenstraße')}`, { key: keyH });
  t.equal(res.body.incidents[0].units[0].label, 'Fremder RTW');
  t.same(await numbers(q('karl'), { key: keyH }), []);
});

t.test('bad parameters are 400 with {error}; hostile text finds only itself', async (t) => {
  for (const query of ['from=2026-02-30', 'to=abc', 'from=2026-1-1', 'from=2026-02-02&to=2026-02-01', q('x'.repeat(201)), q('a b c d e f g h i'),
    'q=%00', 'q=%ED%A0%80', 'cursor=garbage!', 'cursor=', `cursor=${Buffer.from('i1.0').toString('base64url')}`, `cursor=${Buffer.from('{"n":5}').toString('base64url')}`,
    `cursor=${Buffer.from('i1.99999999999').toString('base64url')}`, 'unit=%3Cscript%3E', 'unit=', 'limit=0', 'q=a&q=b', 'sort=number']) {
    assertError(t, await api('GET', `/incidents?${query}`, { key }), 400, query);
  }
  for (const hostile of ['%', '_', '\\', '%_%', "'; drop table incidents; --", '🚒', 'ß']) {
    t.same(await numbers(q(hostile)), hostile === 'ß' ? [1] : [], `q=${hostile}`);
  }
  t.same(await numbers(q('|')), [4, 3, 2, 1], '| is not searched for (it marks callsigns): a blank q');
  t.same(await numbers(q('|rtw')), [2, 1]);
  t.equal((await server.sql`select count(*)::int as n from incidents where guild_id = ${G}`)[0].n, 4, 'the table is there');
  t.same(await numbers(q('x'.repeat(200))), [], '200 characters are allowed');
  t.same(await numbers(q('xa xb xc xd xe xf xg xh')), [], '8 words are allowed');
});

t.test('rights: dispatch.view reads; no capability 403; scoped keys 403; no credential 401', async (t) => {
  t.same(await numbers(q('brand'), { session: await signIn(server, G, 'view') }), [4, 1]);
  assertError(t, await api('GET', `/incidents?${q('brand')}`, { session: await signIn(server, G, 'guest') }), 403, 'no capability');
  for (const scopes of [['calls:read'], ['calls:call.report'], ['capabilities:read']]) {
    assertError(t, await api('GET', `/incidents?${q('brand')}`, { key: await scopedKey(server.sql, G, scopes) }), 403, scopes.join());
  }
  assertError(t, await api('GET', `/incidents?${q('brand')}`, {}), 401, 'no credential');
});

t.test('pages: keyset by number, no gaps or duplicates while sheets are added; the old shape stays', async (t) => {
  // 230 sheets more in G (fast, by SQL; the triggers fill the search text as for any insert).
  await server.sql`insert into incidents (guild_id, number, keyword, priority, created_by_kind, created_by_id, created_by_name)
    select ${G}, 4 + g, 'Serie ' || g, 2, 'key', 'x', 'Serienbrief' from generate_series(1, 230) g`;
  await server.sql`update incident_counters set last_number = 234 where guild_id = ${G}`;
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: any } = await api('GET', `/incidents?${q('serie')}&limit=50${cursor ? `&cursor=${cursor}` : ''}`, { key });
    t.equal(res.status, 200);
    t.ok(res.body.count <= 50);
    seen.push(...res.body.incidents.map((i: { number: number }) => i.number));
    cursor = res.body.nextCursor;
    pages++;
    // Someone takes a new sheet meanwhile: it is newer than every page, it moves nothing.
    await ok(api('POST', '/incidents', { key, body: { keyword: `Serie neu ${pages}` } }));
  } while (cursor && pages < 20);
  t.equal(pages, 5, '230 in pages of 50');
  t.same(seen, Array.from({ length: 230 }, (_, i) => 234 - i), 'each of the 230 once, newest first');
  const last = await api('GET', `/incidents?${q('serie')}&limit=50&cursor=${Buffer.from('i1.5').toString('base64url')}`, { key });
  t.same(last.body, { count: 0, incidents: [], nextCursor: null }, 'below the last one: empty, no cursor');

  const plain = await api('GET', '/incidents?state=open&limit=3', { key });
  t.equal(plain.status, 200);
  t.same(Object.keys(plain.body).sort(), ['count', 'incidents', 'nextCursor'], 'count and incidents as before, nextCursor added');
  t.equal(plain.body.count, 3);
  t.type(plain.body.nextCursor, 'string');
  const all = await api('GET', '/incidents', { key });
  t.equal(all.body.count, 100, 'default page 100, as before');
});
