import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { insertRank } from '../../server/domains/people/store.ts';

// Two guilds: nothing of A is visible to or changeable by a key or session of B.
const A = '760000000000000001';
const B = '760000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, A, [
  { userId: 'a-only', nickname: 'Anna of A', badge: '11', rank: 'crew' },
  { userId: 'both', nickname: 'Both in A', badge: '1', rank: 'crew' },
  { userId: 'adminA', nickname: 'Admin A', badge: '9', admin: true },
]);
await seedGuild(server.sql, B, [
  { userId: 'b-only', nickname: 'Bert of B', badge: '22', rank: 'crew' },
  { userId: 'both', nickname: 'Both in B', badge: '1', rank: 'crew' },
  { userId: 'adminB', nickname: 'Admin B', badge: '9', admin: true },
]);
await insertRank(server.sql, A, { id: 'a-rank', name: 'Only A', position: 5, capabilities: ['settings.manage'] });
const keyA = await unscopedKey(server.sql, A, 'key A');
const keyB = await unscopedKey(server.sql, B, 'key B');
const gameB = await scopedKey(server.sql, B, ['employees:read', 'ranks:personal.ranks_set', 'capabilities:read'], 'game B');
const adminB = await signIn(server, B, 'adminB');
const bothInB = await signIn(server, B, 'both');

const personA = async (userId: string) => (await api('GET', `/personnel/${userId}`, { key: keyA })).body;

t.test('B\'s key and admin session get 404 on every A-only person and rank', async (t) => {
  for (const cred of [{ key: keyB }, { session: adminB }]) {
    const who = 'key' in cred ? 'key B' : 'admin session B';
    const calls: [string, string, object?][] = [
      ['GET', '/personnel/a-only'],
      ['PATCH', '/personnel/a-only', { nickname: 'Hijacked' }],
      ['GET', '/personnel/a-only/history'],
      ['POST', '/personnel/a-only/history', { kind: 'note', text: 'x' }],
      ['PATCH', '/admin/ranks/a-rank', { name: 'Hijacked' }],
      ['DELETE', '/admin/ranks/a-rank'],
      ['PATCH', '/personnel/b-only', { rank: 'a-rank' }],
      ['PATCH', '/personnel/b-only', { rank: 'Only A' }],
    ];
    for (const [method, path, body] of calls) assertError(t, await api(method, path, { ...cred, body }), 404, `${who}: ${method} ${path}`);
  }
  t.match(await personA('a-only'), { nickname: 'Anna of A', rankId: 'crew' });
  t.equal((await api('GET', '/personnel/a-only/history', { key: keyA })).body.entries.length, 0, 'no entry written into A');
  t.ok((await api('GET', '/admin/ranks', { key: keyA })).body.ranks.some((r: any) => r.id === 'a-rank' && r.name === 'Only A'));
  t.equal((await api('GET', '/personnel/b-only', { key: keyB })).body.rankId, 'crew');
});

t.test('B\'s game key: A-only badges are unknown; a shared badge answers B\'s person', async (t) => {
  assertError(t, await api('GET', '/integrations/ingame/employees/11', { key: gameB }), 404, 'A\'s badge 11');
  assertError(t, await api('GET', '/integrations/ingame/employees/user/a-only', { key: gameB }), 404, 'A\'s user');
  assertError(t, await api('PUT', '/integrations/ingame/ranks', { key: gameB, body: { badge: 11, rank: 'crew' } }), 404, 'rank of A\'s badge');
  assertError(t, await api('PUT', '/integrations/ingame/ranks', { key: gameB, body: { badge: 22, rank: 'a-rank' } }), 404, 'A\'s rank');
  t.match((await api('GET', '/integrations/ingame/employees/1', { key: gameB })).body, { userId: 'both', nickname: 'Both in B' });
  const set = await api('PUT', '/integrations/ingame/ranks', { key: gameB, body: { badge: 1, rank: 'dispatch' } });
  t.equal(set.body.rankId, 'dispatch');
  t.equal((await personA('both')).rankId, 'crew', 'A\'s "both" keeps its rank');
  t.match((await api('GET', '/integrations/ingame/self-check', { key: gameB })).body, { guildId: B, keyName: 'game B' });
});

t.test('a person in both guilds is two sheets; writes in B never touch A', async (t) => {
  await api('PATCH', '/personnel/both', { key: keyB, body: { nickname: 'Renamed in B', badge: 5 } });
  t.match(await personA('both'), { nickname: 'Both in A', badgeNumber: '01' });
  const listB = (await api('GET', '/personnel', { key: keyB })).body.people.map((p: any) => p.userId).sort();
  t.same(listB, ['adminB', 'b-only', 'both']);
  const created = await api('POST', '/personnel', { key: keyB, body: { userId: 'a-only', nickname: 'Anna in B', badge: 11 } });
  t.equal(created.status, 200, 'user id and badge of A are free in B');
  t.equal((await personA('a-only')).nickname, 'Anna of A');
  t.equal((await api('POST', '/admin/ranks', { key: keyB, body: { name: 'only a', position: 1, capabilities: [] } })).status, 200, 'rank names are per guild');
});

t.test('sessions: x-guild-id selects only guilds the user belongs to', async (t) => {
  assertError(t, await api('GET', '/personnel', { session: { ...adminB, guildId: A } }), 403, 'admin of B asks for A', /not a member/);
  assertError(t, await api('GET', '/access', { session: { ...adminB, guildId: A } }), 403, 'GET /access for A');
  const inB = await api('GET', '/access', { session: bothInB });
  t.match(inB.body, { guildId: B, userId: 'both', rankId: 'dispatch' });
  const inA = await api('GET', '/access', { session: { ...bothInB, guildId: A } });
  t.match(inA.body, { guildId: A, userId: 'both', nickname: 'Both in A', rankId: 'crew' }, 'the same user in A has A\'s sheet');
  t.equal((await api('GET', '/access', { key: keyB, headers: { 'x-guild-id': A } })).body.guildId, B, 'a key\'s guild is the key\'s, whatever the header says');
});
