/**
 * Entry `@dispatch-terminal/client/game`: the game bridge for FiveM resources (plain REST, scoped
 * keys, no dependencies; the CommonJS build `game.cjs` is self-contained for Node 16).
 *
 *   const { createGameBridge } = require('@dispatch-terminal/client/game');
 *   const dt = createGameBridge({ baseUrl: 'http://127.0.0.1:3000', apiKey: GetConvar('dt_key', '') });
 *   await dt.reportCall({ externalId: 'c-17', title: 'Verkehrsunfall', location: 'Legion Square' });
 */
export * from './game/bridge.ts';
export { pollAlarms, addressOfLocation, type AlarmWatch, type AlarmWatchOptions, type GameAlarm, type IngameAlarmList } from './game/alarms.ts';
export { request, RequestError, type HttpResponse, type RequestOptions } from './game/http.ts';
