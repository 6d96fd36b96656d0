// Loads the built dispatch-terminal server.js as FXServer's JavaScript runtime would (FiveM's
// globals on globalThis, no fetch on Node 16) and drives it from the test over stdin/stdout, one
// JSON line per command and per answer. Run by the registry's Node 16 (test/fivem/node16.test.ts).
//   argv: <resource dir> <JSON { convars, players: { "<source>": ["discord:…"] } }>
//   in:   {"op":"config","config":{…}}           hands Config over as server.lua does
//         {"op":"export","name":"clockIn","args":[…]}  a {"$function":true} argument becomes a callback;
//                                                  answers { id (returned), result (the callback's) }
//         {"op":"net","event":"dispatch-terminal:status","source":3,"args":[…],"wait":true}
//         {"op":"sent"} / {"op":"output"}         what went to clients / the console so far
'use strict';
const readline = require('readline');
const path = require('path');

const [dir, setupJson] = process.argv.slice(2);
const setup = JSON.parse(setupJson);
const handlers = new Map();
const exported = new Map();
const sent = [];
const output = [];
const waiters = [];
const add = (name, fn) => handlers.set(name, (handlers.get(name) || []).concat(fn));
const fire = (name, ...args) => { for (const fn of handlers.get(name) || []) fn(...args); };
const ids = (src) => setup.players[String(src)] || [];

if (typeof globalThis.fetch !== 'undefined') delete globalThis.fetch; // FiveM's Node 16 has none
Object.assign(globalThis, {
  exports: (name, fn) => exported.set(name, fn),
  on: add, AddEventHandler: add, onNet: add,
  emit: fire, TriggerEvent: fire,
  emitNet: (name, target, ...args) => {
    sent.push({ name, target, args });
    for (const w of waiters.splice(0)) w();
  },
  GetConvar: (name, fallback) => (name in setup.convars ? setup.convars[name] : fallback),
  GetCurrentResourceName: () => 'dispatch-terminal',
  GetResourcePath: () => dir,
  GetNumPlayerIdentifiers: (src) => ids(src).length,
  GetPlayerIdentifier: (src, i) => ids(src)[i],
  GetPlayerName: (src) => `Spieler ${src}`,
  GetInvokingResource: () => 'test-resource',
  RegisterCommand: (name, fn) => add(`command:${name}`, fn),
  getPlayers: () => Object.keys(setup.players),
});
for (const level of ['log', 'warn', 'error', 'info']) console[level] = (...a) => output.push(a.join(' '));

require(path.join(dir, 'server.js'));

const reply = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const withCallback = (args, done) => args.map((a) => (a && a.$function ? done : a));

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line);
  if (cmd.op === 'config') {
    fire('dispatch-terminal:config', cmd.config);
    return reply({ ok: true });
  }
  if (cmd.op === 'export') {
    const fn = exported.get(cmd.name);
    if (!fn) return reply({ error: `no export ${cmd.name}` });
    let id;
    const hasCb = cmd.args.some((a) => a && a.$function);
    const done = (result) => setImmediate(() => reply({ id, result }));
    id = fn(...withCallback(cmd.args, done));
    if (!hasCb) reply({ id });
    return undefined;
  }
  if (cmd.op === 'net') {
    const before = sent.length;
    globalThis.source = cmd.source;
    fire(cmd.event, ...cmd.args);
    if (!cmd.wait) return reply({ ok: true });
    const check = () => {
      const got = sent.slice(before).find((s) => s.name === 'dispatch-terminal:result' && String(s.target) === String(cmd.source));
      if (got) reply({ result: got.args[0] });
      else waiters.push(check);
    };
    return check();
  }
  if (cmd.op === 'sent') return reply({ sent });
  if (cmd.op === 'output') return reply({ output, version: process.version });
  return reply({ error: `unknown op ${cmd.op}` });
});
