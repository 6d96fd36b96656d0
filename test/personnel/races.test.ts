import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// Concurrent writes are decided by the database: a clear 200/409 split, never a 500.
const G = '770000000000000001';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: 'a1', nickname: 'Admin One', badge: '1', admin: true },
  { userId: 'a2', nickname: 'Admin Two', badge: '2', admin: true },
  { userId: 'p1', nickname: 'Pia', badge: '3', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();

t.test('10 concurrent creates of one badge: one sheet, nine 409', async (t) => {
  const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => api('POST', '/personnel', { key, body: { userId: `new${i}`, nickname: `New ${i}`, badge: i % 2 ? 40 : '040' } })));
  t.same(statuses(rs), [200, ...Array(9).fill(409)]);
  const [{ n }] = await server.sql`select count(*)::int as n from people where guild_id = ${G} and badge = '40'`;
  t.equal(n, 1);
});

t.test('10 concurrent creates of one user id: one sheet, nine 409', async (t) => {
  const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => api('POST', '/personnel', { key, body: { userId: 'same', nickname: `Same ${i}` } })));
  t.same(statuses(rs), [200, ...Array(9).fill(409)]);
  const history = await api('GET', '/personnel/same/history', { key });
  t.equal(history.body.entries.length, 1, 'one "hired" entry');
});

t.test('10 concurrent badge changes to one free badge: one wins', async (t) => {
  const users = Array.from({ length: 10 }, (_, i) => `swap${i}`);
  for (const u of users) t.equal((await api('POST', '/personnel', { key, body: { userId: u, nickname: u } })).status, 200);
  const rs = await Promise.all(users.map((u) => api('PATCH', `/personnel/${u}`, { key, body: { badge: 77 } })));
  t.same(statuses(rs), [200, ...Array(9).fill(409)]);
});

t.test('10 concurrent creates of one rank name: one rank, nine 409', async (t) => {
  const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => api('POST', '/admin/ranks', { key, body: { name: i % 2 ? 'Leitung' : 'LEITUNG', position: 3, capabilities: [] } })));
  t.same(statuses(rs), [200, ...Array(9).fill(409)]);
});

t.test('two admins take each other\'s flag at once: one stays admin', async (t) => {
  for (let round = 0; round < 5; round++) {
    const s1 = await signIn(server, G, 'a1');
    const s2 = await signIn(server, G, 'a2');
    const rs = await Promise.all([
      api('PATCH', '/personnel/a2', { session: s1, body: { isAdmin: false } }),
      api('PATCH', '/personnel/a1', { session: s2, body: { isAdmin: false } }),
    ]);
    const admins = await server.sql`select user_id from people where guild_id = ${G} and is_admin`;
    t.equal(admins.length, 1, `round ${round}: exactly one admin left`);
    t.ok(rs.every((r) => r.status === 200 || r.status === 409 || r.status === 403), `round ${round}: ${rs.map((r) => r.status)}`);
    t.ok(rs.some((r) => r.status === 200), 'one of them succeeded');
    await api('PATCH', '/personnel/a1', { key, body: { isAdmin: true } });
    await api('PATCH', '/personnel/a2', { key, body: { isAdmin: true } });
  }
});

t.test('a rank deleted while it is being assigned: 404 or 409, never a 500 or a silent loss', async (t) => {
  for (let round = 0; round < 5; round++) {
    await api('POST', '/admin/ranks', { key, body: { id: `r${round}`, name: `Race ${round}`, position: 1, capabilities: [] } });
    const [assign, del] = await Promise.all([
      api('PATCH', '/personnel/p1', { key, body: { rank: `r${round}` } }),
      api('DELETE', `/admin/ranks/r${round}`, { key }),
    ]);
    const rank = (await api('GET', '/personnel/p1', { key })).body.rankId;
    if (assign.status === 200 && rank === `r${round}`) t.equal(del.status, 409, `round ${round}: assigned first, delete refused`);
    else {
      t.equal(del.status, 200, `round ${round}: deleted first`);
      t.equal(assign.status, 404, `round ${round}: the assignment found no rank`);
    }
    await api('PATCH', '/personnel/p1', { key, body: { rank: 'crew' } });
  }
});
