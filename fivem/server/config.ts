/**
 * The resource's settings: `Config` of config.lua (handed over by server.lua, see main.ts) read
 * into plain values with defaults. The URL may come from the convar `dispatch_terminal_url`; the
 * key only ever from the server convar `dispatch_terminal_key` (never config.lua, never a client).
 */
import { natives } from './natives.ts';

export interface ResourceConfig {
  url: string;
  key: string;
  alarms: { enabled: boolean; pollMs: number };
  statusKeys: boolean;
  panic: boolean;
  customAlert: boolean;
  /** Player events (status keys, panic, CustomAlert from a client) per player and minute. */
  perMinute: number;
  medic: { enabled: boolean; settings: Record<string, unknown> };
  /** Players' positions while they occupy a unit, one batch per interval (1000–5000 ms). */
  positions: { enabled: boolean; intervalMs: number };
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});
const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
const int = (v: unknown, fallback: number, min: number, max: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback);

export function readConfig(raw: unknown): ResourceConfig {
  const c = obj(raw);
  const alarms = obj(c.Alarms);
  const medic = obj(c.Medic);
  const { enabled, ...settings } = medic;
  const url = natives.GetConvar('dispatch_terminal_url', '') || (typeof c.Url === 'string' ? c.Url : '');
  return {
    url: url.trim().replace(/\/+$/, ''),
    key: natives.GetConvar('dispatch_terminal_key', '').trim(),
    alarms: { enabled: bool(alarms.enabled, true), pollMs: int(alarms.pollMs, 500, 250, 60_000) },
    statusKeys: bool(obj(c.StatusKeys).enabled, true),
    panic: bool(obj(c.Panic).enabled, true),
    customAlert: bool(obj(c.CustomAlert).enabled, true),
    perMinute: int(c.PlayerEventsPerMinute, 12, 1, 600),
    medic: { enabled: bool(enabled, false), settings },
    positions: { enabled: bool(obj(c.Positions).enabled, true), intervalMs: int(obj(c.Positions).intervalMs, 1500, 1000, 5000) },
  };
}
