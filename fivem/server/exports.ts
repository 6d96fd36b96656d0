/**
 * The resource's server exports for Lua and JS (`exports['dispatch-terminal']:clockIn({ badge = 7 }, cb)`).
 * Each returns a request id at once and calls its optional last argument `cb(result)` once with
 * `{ ok, data }` or `{ ok = false, status, reason, error }` (results.ts). Input is checked here
 * first, so a wrong argument is a clear 400 and never reaches the server as something else.
 */
import type { GameBridge, ReportCallInput } from '../../client-sdk/game.ts';
import { callOfCustomAlert } from './custom-alert.ts';
import { natives } from './natives.ts';
import type { People } from './people.ts';
import { positionsOfExport, sendAll } from './positions.ts';
import { exported, ExportError } from './results.ts';

type Log = (message: string) => void;
type Fn = (...args: any[]) => unknown;

const EXTERNAL_ID = /^[A-Za-z0-9._:-]{1,80}$/;
const CALLSIGN = /^.{1,40}$/su;

function table(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ExportError(`${what} must be a table`);
  return v as Record<string, unknown>;
}
function externalId(v: unknown): string {
  if (typeof v !== 'string' || !EXTERNAL_ID.test(v)) throw new ExportError('externalId must be 1 to 80 of A-Z a-z 0-9 . _ : -');
  return v;
}
function callsign(v: unknown): string {
  if (typeof v !== 'string' || !CALLSIGN.test(v.trim())) throw new ExportError('callsign must be a unit\'s callsign, e.g. "RTW 1"');
  return v.trim();
}
function status(v: unknown): string | number {
  if (!((typeof v === 'string' && /^\w{1,10}$/.test(v)) || (typeof v === 'number' && Number.isInteger(v)))) throw new ExportError('status must be a status code of the board, e.g. "3"');
  return v;
}

/** The game exports: what `register` hands to FiveM's `exports`. `bridge()` throws while no URL/key is set. */
export function gameExports(bridge: () => GameBridge, people: People, log: Log): Record<string, Fn> {
  const reporter = () => natives.GetInvokingResource?.() || natives.GetCurrentResourceName();
  const fns: Record<string, Fn> = {
    /** The call's `source` is the calling resource unless the call names one. */
    reportCall: (call: unknown) => bridge().reportCall({ source: reporter(), ...table(call, 'call') } as unknown as ReportCallInput),
    resolveCall: (id: unknown, resolution: unknown) => bridge().resolveCall(externalId(id), typeof resolution === 'string' ? resolution : 'reached'),
    listCalls: () => bridge().listCalls(),
    clockIn: async (who: unknown) => bridge().clockIn(await people.badgeOf(who)),
    clockOut: async (who: unknown) => bridge().clockOut(await people.badgeOf(who)),
    clockStatus: async (who: unknown) => bridge().clockStatus(await people.badgeOf(who)),
    setUnitStatus: async (who: unknown, code: unknown) => {
      const s = status(code);
      return bridge().setUnitStatus(await people.badgeOf(who), s);
    },
    occupyUnit: async (who: unknown, unit: unknown) => {
      const c = callsign(unit);
      return bridge().occupyUnit(c, await people.userIdOf(who));
    },
    leaveUnit: async (who: unknown, unit: unknown) => {
      const c = callsign(unit);
      return bridge().leaveUnit(c, await people.userIdOf(who));
    },
    lookupEmployee: async (who: unknown) => {
      const w = people.parse(who);
      if ('badge' in w) return bridge().lookupPlayer({ badge: w.badge });
      return bridge().lookupPlayer({ userId: await people.userIdOf(w) });
    },
    setBadge: (player: unknown, badge: unknown) => people.setBadge(player, badge),
    /** Positions of units by callsign, for resources that track vehicles themselves (500 per request). */
    sendPositions: (list: unknown) => {
      const positions = positionsOfExport(list);
      return sendAll(bridge(), positions);
    },
    /** ps-dispatch compatibility (server side); clients reach it through client.lua's CustomAlert. */
    CustomAlert: (data: unknown) => bridge().reportCall(callOfCustomAlert(data, reporter())),
  };
  return Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, exported(name, fn, log)]));
}
