import t from 'tap';
import { createGameBridge, type GameAlarm } from '../../client-sdk/game.ts';
import { client, startTestServer } from '../helpers/server.ts';
import { scopedKey, seedGuild, unscopedKey } from '../helpers/fixtures.ts';
import { until } from '../helpers/live.ts';

// The game learns of alarms (issue 29): the bridge, with a key of scope calls:read only, emits
// one `alarm` event per unit with the incident (keyword, priority, address, message, x/y, units)
// and its crew, within a second of the dispatcher's alarm, over fetch and over node:http (FiveM's
// Node 16); `cleared` when the sheet is closed. The route opens nothing else to that key.
const G = '721000000000000001';
const H = '721000000000000002';
const server = await startTestServer(t);
const api = client(server);
await seedGuild(server.sql, G, [
  { userId: '310000000000000001', nickname: 'Ida', badge: '7', rank: 'crew' },
  { userId: '310000000000000002', nickname: 'Jan', badge: '8', rank: 'crew' },
]);
await seedGuild(server.sql, H, []);
const admin = await unscopedKey(server.sql, G);
const must = async (p: ReturnType<typeof api>) => {
  const res = await p;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
for (const callsign of ['RTW-1', 'NEF-1']) await must(api('POST', '/units', { key: admin, body: { callsign } }));
for (const badge of [7, 8]) await must(api('POST', '/admin/clock-in', { key: admin, body: { badge } }));
await must(api('PUT', '/units/RTW-1/members/310000000000000001', { key: admin }));
await must(api('PUT', '/units/RTW-1/members/310000000000000002', { key: admin }));
// A call from the game, taken: the sheet carries its message.
await must(api('POST', '/integrations/ingame/calls', { key: admin, body: { externalId: 'vu-1', title: 'Verkehrsunfall', message: 'PKW gegen Baum, eine Person eingeklemmt', location: { x: 215.5, y: -810.25, street: 'Hafenstraße 5', postal: '20457' } } }));
const sheet = (await must(api('POST', '/calls/vu-1/take', { key: admin }))).incident as { number: number };

for (const transport of ['fetch', 'node:http'] as const) {
  t.test(`${transport}: an alarm event per unit with the incident and its waypoint, within 1 s; cleared when the sheet closes`, async (t) => {
    const reader = createGameBridge({ baseUrl: server.url, apiKey: await scopedKey(server.sql, G, ['calls:read']), retries: 0, ...(transport === 'fetch' ? {} : { fetch: null }) });
    const alarms: (GameAlarm & { at: number })[] = [];
    const cleared: { callsign: string; number: number }[] = [];
    const errors: Error[] = [];
    const watch = reader.watchAlarms();
    t.teardown(() => watch.close());
    watch.on('alarm', (a) => alarms.push({ ...a, at: Date.now() })).on('cleared', (c) => cleared.push(c)).on('error', (e) => errors.push(e));
    await new Promise((r) => setTimeout(r, 700)); // the first poll: nothing in alarm yet
    t.same(alarms, []);

    const number = transport === 'fetch' ? sheet.number : (await must(api('POST', '/incidents', { key: admin, body: { keyword: 'Brand', priority: 2, location: { x: 1, y: 2, street: 'Am Kai 1' } } }))).number;
    const postedAt = Date.now();
    await must(api('POST', `/incidents/${number}/alarm`, { key: admin, body: { callsigns: ['RTW-1', 'NEF-1'] } }));
    await until(() => alarms.length === 2, 'two alarm events', 3000);
    for (const a of alarms) t.ok(a.at - postedAt < 1000, `${a.callsign}: within 1 s (${a.at - postedAt} ms)`);
    const rtw = alarms.find((a) => a.callsign === 'RTW-1')!;
    if (transport === 'fetch') {
      t.match(rtw, {
        callsign: 'RTW-1', initial: false, acknowledgedAt: null,
        waypoint: { x: 215.5, y: -810.25 }, address: 'Hafenstraße 5, 20457',
        crew: [{ userId: '310000000000000001', nickname: 'Ida', badge: '07' }, { userId: '310000000000000002', nickname: 'Jan', badge: '08' }],
        incident: {
          number, keyword: 'Verkehrsunfall', priority: Number, message: 'PKW gegen Baum, eine Person eingeklemmt',
          location: { x: 215.5, y: -810.25, street: 'Hafenstraße 5', postal: '20457' },
        },
      });
      t.same(rtw.incident.units.map((u) => u.callsign).sort(), ['NEF-1', 'RTW-1'], 'every alarmed unit');
      t.equal(typeof rtw.alarmedAt, 'string', 'times as ISO strings');
    } else {
      t.match(rtw, { waypoint: { x: 1, y: 2 }, address: 'Am Kai 1', incident: { keyword: 'Brand', message: null } });
    }
    t.same(alarms.find((a) => a.callsign === 'NEF-1')!.crew, [], 'a unit nobody occupies: no crew');

    // Alarmed again: a new alarm; nothing else comes twice.
    await new Promise((r) => setTimeout(r, 600));
    t.equal(alarms.length, 2, 'each alarm once');
    await must(api('POST', `/incidents/${number}/alarm`, { key: admin, body: { callsigns: ['NEF-1'] } }));
    await until(() => alarms.length === 3, 'the re-alarm', 3000);
    t.equal(alarms[2].callsign, 'NEF-1');

    const version = (await must(api('GET', `/incidents/${number}`, { key: admin }))).version;
    await must(api('POST', `/incidents/${number}/close`, { key: admin, body: { version } }));
    await until(() => cleared.length === 2, `both cleared: ${JSON.stringify(cleared)}`, 3000);
    t.same(cleared.map((c) => c.callsign).sort(), ['NEF-1', 'RTW-1']);
    t.same(errors, []);
    for (const c of ['RTW-1', 'NEF-1']) await must(api('PUT', `/units/${c}/status`, { key: admin, body: { status: '2' } }));
  });
}

t.test('alarms already there when the game starts are emitted once, marked initial', async (t) => {
  const n = (await must(api('POST', '/incidents', { key: admin, body: { keyword: 'RD 1', location: 'Marktplatz' } }))).number;
  await must(api('POST', `/incidents/${n}/alarm`, { key: admin, body: { callsigns: ['RTW-1'] } }));
  const watch = createGameBridge({ baseUrl: server.url, apiKey: await scopedKey(server.sql, G, ['calls:read']) }).watchAlarms();
  t.teardown(() => watch.close());
  const alarms: GameAlarm[] = [];
  watch.on('alarm', (a) => alarms.push(a));
  await until(() => alarms.length === 1, 'the alarm', 3000);
  t.match(alarms[0], { callsign: 'RTW-1', initial: true, waypoint: null, address: 'Marktplatz', incident: { number: n, location: 'Marktplatz' } });
  const version = (await must(api('GET', `/incidents/${n}`, { key: admin }))).version;
  await must(api('POST', `/incidents/${n}/close`, { key: admin, body: { version } }));
  await must(api('PUT', '/units/RTW-1/status', { key: admin, body: { status: '2' } }));
});

t.test('the route: calls:read opens it and nothing more; other scopes 403; another guild sees none of it', async (t) => {
  const reader = await scopedKey(server.sql, G, ['calls:read']);
  t.equal((await api('GET', '/integrations/ingame/alarms', { key: reader })).status, 200);
  t.equal((await api('GET', '/units', { key: reader })).status, 403, 'not the units list');
  t.equal((await api('GET', `/incidents/${sheet.number}`, { key: reader })).status, 403, 'not the sheet');
  t.equal((await api('POST', `/incidents/${sheet.number}/alarm`, { key: reader, body: { callsigns: ['RTW-1'] } })).status, 403, 'cannot alarm');
  const other = await scopedKey(server.sql, G, ['calls:call.report']);
  t.equal((await api('GET', '/integrations/ingame/alarms', { key: other })).status, 403, 'calls:call.report is not calls:read');
  const n = (await must(api('POST', '/incidents', { key: admin, body: { keyword: 'Brand' } }))).number;
  await must(api('POST', `/incidents/${n}/alarm`, { key: admin, body: { callsigns: ['NEF-1'] } }));
  t.same((await api('GET', '/integrations/ingame/alarms', { key: await unscopedKey(server.sql, H) })).body, { alarms: [] }, 'guild H sees no alarm of G');
  t.equal((await api('GET', '/integrations/ingame/alarms', { key: reader })).body.alarms.length, 1);
});
