// Dispatch Terminal alarms for FiveM, server side. The dispatcher alarms units on the board
// ("Alarmieren"); every player in such a unit gets the alarm on screen (keyword, priority, address,
// message, the other units) and a GPS waypoint to the incident. Players are matched to the unit's
// crew by their Discord identifier, or by a badge your framework sets:
//
//   exports['dt-dispatch'].setBadge(source, '07');
//
// Console: `dt_dispatch_status`. Needs only a key with scope calls:read.
const path = require('path');

const RESOURCE = GetCurrentResourceName();
const ROOT = GetResourcePath(RESOURCE);
const { createGameBridge } = require(path.join(ROOT, 'dt-client', 'game.cjs'));

const say = (message) => console.log(`[${RESOURCE}] ${message}`);
const baseUrl = Config.Dispatch.url.replace(/\/+$/, '');
const badges = new Map(); // player source -> badge (from your framework)
let watch = null;
let lastError = null;
let delivered = 0;

exports('setBadge', (source, badge) => badges.set(String(source), badge === null ? null : String(Number(badge)).padStart(2, '0')));
on('playerDropped', () => badges.delete(String(global.source)));

/** The players (sources) who belong to the alarmed unit's crew. */
function playersOf(crew) {
  const byUser = new Set(crew.map((m) => m.userId));
  const byBadge = new Set(crew.map((m) => m.badge).filter(Boolean));
  const out = [];
  for (const source of getPlayers()) {
    const ids = [];
    for (let i = 0; i < GetNumPlayerIdentifiers(source); i++) ids.push(GetPlayerIdentifier(source, i));
    const discord = ids.find((id) => id.startsWith('discord:'));
    const matchDiscord = Config.Dispatch.match.includes('discord') && discord && byUser.has(discord.slice('discord:'.length));
    const matchBadge = Config.Dispatch.match.includes('badge') && byBadge.has(badges.get(String(source)));
    if (matchDiscord || matchBadge) out.push(source);
  }
  return out;
}

/** What the game client shows: plain data, no ids of the board it does not need. */
function forClient(alarm) {
  return {
    callsign: alarm.callsign,
    number: alarm.incident.number,
    keyword: alarm.incident.keyword,
    priority: alarm.incident.priority,
    address: alarm.address,
    message: alarm.incident.message,
    units: alarm.incident.units.map((u) => u.callsign),
    waypoint: alarm.waypoint,
    alarmedAt: alarm.alarmedAt,
  };
}

function start() {
  if (!baseUrl || !Config.Dispatch.key) return say('convars dt_url and dt_key are not set: no alarms (set them, then restart the resource)');
  const bridge = createGameBridge({ baseUrl, apiKey: Config.Dispatch.key });
  watch = bridge.watchAlarms({ intervalMs: Config.Dispatch.pollMs });
  watch.on('alarm', (alarm) => {
    lastError = null;
    const players = playersOf(alarm.crew);
    for (const source of players) emitNet('dt:dispatch:alarm', source, forClient(alarm));
    delivered += players.length;
    say(`alarm ${alarm.callsign}: Einsatz ${alarm.incident.number} ${alarm.incident.keyword}, ${alarm.address || 'ohne Adresse'} -> ${players.length} player(s)`);
  });
  watch.on('cleared', ({ callsign, number }) => {
    // Everyone gets it: a player who left the unit meanwhile still drops the waypoint.
    emitNet('dt:dispatch:cleared', -1, { callsign, number });
  });
  watch.on('error', (err) => {
    if (lastError !== err.message) say(`alarms not read: ${err.message} (trying again)`);
    lastError = err.message;
  });
  say(`alarms from ${baseUrl}, every ${Config.Dispatch.pollMs} ms`);
}

on('onResourceStart', (name) => {
  if (name === RESOURCE) start();
});
on('onResourceStop', (name) => {
  if (name === RESOURCE && watch) watch.close();
});

RegisterCommand('dt_dispatch_status', (source) => {
  if (source !== 0) return;
  say(`${watch ? 'watching' : 'not running'}; ${delivered} alarm(s) shown to players${lastError ? `; last error: ${lastError}` : ''}`);
}, true);
