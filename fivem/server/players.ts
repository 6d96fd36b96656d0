/**
 * What players send from client.lua: a status key (`dispatch-terminal:status`), the panic button
 * (`dispatch-terminal:panic`) and a ps-dispatch CustomAlert (`dispatch-terminal:customAlert`).
 * A client can send anything: each event is checked here, limited per player and minute, and sent
 * with the server's key; the player hears back only a short result (`dispatch-terminal:result`).
 */
import type { GameBridge } from '../../client-sdk/game.ts';
import type { ResourceConfig } from './config.ts';
import { callOfCustomAlert } from './custom-alert.ts';
import { natives } from './natives.ts';
import type { People } from './people.ts';
import { exported, ExportError, type Result } from './results.ts';

type Log = (message: string) => void;

export function listenToPlayers(config: () => ResourceConfig | null, bridge: () => GameBridge, people: People, log: Log) {
  const recent = new Map<string, number[]>(); // player -> times of their last events

  /** Runs `fn` for the player who sent the net event, unless switched off or over the limit. */
  const handle = (event: string, on: (c: ResourceConfig) => boolean, fn: (player: string, ...args: unknown[]) => unknown) => {
    const run = exported(event, fn, log);
    natives.onNet(`dispatch-terminal:${event}`, (...args: unknown[]) => {
      const player = String(natives.source);
      const c = config();
      if (!c || !on(c)) return;
      const now = Date.now();
      const times = (recent.get(player) ?? []).filter((t) => now - t < 60_000);
      if (times.length >= c.perMinute) {
        natives.emitNet('dispatch-terminal:result', player, { event, ok: false, status: 429, error: 'too many, try again in a minute' });
        return;
      }
      recent.set(player, [...times, now]);
      run(player, ...args, (r: Result) => natives.emitNet('dispatch-terminal:result', player, r.ok ? { event, ok: true } : { event, ok: false, status: r.status, error: r.error }));
    });
  };

  handle('status', (c) => c.statusKeys, async (player, code) => {
    if (!((typeof code === 'string' && /^\w{1,10}$/.test(code)) || Number.isInteger(code))) throw new ExportError('status must be a status code');
    return bridge().setUnitStatus(await people.badgeOf({ player }), code as string | number);
  });

  handle('panic', (c) => c.panic, async (player, at) => {
    const p = (at && typeof at === 'object' ? at : {}) as Record<string, unknown>;
    const coords = typeof p.x === 'number' && typeof p.y === 'number' ? { x: p.x, y: p.y } : null;
    const name = String(natives.GetPlayerName(player) ?? '').slice(0, 60);
    const call = callOfCustomAlert({ codeName: 'panic', code: '10-99', message: `Panik ${name}`.trim(), coords, street: p.street, name }, natives.GetCurrentResourceName());
    return bridge().reportCall({ ...call, externalId: `panic-${player}-${Date.now().toString(36)}` });
  });

  handle('customAlert', (c) => c.customAlert, (_player, data) => bridge().reportCall(callOfCustomAlert(data, 'ps-dispatch')));

  natives.on('playerDropped', () => {
    const player = String(natives.source);
    recent.delete(player);
    people.forget(player);
  });
}
