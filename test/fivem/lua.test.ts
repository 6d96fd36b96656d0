import t from 'tap';
import { join } from 'node:path';
import { buildResource, readmeLua, runLua } from './helpers.ts';

// Issue 31: the resource's Lua side run by a real Lua 5.4 (Debian's lua5.4) against a stand-in of
// the FiveM natives it uses (test/fivem/lua/standin.lua). config.lua parses and holds no key;
// client.lua registers the status keys and the panic button, turns ps-dispatch's CustomAlert into a
// server event, shows the alarm and sets (and clears) the GPS waypoint; server.lua hands Config to
// server.js; the README's Lua example calls the exports with the arguments they take.
const resource = join(buildResource(t), 'dispatch-terminal');
const client = await runLua('client-run.lua', resource);
const events = client.record.filter((r: any) => r.kind === 'serverEvent');

t.test('client.lua registers the status keys, the panic button and the CustomAlert export', async (t) => {
  t.same(client.commands, ['dt_status_1', 'dt_status_2', 'dt_status_3', 'dt_status_4', 'dt_status_6', 'panik', 'status']);
  t.same(client.mappings.map((m: any) => [m.command, m.mapper, m.key]), [
    ['dt_status_1', 'keyboard', 'NUMPAD1'], ['dt_status_2', 'keyboard', 'NUMPAD2'], ['dt_status_3', 'keyboard', 'NUMPAD3'],
    ['dt_status_4', 'keyboard', 'NUMPAD4'], ['dt_status_6', 'keyboard', 'NUMPAD6'], ['panik', 'keyboard', ''],
  ], 'a key mapping per status of config.lua (changeable in the game\'s settings), the panic button without a default key');
  t.match(client.mappings[2].description, /^Status 3: Einsatz übernommen$/);
  t.same(client.clientExports, ['CustomAlert']);
  t.same(client.netEvents, ['dispatch-terminal:alarm', 'dispatch-terminal:cleared', 'dispatch-terminal:result', 'dispatch-terminal:unit']);
});

t.test('keys and the panic button become server events; no key, no HTTP on the client', async (t) => {
  t.same(events[0], { kind: 'serverEvent', name: 'dispatch-terminal:status', args: ['3'] }, '/status 3');
  t.same(events[1], { kind: 'serverEvent', name: 'dispatch-terminal:status', args: ['2'] }, 'the key of status 2');
  t.same(events[2], { kind: 'serverEvent', name: 'dispatch-terminal:panic', args: [{ x: 215.5, y: -810.25, z: 30.75, street: 'Alta Street' }] }, '/panik with the position and street');
});

t.test("exports['ps-dispatch']:CustomAlert reaches this resource and goes to the server", async (t) => {
  t.same(events[3], {
    kind: 'serverEvent', name: 'dispatch-terminal:customAlert', args: [{
      message: 'Schüsse gemeldet', codeName: 'shooting', code: '10-11', icon: 'fas fa-gun', priority: 2,
      coords: { x: 25.5, y: -1347.25, z: 29.5 }, street: 'Innocence Blvd', gender: 'männlich', camId: 12,
      firstColor: 'Rot', model: 'Sultan', plate: 'AB 123', jobs: ['leo', 'ems'], sprite: 110, flash: false,
    }],
  }, 'the payload as given, gender = true as the player\'s gender');
  t.same(events[4].args[0], { message: 'Verdächtige Person', code: '10-66', coords: { x: 215.5, y: -810.25, z: 30.75 }, street: 'Alta Street' },
    'without coords: the player\'s position and street');
  t.equal(events.length, 5, 'nothing else is sent');
});

t.test('the alarm: notification and GPS waypoint; cleared: the waypoint goes', async (t) => {
  const after = client.record.filter((r: any) => r.kind !== 'serverEvent');
  t.match(after[0], { kind: 'notify', text: /ALARM~s~ RTW 1 — Einsatz 7~n~~y~RD 1~s~ \(Priorität 1\)~n~Alta Street 5~n~Person gestürzt~n~Einheiten: RTW 1, NEF 2/ });
  t.same(after[1], { kind: 'waypoint', x: 300, y: -500.5 }, 'SetNewWaypoint(x, y) of the incident');
  t.same(after[2], { kind: 'waypointOff' });
  t.match(after[3], { kind: 'notify', text: 'Einsatz 7 für RTW 1 beendet' });
  t.match(after[4], { kind: 'notify', text: /not in a unit/ }, 'a refused status key is shown');
});

t.test("config.lua parses; server.lua hands Config to server.js; the README's Lua calls the exports", async (t) => {
  const run = await runLua('exports-run.lua', resource, readmeLua(resource, t));
  const config = run.record.filter((r: any) => r.kind === 'event');
  t.equal(config.length, 2, 'at load and at start');
  for (const c of config) {
    t.equal(c.name, 'dispatch-terminal:config');
    t.match(c.args[0], { Url: 'http://127.0.0.1:3000', Alarms: { enabled: true, pollMs: 500 }, Medic: { enabled: false }, PlayerEventsPerMinute: 12 });
    t.notMatch(JSON.stringify(c.args[0]), /key"\s*:\s*"stmp|apiKey|Key"/, 'no key in Config');
  }
  const calls = run.record.filter((r: any) => r.kind === 'export');
  t.ok(calls.every((c: any) => c.resource === 'dispatch-terminal'));
  t.same(calls.map((c: any) => c.name), [
    'reportCall', 'resolveCall', 'clockIn', 'clockIn', 'clockStatus', 'occupyUnit', 'setUnitStatus', 'leaveUnit', 'clockOut',
    'lookupEmployee', 'setBadge', 'sendPositions', 'CustomAlert', 'admit', 'injury', 'vitals', 'flush', 'careTier', 'notruf',
  ]);
  const byName = (n: string) => calls.find((c: any) => c.name === n);
  t.same(byName('clockIn').args, [{ badge: 7 }, { $function: true }], 'who, then the callback');
  t.same(calls[3].args, [{ player: 3 }], 'a player by server id');
  t.same(byName('setUnitStatus').args, [{ badge: 7 }, '3']);
  t.same(byName('occupyUnit').args, [{ badge: 7 }, 'RTW 1']);
  t.same(byName('setBadge').args, [3, '07']);
  t.same(byName('sendPositions').args, [[{ callsign: 'RTW 1', x: 215.5, y: -810.2, z: 30.7, heading: 90, speed: 12.5 }], { $function: true }], 'a list of positions, then the callback');
  t.match(byName('reportCall').args[0], { externalId: 'bank-17', kind: 'alarm', location: { x: 150.2, y: -1040.1 } });
  t.match(run.record.at(-1).lines, ['clocked in', 'nil', 'nil nil', /^medic events delivered: table/, /^care tier: table/], 'the callbacks ran (the stand-in answers { ok = true, data = {} })');
});
