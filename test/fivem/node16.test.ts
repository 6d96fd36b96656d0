import t from 'tap';
import { join } from 'node:path';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { buildResource, eventually, node16Harness, readmeLua, runLua } from './helpers.ts';

// Issue 31: the built server.js in the registry's Node 16 (FiveM's server runtime: no fetch) with
// FiveM's globals (test/fivem/harness.cjs), against the real server. The README's Lua example and
// client.lua's server events, as the Lua 5.4 stand-in recorded them, are replayed on it; what they
// did is read back over REST. Every export answers with a plain result, never a throw.
const G = '731000000000000001';
const IDA = '320000000000000001';
const JAN = '320000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: IDA, nickname: 'Ida', badge: '7', rank: 'crew' },
  { userId: JAN, nickname: 'Jan', badge: '8', rank: 'crew' },
  { userId: '320000000000000003', nickname: 'Kai', badge: '9', rank: 'crew' },
]);
const key = await unscopedKey(server.sql, G);
const must = async (p: ReturnType<typeof api>) => {
  const res = await p;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
for (const callsign of ['RTW 1', 'NEF 2']) await must(api('POST', '/units', { key, body: { callsign } }));

const resource = join(buildResource(t), 'dispatch-terminal');
// Player 3 is Jan (Discord), player 4 Ida, player 5 Kai; player 6 has no Discord identifier.
const fivem = await node16Harness(t, resource, {
  convars: { dispatch_terminal_url: server.url, dispatch_terminal_key: key },
  players: { 3: ['license:aaa', `discord:${JAN}`], 4: [`discord:${IDA}`], 5: ['discord:320000000000000003'], 6: ['license:bbb'] },
});
const call = async (name: string, ...args: unknown[]) => (await fivem.send({ op: 'export', name, args: [...args, { $function: true }] })).result;

t.test('Node 16, and the exports answer 503 until configured', async (t) => {
  t.match((await fivem.send({ op: 'output' })).version, /^v16\./);
  t.match(await call('clockIn', { badge: 7 }), { ok: false, status: 503, reason: 'unavailable', error: /starting/ });
  await fivem.send({ op: 'config', config: { Url: 'http://unused.invalid', Medic: { enabled: true }, PlayerEventsPerMinute: 12, Alarms: { enabled: true, pollMs: 250 } } });
  t.match((await fivem.send({ op: 'output' })).output, [new RegExp(`reports to ${server.url.replace(/[.]/g, '\\.')}; alarms every 250 ms; positions every 1500 ms; medic queue on`)], 'the convar URL wins over Config.Url');
});

t.test("the README's Lua example, replayed: every export reaches the server", async (t) => {
  const lua = await runLua('exports-run.lua', resource, readmeLua(resource, t));
  const results: Record<string, any[]> = {};
  for (const c of lua.record.filter((r: any) => r.kind === 'export')) {
    const args = c.args.some((a: any) => a?.$function) ? c.args : [...c.args, { $function: true }];
    const { id, result } = await fivem.send({ op: 'export', name: c.name, args });
    t.type(id, 'number', `${c.name} returns a request id`);
    (results[c.name] ??= []).push(result);
  }
  const failed = Object.entries(results).flatMap(([n, rs]) => rs.filter((r) => !r.ok).map((r) => `${n}: ${r.status} ${r.error}`));
  t.same(failed, [], 'every call ok');
  t.match(results.reportCall[0].data, { externalId: 'bank-17', kind: 'alarm', title: 'Bankalarm' });
  t.match(results.clockIn, [{ data: { status: 'OPEN' } }, { data: { status: 'OPEN' } }], 'by badge and by the player\'s Discord identifier');
  t.match(results.clockStatus[0].data, { badgeNumber: '07', clockedIn: true });
  t.match(results.occupyUnit[0].data, { userId: IDA, callsign: 'RTW 1' });
  t.match(results.leaveUnit[0].data, { userId: IDA, callsign: null, left: 'RTW 1' });
  t.match(results.lookupEmployee[0].data, { userId: IDA, nickname: 'Ida', badgeNumber: '07' });
  t.same(results.sendPositions[0].data, { accepted: 1, unknown: [] }, 'a position for RTW 1');
  t.equal(results.flush[0].data, true, 'the medic queue delivered');
  t.equal(results.careTier[0].data, 3, 'no service rank with a tier: job grade 1 is tier 3 (Config.Medic.Tiers.jobs)');
  t.match(results.notruf[0].data, { externalId: 'amb-42', kind: 'notruf', title: 'Notruf', source: 'dispatch-terminal' });

  t.match((await must(api('GET', '/units', { key }))).units.find((u: any) => u.callsign === 'RTW 1').position, { x: 215.5, y: -810.2, heading: 90, speed: 12.5 });
  const onDuty = await must(api('GET', '/admin/clock-status/08', { key }));
  t.match(onDuty, { clockedIn: true }, 'Jan (player 3) is clocked in');
  t.match(await must(api('GET', '/admin/clock-status/07', { key })), { clockedIn: false }, 'Ida clocked out again');
  const [bank] = await server.sql`select status, kind, source from calls where guild_id = ${G} and external_id = 'bank-17'`;
  t.match(bank, { status: 'resolved', kind: 'alarm', source: 'test-resource' }, 'reported (by the calling resource) and resolved');
  const calls = (await must(api('GET', '/calls', { key }))).calls;
  const ps = calls.find((c: any) => /^ps-shooting-/.test(c.externalId));
  t.match(ps, { kind: 'alarm', priority: 2, title: '10-11 Schüsse gemeldet', location: { x: 25, y: -1347, street: 'Innocence Blvd' } }, 'CustomAlert mapped onto a call');
  t.match(ps.message, /Geschlecht: männlich · Für: leo/);
  const patients = await must(api('GET', '/medic/patients?q=ABC12345&status=all', { key }));
  t.equal(patients.patients.length, 1, 'the medic exports filled a patient file');
});

t.test('bad input: a plain result with the status and why, never a throw', async (t) => {
  t.match(await call('clockIn', 7), { ok: false, status: 400, reason: 'validation', error: /who must be \{ badge = <digits> \}/ }, 'a bare number is no `who`');
  t.match(await call('clockIn', { badge: 99 }), { ok: false, status: 404 }, 'an unknown badge: the server\'s 404');
  t.match(await call('clockIn', { player: 6 }), { ok: false, status: 404, error: /player 6 has no Discord identifier/ });
  t.match(await call('clockOut', { badge: 9 }), { ok: false, status: 409 }, 'not clocked in: the server\'s 409');
  t.match(await call('reportCall', { title: 'ohne Id' }), { ok: false, status: 400, error: /externalId/ }, 'the server\'s validation');
  t.match(await call('reportCall', 'Brand'), { ok: false, status: 400, error: 'call must be a table' });
  t.match(await call('resolveCall', 'kein gültiger Name!'), { ok: false, status: 400, error: /externalId must be/ });
  t.match(await call('occupyUnit', { badge: 7 }, 5), { ok: false, status: 400, error: /callsign must be/ });
  t.match(await call('setUnitStatus', { badge: 7 }, { code: 3 }), { ok: false, status: 400, error: /status must be/ });
  t.match(await call('CustomAlert', {}), { ok: false, status: 400, error: /a message, a code or a codeName/ });
  t.match(await call('CustomAlert', { message: 'x', coords: { x: 'a', y: 1 } }), { ok: false, status: 400, error: /coords must have numbers/ });
  t.match(await call('event', { type: 'vitals' }), { ok: false, status: 400 }, 'a medic event without citizenId');
  t.match(await call('setBadge', 3, 'abc'), { ok: false, status: 400, error: 'badge must be digits' });
  const { id } = await fivem.send({ op: 'export', name: 'clockIn', args: [{ badge: 99 }] });
  t.type(id, 'number', 'without a callback: the id, and the failure in the console');
  await eventually(async () => (await fivem.send({ op: 'output' })).output.some((l: string) => new RegExp(`clockIn #${id} failed: 404`).test(l)), 'the console line', 5000);
});

t.test("client.lua's server events (status key, panic, CustomAlert), replayed from player 4 (Ida)", async (t) => {
  const client = await runLua('client-run.lua', resource);
  const events = client.record.filter((r: any) => r.kind === 'serverEvent');
  await must(api('POST', '/admin/clock-in', { key, body: { badge: 7 } }));
  t.match(await call('occupyUnit', { player: 4 }, 'RTW 1'), { ok: true, data: { callsign: 'RTW 1' } }, 'Ida in RTW 1, by her Discord identifier');
  const answers = [];
  for (const e of events) answers.push((await fivem.send({ op: 'net', event: e.name, source: 4, args: e.args, wait: true })).result);
  t.same(answers, events.map((e: any) => ({ event: e.name.split(':')[1], ok: true })), 'each answered ok to the player');
  const units = (await must(api('GET', '/units', { key }))).units;
  t.match(units.find((u: any) => u.callsign === 'RTW 1'), { status: '2' }, 'the status keys (3, then 2) set the unit Ida occupies');
  const calls = (await must(api('GET', '/calls', { key }))).calls;
  t.match(calls.find((c: any) => c.kind === 'panik'), { priority: 1, title: '10-99 Panik Spieler 4', location: { x: 215.5, y: -810.25, street: 'Alta Street' } }, 'the panic button');
  t.match(calls.find((c: any) => c.title === '10-66 Verdächtige Person'), { kind: 'alarm', source: 'ps-dispatch', location: { x: 215.5, y: -810.25, street: 'Alta Street' } }, 'a client CustomAlert at the player\'s position');
  const sent = (await fivem.send({ op: 'sent' })).sent;
  t.notMatch(JSON.stringify(sent), new RegExp(key), 'the key is in nothing sent to a client');
  t.notMatch(JSON.stringify((await fivem.send({ op: 'output' })).output), new RegExp(key), 'nor in the console');

  t.match((await fivem.send({ op: 'net', event: 'dispatch-terminal:status', source: 4, args: [{ x: 1 }], wait: true })).result,
    { event: 'status', ok: false, status: 400 }, 'a client sending junk gets a 400');
  t.match((await fivem.send({ op: 'net', event: 'dispatch-terminal:status', source: 5, args: ['3'], wait: true })).result,
    { ok: false, status: 409 }, 'Kai is in no unit: the server\'s 409 reaches him');
});

t.test('a player is limited to Config.PlayerEventsPerMinute (12) events a minute', async (t) => {
  const answers = [];
  for (let i = 0; i < 12; i++) answers.push((await fivem.send({ op: 'net', event: 'dispatch-terminal:status', source: 3, args: ['3'], wait: true })).result.status);
  t.notOk(answers.includes(429), 'twelve are let through (Jan is in no unit: 409)');
  t.match((await fivem.send({ op: 'net', event: 'dispatch-terminal:panic', source: 3, args: [{}], wait: true })).result, { ok: false, status: 429 });
});

t.test("the dispatcher's alarm reaches the crew's game with the waypoint; the end clears it", async (t) => {
  t.match(await call('setBadge', 3, null), { ok: true }, 'player 3 (Jan) loses the badge 07 the README example gave him');
  const incident = await must(api('POST', '/incidents', { key, body: { keyword: 'RD 1', priority: 1, location: { x: 300, y: -500.5, street: 'Alta Street 5' } } }));
  await must(api('POST', `/incidents/${incident.number}/alarm`, { key, body: { callsigns: ['RTW 1', 'NEF 2'] } }));
  let alarms: any[] = [];
  await eventually(async () => {
    alarms = (await fivem.send({ op: 'sent' })).sent.filter((s: any) => s.name === 'dispatch-terminal:alarm');
    return alarms.length > 0;
  }, 'the alarm event', 5000);
  t.same(alarms.map((a) => a.target), ['4'], 'to Ida (RTW 1) only: NEF 2 has no crew');
  t.match(alarms[0].args[0], { callsign: 'RTW 1', number: incident.number, keyword: 'RD 1', priority: 1, address: 'Alta Street 5', waypoint: { x: 300, y: -500.5 } });
  t.same(alarms[0].args[0].units.sort(), ['NEF 2', 'RTW 1']);
  await must(api('POST', `/incidents/${incident.number}/close`, { key, body: {} }));
  await eventually(async () => (await fivem.send({ op: 'sent' })).sent.some((s: any) => s.name === 'dispatch-terminal:cleared' && s.args[0].number === incident.number), 'cleared', 5000);
});

t.test('a scoped key: what it lacks is a 403 result naming the scope; the medic queue off is a 503', async (t) => {
  const scoped = await node16Harness(t, resource, {
    convars: { dispatch_terminal_url: server.url, dispatch_terminal_key: await scopedKey(server.sql, G, ['calls:call.report']) }, players: {},
  });
  await scoped.send({ op: 'config', config: { Alarms: { enabled: false } } });
  const run = async (name: string, ...args: unknown[]) => (await scoped.send({ op: 'export', name, args: [...args, { $function: true }] })).result;
  t.match(await run('reportCall', { externalId: 'scoped-1', title: 'Brand' }), { ok: true, data: { externalId: 'scoped-1' } });
  t.match(await run('clockIn', { badge: 9 }), { ok: false, status: 403, error: /timeclock:shift\.ingame_clock/ });
  t.match(await run('occupyUnit', { badge: 9 }, 'NEF 2'), { ok: false, status: 403 }, 'occupying needs an unscoped key (the badge lookup already lacks employees:read)');
  t.match(await run('vitals', 'ABC12345', { heartRate: 80 }), { ok: false, status: 503, error: /Config\.Medic\.enabled/ });
});
