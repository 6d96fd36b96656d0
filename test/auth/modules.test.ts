import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';

// PATCH /admin/modules: a switched-off module's routes answer 404 in that guild only.
const G = '690000000000000001';
const H = '690000000000000002';
const server = await startTestServer(t);
const api = client(server);
const people = [{ userId: 'u1', nickname: 'Anna Alpha', badge: '1', rank: 'crew' }];
await seedGuild(server.sql, G, people);
await seedGuild(server.sql, H, people);
const keyG = await unscopedKey(server.sql, G);
const keyH = await unscopedKey(server.sql, H);
const clockG = await scopedKey(server.sql, G, ['timeclock:shift.ingame_clock']);
const sG = await signIn(server, G, 'u1');
const sH = await signIn(server, H, 'u1');

type Call = { method: string; path: string; body?: unknown; session?: boolean };
/** Every time-clock route, in an order that leaves the person off duty again when all pass. */
const timeclockCalls: Call[] = [
  { method: 'POST', path: '/admin/clock-in', body: { badge: 1 } },
  { method: 'GET', path: '/admin/clock-status/1' },
  { method: 'GET', path: '/admin/on-duty' },
  { method: 'POST', path: '/admin/clock-out', body: { badge: 1 } },
  { method: 'POST', path: '/me/clock-in', session: true },
  { method: 'POST', path: '/me/clock-out', session: true },
];

async function run(c: Call, key: string, session: { cookie: string; guildId: string }) {
  return c.session ? api(c.method, c.path, { session, body: c.body }) : api(c.method, c.path, { key, body: c.body });
}

const setModules = (modules: Record<string, unknown>, key = keyG) => api('PATCH', '/admin/modules', { key, body: { modules } });

t.test('switching timeclock off answers {modules} with timeclock:false and the rest on', async (t) => {
  const res = await setModules({ timeclock: false });
  t.equal(res.status, 200);
  t.equal(res.body.modules.timeclock, false);
  t.ok(Object.entries(res.body.modules).filter(([m]) => m !== 'timeclock').every(([, on]) => on === true), 'every other module stays on');
  const branding = await api('GET', `/branding/${G}`);
  t.equal(branding.body.modules.timeclock, false, 'GET /branding shows it at once');
  t.equal((await api('GET', `/branding/${H}`)).body.modules.timeclock, true, 'H is untouched');
});

t.test('with timeclock off, every time-clock route of that guild answers 404 {error}', async (t) => {
  for (const c of timeclockCalls) {
    assertError(t, await run(c, keyG, sG), 404, `${c.method} ${c.path}`);
    if (!c.session) assertError(t, await run(c, clockG, sG), 404, `${c.method} ${c.path} with a scoped key`);
  }
  const shifts = await server.sql`select count(*)::int as n from shifts where guild_id = ${G}`;
  t.equal(shifts[0].n, 0, 'nothing was clocked');
  t.same(server.panelCalls.filter((g) => g === G), [], 'no panel refresh');
});

t.test('other guilds and other modules are unaffected', async (t) => {
  for (const c of timeclockCalls) t.equal((await run(c, keyH, sH)).status, 200, `H: ${c.method} ${c.path}`);
  t.equal((await api('GET', '/me/preferences', { session: sG })).status, 200, 'G: preferences still work');
  t.equal((await api('GET', '/admin/apikeys', { key: keyG })).status, 200, 'G: key admin still works');
});

t.test('switching it back on restores the routes', async (t) => {
  const res = await setModules({ timeclock: true });
  t.equal(res.status, 200);
  t.equal(res.body.modules.timeclock, true);
  t.equal((await api('GET', `/branding/${G}`)).body.modules.timeclock, true);
  for (const c of timeclockCalls) t.equal((await run(c, keyG, sG)).status, 200, `G: ${c.method} ${c.path}`);
});

t.test('a patch changes only the modules it names', async (t) => {
  await setModules({ stats: false });
  const res = await setModules({ medic: false });
  t.equal(res.body.modules.stats, false, 'stats is still off');
  t.equal(res.body.modules.medic, false);
  t.equal(res.body.modules.timeclock, true);
  const back = await setModules({ stats: true, medic: true });
  t.ok(Object.values(back.body.modules).every((on) => on === true));
});

t.test('bad bodies: 400 {error}, nothing changed', async (t) => {
  const bad: Record<string, unknown> = {
    'unknown module name': { modules: { teleport: false } },
    'known and unknown together': { modules: { timeclock: false, teleport: false } },
    'value not a boolean': { modules: { timeclock: 'off' } },
    'value null': { modules: { timeclock: null } },
    'modules a list': { modules: ['timeclock'] },
    'missing modules': {},
    'extra field': { modules: { timeclock: false }, guildId: H },
  };
  for (const [label, body] of Object.entries(bad)) {
    assertError(t, await api('PATCH', '/admin/modules', { key: keyG, body }), 400, label);
  }
  t.equal((await api('GET', `/branding/${G}`)).body.modules.timeclock, true, 'still on');
  t.equal((await api('GET', '/admin/on-duty', { key: keyG })).status, 200);
});
