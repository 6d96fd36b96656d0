import t from 'tap';
import { client, startTestServer } from '../helpers/server.ts';
import { assertError, scopedKey, signIn, specScopes, unscopedKey } from '../helpers/fixtures.ts';
import { insertGuild } from '../../server/domains/guilds/store.ts';
import { insertPerson } from '../../server/domains/people/store.ts';
import type { Sql } from '../../server/store/db.ts';

// Fresh guilds: no ranks, no units, no letterheads, modules and clock never changed. Every guild
// starts with the FMS status catalogue (sql/0002), so `statuses` is empty only where it was cleared.
const server = await startTestServer(t);
const api = client(server);
const areaNames = ['ranks', 'statuses', 'aao', 'units', 'letterheads', 'modules', 'clock'];

async function freshGuild(sql: Sql, guildId: string) {
  await insertGuild(sql, guildId, `Guild ${guildId}`);
  await insertPerson(sql, guildId, { userId: `${guildId}-admin`, nickname: 'Ada Admin', badge: '01', rankId: null, isAdmin: true });
  await insertPerson(sql, guildId, { userId: `${guildId}-crew`, nickname: 'Cem Crew', badge: '02', rankId: null, isAdmin: false });
}

/** Everything a seed can write in a guild, including its audit rows and its event stream position. */
async function snapshot(guildId: string) {
  const [row] = await server.sql`select
      (select count(*) from ranks where guild_id = g.id)::int as ranks,
      (select count(*) from unit_statuses where guild_id = g.id)::int as statuses,
      (select count(*) from units where guild_id = g.id)::int as units,
      (select count(*) from letterheads where guild_id = g.id)::int as letterheads,
      g.modules, g.time_zone, g.max_shift_ms::text, g.min_on_duty,
      (select count(*) from audit_log where guild_id = g.id)::int as audits,
      (select seq from event_streams where guild_id = g.id)::int as seq
    from guilds g where g.id = ${guildId}`;
  return { ...row };
}

const emptyOf = (body: any) => Object.fromEntries(body.areas.map((a: any) => [a.area, a.empty]));

const G = '720000000000000001';
await freshGuild(server.sql, G);
const key = await unscopedKey(server.sql, G);
const admin = await signIn(server, G, `${G}-admin`);

t.test('a fresh guild: seedable, seed, seedable again, seed again changes nothing', async (t) => {
  const before = await api('GET', `/onboarding/${G}/seedable`, { session: admin });
  t.equal(before.status, 200);
  t.same(before.body.areas.map((a: any) => a.area), areaNames, 'every area, dispatcher slots not among them');
  t.same(emptyOf(before.body), { ranks: true, statuses: false, aao: true, units: true, letterheads: true, modules: true, clock: true });
  t.same(before.body.templates.map((x: any) => x.id), ['feuerwehr-rettungsdienst', 'polizei']);
  const ranks = before.body.areas.find((a: any) => a.area === 'ranks');
  t.match(ranks.title, { de: 'Dienstgrade und Berechtigungen', en: 'Ranks and capabilities' });
  t.same(ranks.templates['feuerwehr-rettungsdienst'].items, ['Praktikant', 'Rettungssanitäter', 'Notfallsanitäter', 'Brandmeister', 'Leitstellendisponent', 'Wachleitung']);
  t.equal(ranks.templates.polizei.items[0], 'Polizeimeister');
  t.equal(before.body.areas.find((a: any) => a.area === 'units').templates.polizei.count, 7);

  const from = server.events.length;
  const seeded = await api('POST', `/onboarding/${G}/seed`, { session: admin });
  t.equal(seeded.status, 200);
  t.equal(seeded.body.template, 'feuerwehr-rettungsdienst', 'the default template');
  t.same(seeded.body.areas.statuses, { skipped: 'not empty' });
  t.match(seeded.body.areas, {
    ranks: { created: 6 }, aao: { created: 15 }, units: { created: 7 }, letterheads: { created: 2, items: ['Feuerwehr Musterstadt', 'Rettungsdienst Musterstadt'] },
    modules: { created: 9 }, clock: { created: 3 },
  });
  t.ok(seeded.body.areas.units.items.includes('Florian Muster 1/83-1'));

  const after = await snapshot(G);
  t.match(after, { ranks: 6, statuses: 10, units: 7, letterheads: 2, time_zone: 'Europe/Berlin', max_shift_ms: String(12 * 3_600_000), min_on_duty: 4 });
  t.same(after.modules, { timeclock: true, dispatch: true, incidents: true, personnel: true, stats: true, documents: true, uploads: true, emojis: true, medic: true });
  const [audit] = await server.sql`select actor_kind, data from audit_log where guild_id = ${G} and action = 'onboarding.seed'`;
  t.same(audit.data, { template: 'feuerwehr-rettungsdienst', areas: { ranks: 6, aao: 15, units: 7, letterheads: 2, modules: 9, clock: 3 } });

  // One event: boards see the units (hot topic state), and settings and access notices.
  const mine = server.events.slice(from).filter((e) => e.guildId === G);
  t.equal(mine.length, 1, 'one transaction, one event');
  const d = mine[0].deltas;
  t.same(d.units!.filter((o) => o.op === 'upsert').map((o) => o.key).sort(), [...seeded.body.areas.units.items].sort());
  t.equal(d.overview!.filter((o) => o.op === 'add' && o.field === 'units').length, 7, 'the overview counts 7 more units');
  t.ok(d.settings!.some((o) => o.op === 'onboarding') && d.access!.some((o) => o.op === 'onboarding'));
  t.equal(d.letterheads!.length, 1);
  const units = await api('GET', '/units', { key });
  t.equal(units.body.units.length, 7);
  t.match(units.body.units.find((u: any) => u.callsign === 'Florian Muster 1/46-1'), { label: 'Hilfeleistungslöschfahrzeug 20 (HLF 20)', orgUnit: 'Feuerwache 1', status: '2' });
  const heads = await server.sql`select name, organisation, address_lines, primary_color, footer, position from letterheads where guild_id = ${G} order by position`;
  t.match(heads[0], { name: 'Feuerwehr Musterstadt', address_lines: ['Feuerwache 1', 'Florianstraße 112', '12345 Musterstadt'], position: 1 });
  t.equal(heads[1].position, 2);
  const rankList = await api('GET', '/admin/ranks', { key });
  t.match(rankList.body.ranks[0], { id: 'wachleitung', name: 'Wachleitung' });
  t.ok(rankList.body.ranks.find((r: any) => r.id === 'leitstellendisponent').capabilities.includes('dispatch.manage'));

  const seedable = await api('GET', `/onboarding/${G}/seedable`, { key });
  t.same(emptyOf(seedable.body), Object.fromEntries(areaNames.map((a) => [a, false])), 'nothing empty any more');

  const again = await api('POST', `/onboarding/${G}/seed`, { key, body: { template: 'polizei' } });
  t.equal(again.status, 200);
  t.same(again.body.areas, Object.fromEntries(areaNames.map((a) => [a, { skipped: 'not empty' }])));
  t.same(await snapshot(G), after, 'no row, no audit, no event: the exact same counts');
});

t.test('the police template on a guild whose status catalogue was cleared', async (t) => {
  const P = '720000000000000002';
  await freshGuild(server.sql, P);
  await server.sql`delete from unit_statuses where guild_id = ${P}`;
  const res = await api('POST', `/onboarding/${P}/seed`, { key: await unscopedKey(server.sql, P), body: { template: 'polizei' } });
  t.equal(res.status, 200);
  t.match(res.body.areas, { ranks: { created: 6 }, statuses: { created: 10 }, units: { created: 7 }, letterheads: { created: 1 }, modules: { created: 9 }, clock: { created: 3 } });
  const s = await snapshot(P);
  t.match(s, { ranks: 6, statuses: 10, units: 7, letterheads: 1, min_on_duty: 3 });
  t.equal(s.modules.medic, false, 'no ambulance service: medic off');
  const [seven] = await server.sql`select label from unit_statuses where guild_id = ${P} and code = '7'`;
  t.equal(seven.label, 'Person an Bord (Transport)');
  const alarmFlags = await server.sql`select code, alarm, acknowledges from unit_statuses where guild_id = ${P} and (alarm or acknowledges) order by code`;
  t.same(alarmFlags.map((r) => [r.code, r.alarm, r.acknowledges]), [['0', true, false], ['3', false, true], ['A', true, false]], 'the template seeds A "Alarmiert" and FMS 3 acknowledging');
  const units = await server.sql`select callsign, status from units where guild_id = ${P} order by callsign`;
  t.ok(units.some((u) => u.callsign === 'Funkstreife 11/1'));
  t.ok(units.every((u) => u.status === '2'), 'new units start on station');
  const ranks = await server.sql`select name from ranks where guild_id = ${P} order by position`;
  t.same(ranks.map((r) => r.name), ['Polizeimeister', 'Polizeiobermeister', 'Polizeihauptmeister', 'Polizeikommissar', 'Polizeioberkommissar', 'Polizeihauptkommissar']);
});

t.test('a subset of areas: only those are filled, the rest stays empty', async (t) => {
  const S = '720000000000000003';
  await freshGuild(server.sql, S);
  const k = await unscopedKey(server.sql, S);
  const res = await api('POST', `/onboarding/${S}/seed`, { key: k, body: { areas: ['clock', 'letterheads', 'clock'] } });
  t.equal(res.status, 200);
  t.same(Object.keys(res.body.areas).sort(), ['clock', 'letterheads']);
  t.match(await snapshot(S), { ranks: 0, units: 0, letterheads: 2, modules: {}, max_shift_ms: String(12 * 3_600_000) });
  const seedable = await api('GET', `/onboarding/${S}/seedable`, { key: k });
  t.same(emptyOf(seedable.body), { ranks: true, statuses: false, aao: true, units: true, letterheads: false, modules: true, clock: false });
  const [{ data }] = await server.sql`select data from audit_log where guild_id = ${S} and action = 'onboarding.seed'`;
  t.same(data, { template: 'feuerwehr-rettungsdienst', areas: { letterheads: 2, clock: 3 } });
});

t.test('units need a status: with the catalogue cleared and not requested, units are skipped', async (t) => {
  const U = '720000000000000004';
  await freshGuild(server.sql, U);
  await server.sql`delete from unit_statuses where guild_id = ${U}`;
  const res = await api('POST', `/onboarding/${U}/seed`, { key: await unscopedKey(server.sql, U), body: { areas: ['units'] } });
  t.same(res.body.areas, { units: { skipped: 'the status catalogue is empty' } });
  t.match(await snapshot(U), { units: 0, audits: 0 });
});

t.test('another guild\'s id in the path: 404, nothing written to either guild', async (t) => {
  const O = '720000000000000005';
  await freshGuild(server.sql, O);
  const mineBefore = await snapshot(G);
  const otherBefore = await snapshot(O);
  for (const id of [O, '799999999999999999', 'not-a-guild']) {
    const path = `/onboarding/${encodeURIComponent(id)}`;
    assertError(t, await api('POST', `${path}/seed`, { key }), 404, `seed ${id} with a key`, /unknown guild/);
    assertError(t, await api('POST', `${path}/seed`, { session: admin, body: { template: 'polizei' } }), 404, `seed ${id} with a session`);
    assertError(t, await api('GET', `${path}/seedable`, { key }), 404, `seedable ${id}`);
  }
  // what cannot be a guild id at all is a 400, like every malformed path parameter
  assertError(t, await api('POST', `/onboarding/${encodeURIComponent('not a guild')}/seed`, { key }), 400, 'malformed id', /guildId is not a valid guild id/);
  t.same(await snapshot(G), mineBefore);
  t.same(await snapshot(O), otherBefore, 'the other guild is untouched (still all empty)');
});

t.test('access: settings.manage; scoped keys never', async (t) => {
  const A = '720000000000000006';
  await freshGuild(server.sql, A);
  const crew = await signIn(server, A, `${A}-crew`);
  assertError(t, await api('GET', `/onboarding/${A}/seedable`, { session: crew }), 403, 'member without settings.manage');
  assertError(t, await api('POST', `/onboarding/${A}/seed`, { session: crew }), 403, 'member seeds');
  const scoped = await scopedKey(server.sql, A, specScopes);
  assertError(t, await api('GET', `/onboarding/${A}/seedable`, { key: scoped }), 403, 'scoped key (all scopes)');
  assertError(t, await api('POST', `/onboarding/${A}/seed`, { key: scoped }), 403, 'scoped key seeds');
  assertError(t, await api('POST', `/onboarding/${A}/seed`, {}), 401, 'no credential');
  t.match(await snapshot(A), { ranks: 0, units: 0, audits: 0 });
  // After seeding, a Praktikant (no settings.manage) is refused, the Wachleitung (all capabilities) allowed.
  t.equal((await api('POST', `/onboarding/${A}/seed`, { key: await unscopedKey(server.sql, A), body: { areas: ['ranks'] } })).status, 200);
  await server.sql`update people set rank_id = 'praktikant' where guild_id = ${A} and user_id = ${`${A}-crew`}`;
  assertError(t, await api('GET', `/onboarding/${A}/seedable`, { session: crew }), 403, 'Praktikant');
  await server.sql`update people set rank_id = 'wachleitung' where guild_id = ${A} and user_id = ${`${A}-crew`}`;
  server.deps.guilds.changed(A);
  const lead = await api('POST', `/onboarding/${A}/seed`, { session: crew, body: { areas: ['units'] } });
  t.equal(lead.status, 200, 'a non-admin with settings.manage (Wachleitung)');
  t.match(lead.body.areas, { units: { created: 7 } });
});

t.test('bad input: 400 with a message that names the known values', async (t) => {
  const before = await snapshot(G);
  const bad = async (body: unknown, message: RegExp, label: string) =>
    assertError(t, await api('POST', `/onboarding/${G}/seed`, { key, body }), 400, label, message);
  await bad({ template: 'thw' }, /template must be one of feuerwehr-rettungsdienst, polizei/, 'unknown template');
  await bad({ areas: ['ranks', 'vehicles'] }, /unknown area "vehicles"; known areas: ranks, statuses/, 'unknown area');
  await bad({ areas: ['dispatcherSlots'] }, /dispatcherSlots cannot be seeded: every guild has a fixed 20 dispatcher slots/, 'dispatcher slots');
  await bad({ areas: [] }, /at least one area/, 'no area');
  await bad({ areas: 'ranks' }, /list of area names/, 'not a list');
  await bad({ areas: [1] }, /must be a string/, 'not a string');
  await bad({ template: 'polizei', extra: true }, /extra/, 'unknown key');
  t.same(await snapshot(G), before);
});

t.test('two concurrent seeds fill each area once', async (t) => {
  const C = '720000000000000007';
  await freshGuild(server.sql, C);
  await server.sql`delete from unit_statuses where guild_id = ${C}`;
  const k = await unscopedKey(server.sql, C);
  const answers = await Promise.all([
    api('POST', `/onboarding/${C}/seed`, { key: k }),
    api('POST', `/onboarding/${C}/seed`, { key: k, body: { template: 'polizei' } }),
    api('POST', `/onboarding/${C}/seed`, { key: k, body: { areas: ['units', 'ranks'] } }),
  ]);
  t.same(answers.map((a) => a.status), [200, 200, 200]);
  for (const area of areaNames) {
    const creators = answers.filter((a) => a.body.areas[area] && 'created' in a.body.areas[area]);
    t.equal(creators.length, 1, `${area} created by exactly one seed`);
  }
  const s = await snapshot(C);
  t.match(s, { ranks: 6, statuses: 10, units: 7, audits: 1 });
  t.ok(s.letterheads === 1 || s.letterheads === 2);
  const [{ n }] = await server.sql`select count(*)::int as n from audit_log where guild_id = ${C} and action = 'onboarding.seed'`;
  t.equal(n, 1, 'only the seed that created anything is audited');
});

t.test('concurrent seeds of areas outside the status catalogue: still each area once', async (t) => {
  // These areas take no catalogue lock: only the per-guild seed lock keeps the second seed from
  // inserting beside the first (it would answer "created: 0" or a partial count).
  const C = '720000000000000008';
  await freshGuild(server.sql, C);
  const k = await unscopedKey(server.sql, C);
  const body = { areas: ['ranks', 'letterheads', 'modules', 'clock'] };
  const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => api('POST', `/onboarding/${C}/seed`, { key: k, body: i % 2 ? { ...body, template: 'polizei' } : body })));
  for (const area of body.areas) {
    const created = answers.filter((a) => 'created' in a.body.areas[area]);
    t.equal(created.length, 1, `${area} created by exactly one seed`);
    t.ok(created[0].body.areas[area].created > 0);
  }
  t.equal(new Set(answers.filter((a) => 'created' in a.body.areas.ranks).map((a) => a.body.template)).size, 1);
  const s = await snapshot(C);
  t.equal(s.ranks, 6);
  t.equal(s.audits, 1);
});
