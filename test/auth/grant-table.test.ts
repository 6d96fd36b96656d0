import t, { type Test } from 'tap';
import type { AnyProcedure } from '@trpc/server';
import * as capabilityList from '../../contract/capabilities.ts';
import type { Principal } from '../../server/auth/principal.ts';
import { appRouter } from '../../server/trpc/app-router.ts';
import { checkAccess } from '../../server/trpc/init.ts';
import type { Meta } from '../../server/trpc/meta.ts';
import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import { client, startTestServer, type ApiResponse } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';

// Issue 27: no principal can mint a credential or grant a right beyond its own. Every principal
// kind (guild admin, a session with each single capability, a non-admin leader, the unscoped key,
// a scoped key with each scope) calls every route that mints credentials or grants rights. After
// each call: what the principal can do has not grown, a key it minted can do nothing it could not,
// and no person and no rank gained or lost a right the principal does not hold (a scoped key holds
// none: it may move people only between ranks without management capabilities). Refusals are 403 {error}.
const G = '662000000000000001';
const EMPTY = '662000000000000002';
const server = await startTestServer(t);
const api = client(server);
const all = [...capabilityList.capabilities];
/** Management capabilities as issue 27 names them (what grants settings, keys, ranks or people); the server's list must agree. */
const managementCapabilities = ['settings.manage', 'ranks.manage', 'personal.sheet.edit'];
const dashed = (c: string) => c.replace(/\./g, '-');
const slug = (c: string) => `only-${dashed(c)}`;
const sessionOf = (c: string) => `s-${dashed(c)}`;
const leaderCaps = ['settings.manage', 'ranks.manage', 'personal.sheet.edit', 'personal.sheet.view', 'dispatch.view', 'timeclock.manage', 'timeclock.own.use'];

/** The world every principal starts from (restored between principals, in the database and in every cache). */
async function reset() {
  await server.sql`delete from api_keys where guild_id = ${G} and name like 'grant-%'`;
  await server.sql`delete from people where guild_id = ${G} and user_id like 'new-%'`;
  await server.sql`delete from ranks where guild_id = ${G}`; // people keep no rank until the update below
  for (const c of all) await insertRank(server.sql, G, { id: slug(c), name: `Nur ${c}`, position: 2, capabilities: [c] });
  await insertRank(server.sql, G, { id: 'leader', name: 'Leitung', position: 50, capabilities: leaderCaps });
  await insertRank(server.sql, G, { id: 'top', name: 'Wachleitung', position: 100, capabilities: all });
  await insertRank(server.sql, G, { id: 'spare', name: 'Reserve', position: 99, capabilities: all });
  await insertRank(server.sql, G, { id: 'crew', name: 'Crew', position: 1, capabilities: ['timeclock.own.use'] });
  await insertRank(server.sql, G, { id: 'none', name: 'Guest', position: 0, capabilities: [] });
  await server.sql`update people set is_admin = (user_id = 'boss'), rank_id = case user_id
      when 'boss' then 'none' when 'leader' then 'leader' when 'chief' then 'top' when 'victim' then 'none' else 'only-' || substr(user_id, 3) end
    where guild_id = ${G}`;
  server.deps.guilds.changed(G);
}

await seedGuild(server.sql, G);
await seedGuild(server.sql, EMPTY);
await server.sql`delete from ranks where guild_id = ${EMPTY}`;
await reset();
const people = [
  { userId: 'boss', badge: '01' }, { userId: 'leader', badge: '02' }, { userId: 'chief', badge: '30' }, { userId: 'victim', badge: '21' },
  ...all.map((c, i) => ({ userId: sessionOf(c), badge: String(40 + i) })),
];
for (const p of people) await insertPerson(server.sql, G, { userId: p.userId, nickname: `Person ${p.userId}`, badge: p.badge, rankId: null, isAdmin: false });
await reset();
const badgeOf = (userId: string) => people.find((p) => p.userId === userId)!.badge;

type Credential = { session: { cookie: string; guildId: string } } | { key: string };
interface Who { label: string; cred: Credential; self: string; ownRank: string; ownCaps: string[] }
const principals: Who[] = [
  { label: 'guild admin session', cred: { session: await signIn(server, G, 'boss') }, self: 'boss', ownRank: 'none', ownCaps: all },
  ...await Promise.all(all.map(async (c) => ({ label: `session with ${c}`, cred: { session: await signIn(server, G, sessionOf(c)) }, self: sessionOf(c), ownRank: slug(c), ownCaps: [c] }))),
  { label: 'leader session (settings, ranks, sheets; no admin)', cred: { session: await signIn(server, G, 'leader') }, self: 'leader', ownRank: 'leader', ownCaps: leaderCaps },
  { label: 'unscoped key', cred: { key: await unscopedKey(server.sql, G, 'principal') }, self: 'victim', ownRank: 'crew', ownCaps: all },
  ...await Promise.all(specScopes.map(async (s) => ({ label: `key with ${s}`, cred: { key: await scopedKey(server.sql, G, [s], `principal ${s}`) }, self: 'victim', ownRank: 'crew', ownCaps: [] }))),
];

type Op = [method: string, path: string, body?: unknown];
function operations(p: Who, n: number): Op[] {
  return [
    ...specScopes.map((s): Op => ['POST', '/admin/apikeys', { name: `grant-${n}`, scopes: [s] }]),
    ['POST', '/admin/apikeys/unscoped', { name: `grant-${n}` }],
    ['POST', '/personnel', { userId: `new-${n}-a`, nickname: 'Neu A', rank: 'top' }],
    ['POST', '/personnel', { userId: `new-${n}-b`, nickname: 'Neu B', isAdmin: true }],
    ['POST', '/personnel', { userId: `new-${n}-c`, nickname: 'Neu C', rank: 'crew' }],
    ['PATCH', `/personnel/${p.self}`, { isAdmin: true }],
    ['PATCH', `/personnel/${p.self}`, { rank: 'top' }],
    ['PATCH', '/personnel/victim', { rank: 'crew' }],
    ['PATCH', '/personnel/chief', { rank: 'none' }],
    ['PUT', '/integrations/ingame/ranks', { badge: badgeOf(p.self), rank: 'top' }],
    ['PUT', '/integrations/ingame/ranks', { badge: badgeOf('victim'), rank: 'crew' }],
    ['PUT', '/integrations/ingame/ranks', { badge: badgeOf('chief'), rank: 'none' }],
    ['POST', '/admin/ranks', { name: `Alles ${n}`, position: 1, capabilities: all }],
    ['POST', '/admin/ranks', { name: `Eigen ${n}`, position: 1, capabilities: p.ownCaps, gameAssignable: true }],
    ['PATCH', `/admin/ranks/${p.ownRank}`, { capabilities: all }],
    ['PATCH', `/admin/ranks/${p.ownRank}`, { gameAssignable: true }],
    ['DELETE', '/admin/ranks/spare'],
    ['POST', `/onboarding/${G}/seed`, { areas: ['ranks'] }],
  ];
}

// ---- What a principal can do, and what the guild's people and ranks hold -----------------------

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)
  .map(([path, proc]) => ({ path, meta: proc._def.meta as Meta | undefined }))
  .filter((r) => r.meta && r.meta.access !== 'none' && r.path !== 'access.selfCheck'); // the self-check answers about the key itself

/** The procedures `GET /access`'s answer lets through the real access check. */
function reach(access: any): Set<string> {
  const p: Principal = access.kind === 'key'
    ? { kind: 'key', guildId: G, keyId: '0', name: '', keyHash: '', scopes: access.scopes ?? null }
    : { kind: 'session', guildId: G, userId: '', nickname: '', isAdmin: access.isAdmin, capabilities: new Set(access.capabilities), sessionHash: '', sessionKind: 'browser' };
  return new Set(procedures.filter((r) => {
    try {
      checkAccess(p, r.meta!);
      return true;
    } catch {
      return false;
    }
  }).map((r) => r.path));
}

interface World { people: Map<string, { admin: boolean; caps: string[] }>; ranks: Map<string, { caps: string[]; game: boolean | null }>; keys: Set<string> }
async function world(guildId = G): Promise<World> {
  const [ppl, rks, keys] = await Promise.all([
    server.sql`select p.user_id, p.is_admin, coalesce(r.capabilities, '{}') as caps from people p left join ranks r on r.guild_id = p.guild_id and r.id = p.rank_id where p.guild_id = ${guildId}`,
    server.sql`select * from ranks where guild_id = ${guildId}`,
    server.sql`select id::text from api_keys where guild_id = ${guildId}`,
  ]);
  return {
    people: new Map(ppl.map((r) => [r.user_id, { admin: r.is_admin, caps: r.is_admin ? all : r.caps }])),
    ranks: new Map(rks.map((r) => [r.id, { caps: r.capabilities, game: r.game_assignable ?? null }])),
    keys: new Set(keys.map((r) => r.id as string)),
  };
}

const minus = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));
const management = (caps: readonly string[]) => caps.filter((c) => managementCapabilities.includes(c));

/** Everything the call changed that the principal (its GET /access answer before) had no right to. */
function violations(access: any, before: World, after: World, reachBefore: Set<string>, reachAfter: Set<string>, minted: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const r of reachAfter) if (!reachBefore.has(r)) out.push(`the principal can now call ${r}`);
  for (const [id, keyReach] of minted) for (const r of keyReach) if (!reachBefore.has(r)) out.push(`key ${id} it made can call ${r}`);
  const admin = access.isAdmin === true;
  const scoped = access.kind === 'key' && !admin;
  const held: string[] = access.capabilities;
  // What a change of rights may touch: anything for admins; for a scoped key (which holds nothing)
  // no management capability; for a session, what it holds.
  const outside = (caps: string[]) => (admin ? [] : scoped ? management(caps) : minus(caps, held));
  for (const [userId, now] of after.people) {
    const was = before.people.get(userId) ?? { admin: false, caps: [] };
    if (now.admin !== was.admin && !admin) out.push(`${userId} ${now.admin ? 'became' : 'stopped being'} admin`);
    for (const c of outside(minus(now.caps, was.caps))) out.push(`${userId} gained ${c}`);
    for (const c of outside(minus(was.caps, now.caps))) out.push(`${userId} lost ${c}`);
  }
  for (const [id, was] of before.ranks) if (!after.ranks.has(id) && outside(was.caps).length) out.push(`rank ${id} with ${outside(was.caps)} deleted`);
  for (const [id, now] of after.ranks) {
    const was = before.ranks.get(id) ?? { caps: [], game: null };
    for (const c of outside(minus(now.caps, was.caps))) out.push(`rank ${id} gained ${c}`);
    for (const c of outside(minus(was.caps, now.caps))) out.push(`rank ${id} lost ${c}`);
    const gameManages = (r: { caps: string[]; game: boolean | null }) => r.game === true && management(r.caps).length > 0;
    if (!admin && gameManages(now) && !gameManages(was)) out.push(`rank ${id} with ${management(now.caps)} became assignable from the game`);
  }
  return out;
}

/** Calls `op` as `p` and checks the invariant; returns the status. */
async function tryOp(t: Test, p: Who, [method, path, body]: Op, guildId = G): Promise<number> {
  const label = `${p.label}: ${method} ${path} ${JSON.stringify(body ?? '')}`;
  const accessBefore = (await api('GET', '/access', p.cred)).body;
  const before = await world(guildId);
  const res: ApiResponse = await api(method, path, { ...p.cred, body });
  const after = await world(guildId);
  const accessAfter = (await api('GET', '/access', p.cred)).body;
  const minted = new Map<string, Set<string>>();
  if (res.status === 200 && typeof res.body?.key === 'string') minted.set(res.body.id, reach((await api('GET', '/access', { key: res.body.key })).body));
  for (const id of after.keys) if (!before.keys.has(id) && !minted.has(id)) minted.set(id, new Set(['an unseen key (not in the answer)']));
  const found = violations(accessBefore, before, after, reach(accessBefore), reach(accessAfter), minted);
  if (found.length) t.same(found, [], label);
  if (res.status !== 200) assertError(t, res, 403, label);
  return res.status;
}

t.test('every principal × every route that mints credentials or grants rights: nothing beyond its own', async (t) => {
  const ok = new Map<string, string[]>();
  for (const [n, p] of principals.entries()) {
    await reset();
    const passed: string[] = [];
    for (const op of operations(p, n)) if ((await tryOp(t, p, op)) === 200) passed.push(`${op[0]} ${op[1]} ${JSON.stringify(op[2] ?? '')}`);
    ok.set(p.label, passed);
  }
  await reset();
  // Not vacuous: those who hold the rights get their way.
  t.equal(ok.get('guild admin session')!.length, operations(principals[0], 0).length, 'the guild admin passes every call');
  t.equal(ok.get('unscoped key')!.length, operations(principals[0], 0).length - 1, 'the unscoped key too, except minting an unscoped key (sessions only)');
  const leader = ok.get('leader session (settings, ranks, sheets; no admin)')!.join('\n');
  for (const s of ['calls:read', 'employees:read', 'ranks:personal.ranks_set', 'timeclock:shift.ingame_clock', 'capabilities:read']) t.match(leader, `"scopes":["${s}"]`, `the leader gives a key ${s}`);
  t.match(leader, 'PATCH /personnel/victim {"rank":"crew"}', 'the leader assigns a rank it holds the rights of');
  t.match(ok.get('key with ranks:personal.ranks_set')!.join('\n'), `"badge":"${badgeOf('victim')}","rank":"crew"`, 'the game assigns a plain rank');
});

t.test('the server names the same management capabilities', async (t) => {
  t.same((capabilityList as Record<string, unknown>).managementCapabilities, managementCapabilities);
});

t.test('onboarding seed of ranks into a guild without ranks', async (t) => {
  await insertPerson(server.sql, EMPTY, { userId: 'e-admin', nickname: 'Eva Admin', badge: '01', rankId: null, isAdmin: true });
  await insertPerson(server.sql, EMPTY, { userId: 'e-member', nickname: 'Emil Member', badge: '02', rankId: null, isAdmin: false });
  const empty: Who[] = [
    { label: 'member without rank', cred: { session: await signIn(server, EMPTY, 'e-member') }, self: 'e-member', ownRank: '', ownCaps: [] },
    { label: 'key with every scope', cred: { key: await scopedKey(server.sql, EMPTY, specScopes, 'every scope') }, self: '', ownRank: '', ownCaps: [] },
    { label: 'guild admin session', cred: { session: await signIn(server, EMPTY, 'e-admin') }, self: 'e-admin', ownRank: '', ownCaps: all },
  ];
  const statuses = [];
  for (const p of empty) statuses.push(await tryOp(t, p, ['POST', `/onboarding/${EMPTY}/seed`, { areas: ['ranks'] }], EMPTY));
  t.same(statuses, [403, 403, 200], 'only the admin seeds ranks');
});
