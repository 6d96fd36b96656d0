/**
 * The game's side of `bench alarm`, in a process of its own as a game server's resource runs:
 * client-sdk/game.ts `createGameBridge(…).watchAlarms()` with its defaults (a poll every 500 ms),
 * against BENCH_BASE_URL with BENCH_API_KEY. Each `alarm` and `cleared` event goes to the bench
 * over IPC with the moment it fired (`clock()`, the same clock as the pages'). Reports `{ready}`.
 */
import { createGameBridge } from '../../client-sdk/game.ts';
import { report, stopOnSignalOrOrphan } from './child.ts';
import { clock } from './alarm-clock.ts';

const send = (message: Record<string, unknown>) => void (process.connected && process.send!(message));
const bridge = createGameBridge({ baseUrl: process.env.BENCH_BASE_URL!, apiKey: process.env.BENCH_API_KEY!, retries: 0 });
const watch = bridge.watchAlarms()
  .on('alarm', (a) => send({ event: 'alarm', callsign: a.callsign, keyword: a.incident.keyword, address: a.address, at: clock() }))
  .on('cleared', (c) => send({ event: 'cleared', callsign: c.callsign, at: clock() }))
  .on('error', (err) => send({ event: 'error', message: String(err?.message ?? err) }));
report({ ready: true });
stopOnSignalOrOrphan(() => watch.close());
