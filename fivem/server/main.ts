/**
 * The dispatch-terminal resource's server script (built into server.js, CommonJS for FiveM's Node 16).
 * Exports are registered at once, so other resources can call them from their first tick; they
 * answer 503 until the resource is configured. Configuration arrives from server.lua, which hands
 * config.lua's `Config` over in the local (not network) event `dispatch-terminal:config`; the key
 * is read from the server convar `dispatch_terminal_key` only.
 */
import { createGameBridge, type AlarmWatch, type GameBridge } from '../../client-sdk/game.ts';
import { alarmsToCrews } from './alarms.ts';
import { readConfig, type ResourceConfig } from './config.ts';
import { gameExports } from './exports.ts';
import { medicExports, startMedic, type Medic } from './medic.ts';
import { natives } from './natives.ts';
import { createPeople } from './people.ts';
import { listenToPlayers } from './players.ts';
import { startPlayerPositions } from './positions.ts';
import { ExportError } from './results.ts';

const RESOURCE = natives.GetCurrentResourceName();
const say = (message: string) => console.log(`[${RESOURCE}] ${message}`);

let config: ResourceConfig | null = null;
let game: GameBridge | null = null;
let medic: Medic | null = null;
let watch: AlarmWatch | null = null;
let positions: ReturnType<typeof startPlayerPositions> | null = null;

const bridge = (): GameBridge => {
  if (game) return game;
  throw new ExportError(config ? 'set the convars dispatch_terminal_url and dispatch_terminal_key, then restart the resource' : 'dispatch-terminal is starting', 503, 'unavailable');
};
const medicQueue = (): Medic => {
  if (medic) return medic;
  throw new ExportError('the medic queue is off (Config.Medic.enabled = true turns it on)', 503, 'unavailable');
};

const people = createPeople(bridge);
const all = { ...gameExports(bridge, people, say), ...medicExports(medicQueue, (call) => bridge().reportCall({ source: RESOURCE, ...call }), say) };
for (const [name, fn] of Object.entries(all)) natives.exports(name, fn);
listenToPlayers(() => config, bridge, people, say);

function configure(raw: unknown) {
  if (config) return; // server.lua sends it at load and again at start: the first wins
  config = readConfig(raw);
  if (!config.url || !config.key) return say('convars dispatch_terminal_url (or Config.Url) and dispatch_terminal_key are not set: exports answer 503 (set them, then restart the resource)');
  if (!/^https?:\/\/[^/]/.test(config.url)) return say(`the URL ${JSON.stringify(config.url)} is not http(s)://host[:port]: exports answer 503`);
  game = createGameBridge({ baseUrl: config.url, apiKey: config.key });
  if (config.alarms.enabled) watch = alarmsToCrews(game, people, config.alarms.pollMs, say);
  if (config.positions.enabled) {
    const batchBridge = createGameBridge({ baseUrl: config.url, apiKey: config.key, retries: 0, timeoutMs: 5_000 });
    positions = startPlayerPositions(bridge, batchBridge, people, config.positions.intervalMs, say);
  }
  if (config.medic.enabled) {
    try {
      medic = startMedic({ baseUrl: config.url, apiKey: config.key, dir: natives.GetResourcePath(RESOURCE), idPrefix: RESOURCE, settings: config.medic.settings, log: say });
    } catch (err) {
      say(`medic queue not started: ${(err as Error).message}`);
    }
  }
  const sending = positions ? `; positions every ${config.positions.intervalMs} ms` : '';
  say(`reports to ${config.url}${watch ? `; alarms every ${config.alarms.pollMs} ms` : ''}${sending}${medic ? '; medic queue on' : ''}`);
}

natives.on('dispatch-terminal:config', configure);
natives.on('onResourceStop', (name: string) => {
  if (name !== RESOURCE) return;
  watch?.close();
  positions?.stop();
  void medic?.stop();
});
natives.RegisterCommand('dispatch_terminal_status', (source: number) => {
  if (Number(source) !== 0) return;
  const m = medic ? `; medic ${medic.sync.status().state}: ${medic.sync.status().message}` : '';
  const p = positions ? `; positions: ${positions.batch.pending} waiting${positions.batch.failures ? `, ${positions.batch.failures} failed in a row` : ''}` : '';
  say(`${game ? `reporting to ${config!.url}` : 'not configured'}${watch ? '; alarms on' : ''}${p}${m}`);
}, true);
