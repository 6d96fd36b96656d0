/**
 * The game bridge: what a FiveM resource calls, over plain REST (`/api/v1`) with a scoped API key.
 * Dependency-free at run time (node:http or fetch, see http.ts), so it runs in FiveM's Node 16.
 * Inputs and outputs are the server's own types; timestamps arrive as ISO strings (JSON).
 */
import type { RouterInputs, RouterOutputs } from '../router.ts';
import { request, RequestError } from './http.ts';
import { pollAlarms, type AlarmWatchOptions, type IngameAlarmList } from './alarms.ts';
import type { ErrorReason } from '../../contract/errors.ts';
import type { PositionIn } from '../../contract/positions.ts';

export type { PositionIn };

/** A JSON answer: what `T` looks like after JSON.stringify (Dates become ISO strings). */
export type Wire<T> = T extends Date ? string
  : T extends readonly (infer U)[] ? Wire<U>[]
  : T extends object ? { [K in keyof T]: Wire<T[K]> }
  : T;

/** A badge as digits or a number (`7`, `'07'`). */
export type Badge = RouterInputs['timeclock']['clockIn']['badge'];
/** A status code of GET /admin/statuses, e.g. `'3'` or `3`. */
export type UnitStatusCode = RouterInputs['units']['gameStatus']['status'];
export type ReportCallInput = RouterInputs['calls']['report'];
export type Call = Wire<RouterOutputs['calls']['report']>;
export type CallList = Wire<RouterOutputs['calls']['ingameList']>;
export type ClockInResult = Wire<RouterOutputs['timeclock']['clockIn']>;
export type ClockOutResult = Wire<RouterOutputs['timeclock']['clockOut']>;
export type ClockStatus = Wire<RouterOutputs['timeclock']['clockStatus']>;
export type UnitStatusResult = Wire<RouterOutputs['units']['gameStatus']>;
export type Membership = Wire<RouterOutputs['units']['addMember']>;
export type Employee = Wire<RouterOutputs['personnel']['employeeByBadge']>;
export type SelfCheck = Wire<RouterOutputs['access']['selfCheck']>;
export type UnitList = Wire<RouterOutputs['units']['list']>;
/** What PUT /integrations/ingame/positions answers: how many it took, and the callsigns no unit of the guild has. */
export interface PositionsResult { accepted: number; unknown: string[] }

/**
 * A refused or failed call. `status` is the HTTP status (400 bad input, 401 missing/invalid/revoked
 * key, 403 the key lacks the scope, 404, 409, 429, 503 …), or 0 when no answer came (network, timeout).
 * `retryAfterS` is the server's Retry-After (429, 503). `reason` is the server's machine-readable
 * why (`already_clocked_in`, `validation`, `not_found` … of contract/errors.ts; absent when no
 * answer came), `params` the variable parts of its message: branch on these, not on the message.
 */
export class DispatchError extends Error {
  readonly status: number;
  readonly retryAfterS?: number;
  readonly reason?: ErrorReason;
  readonly params?: Readonly<Record<string, string>>;
  constructor(status: number, message: string, retryAfterS?: number, why?: { reason?: ErrorReason; params?: Record<string, string> }) {
    super(message);
    this.name = 'DispatchError';
    this.status = status;
    if (retryAfterS !== undefined) this.retryAfterS = retryAfterS;
    if (why?.reason) this.reason = why.reason;
    if (why?.params) this.params = why.params;
  }
}

export interface GameBridgeOptions {
  /** Server root, e.g. `http://127.0.0.1:3000` (without /api/v1). */
  baseUrl: string;
  /** A `stmp_…` key; scoped keys need the scope named at each method. */
  apiKey: string;
  /** A fetch to use instead of the global one; `null` forces node:http (default: global fetch if present). */
  fetch?: typeof fetch | null;
  /** Per attempt (default 10 000 ms). */
  timeoutMs?: number;
  /**
   * Further attempts (default 2) after a 429/502/503/504, waiting the server's Retry-After (at most
   * `maxRetryWaitS`) or a jittered back-off, and after no answer for calls that are safe to repeat
   * (reads, unit status, resolve). A POST that may have been applied is not sent twice.
   */
  retries?: number;
  /** A longer Retry-After is not waited for: the DispatchError is thrown at once (default 10 s). */
  maxRetryWaitS?: number;
}

const retryable = new Set([429, 502, 503, 504]);

export function createGameBridge(opts: GameBridgeOptions) {
  // A misconfigured resource (empty convar) should say so at start, not with every call.
  if (typeof opts?.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(opts.baseUrl)) {
    throw new TypeError(`createGameBridge: baseUrl must be the server root, e.g. http://127.0.0.1:3000 (got ${JSON.stringify(opts?.baseUrl)})`);
  }
  const base = `${opts.baseUrl.replace(/\/+$/, '')}/api/v1`;
  const retries = opts.retries ?? 2;
  const maxWaitS = opts.maxRetryWaitS ?? 10;

  async function send<T>(method: string, path: string, body: unknown, repeatable: boolean): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      let err: DispatchError;
      try {
        const res = await request(base + path, {
          method, headers, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: opts.timeoutMs, fetch: opts.fetch,
        });
        if (res.status >= 200 && res.status < 300) return (res.body ? JSON.parse(res.body) : undefined) as T;
        err = errorOf(res.status, res.body, res.headers['retry-after']);
        if (!retryable.has(res.status)) throw err;
      } catch (e) {
        if (!(e instanceof RequestError)) throw e;
        err = new DispatchError(0, e.message);
        if (!repeatable) throw err;
      }
      if (attempt >= retries) throw err;
      if (err.retryAfterS !== undefined && err.retryAfterS > maxWaitS) throw err;
      await sleep(err.retryAfterS !== undefined ? err.retryAfterS * 1000 : backoffMs(attempt));
    }
  }
  const path = (s: string) => encodeURIComponent(s);

  return {
    /** Report or update a call (same externalId on an open call updates it). Scope `calls:call.report`. */
    reportCall: (call: ReportCallInput) => send<Call>('POST', '/integrations/ingame/calls', call, false),
    /** Resolve the newest call with this externalId, e.g. resolution "reached". Scope `calls:call.report`. */
    resolveCall: (externalId: string, resolution: string) =>
      send<Call>('POST', `/integrations/ingame/calls/${path(externalId)}/resolve`, { resolution }, true),
    /** Open calls, most urgent first. Scope `calls:read`. */
    listCalls: () => send<CallList>('GET', '/integrations/ingame/calls', undefined, true),
    /** Clock a person in by badge (404 unknown badge, 409 already in). Scope `timeclock:shift.ingame_clock`. */
    clockIn: (badge: Badge) => send<ClockInResult>('POST', '/admin/clock-in', { badge }, false),
    /** Clock a person out by badge (409 not clocked in). Scope `timeclock:shift.ingame_clock`. */
    clockOut: (badge: Badge) => send<ClockOutResult>('POST', '/admin/clock-out', { badge }, false),
    /** Clock status of a badge. Scope `timeclock:shift.ingame_clock`. */
    clockStatus: (badge: Badge) => send<ClockStatus>('GET', `/admin/clock-status/${path(String(badge))}`, undefined, true),
    /** Set the status of the unit the person with this badge occupies (409 not in a unit). Scope `units:unit.ingame_status`. */
    setUnitStatus: (badge: Badge, status: UnitStatusCode) => send<UnitStatusResult>('PUT', '/integrations/ingame/unit-status', { badge, status }, true),
    /** Put a clocked-in person (by chat-platform user id) into a unit, moving them out of their current one (404, 409 not clocked in). Unscoped key. */
    occupyUnit: (callsign: string, userId: string) =>
      send<Membership>('PUT', `/units/${path(callsign)}/members/${path(userId)}`, undefined, true),
    /** Take a person out of a unit (404 when they are not in it). Unscoped key. */
    leaveUnit: (callsign: string, userId: string) =>
      send<Membership>('DELETE', `/units/${path(callsign)}/members/${path(userId)}`, undefined, true),
    /** Every unit with status and members (who occupies which unit). Unscoped key. */
    listUnits: () => send<UnitList>('GET', '/units', undefined, true),
    /**
     * The latest positions of units by callsign (at most 500 per call, contract/positions.ts; the
     * latest wins, so it is safe to repeat). Scope `units:unit.ingame_position`.
     */
    sendPositions: (positions: PositionIn[]) => send<PositionsResult>('PUT', '/integrations/ingame/positions', { positions }, true),
    /** Who a player is, by badge or by chat-platform user id. Scope `employees:read`. */
    lookupPlayer: (who: { badge: Badge } | { userId: string }) => send<Employee>('GET', 'badge' in who
      ? `/integrations/ingame/employees/${path(String(who.badge))}`
      : `/integrations/ingame/employees/user/${path(who.userId)}`, undefined, true),
    /** Units alarmed on open incident sheets, with crew and incident (one poll). Scope `calls:read`. */
    listAlarms: () => send<IngameAlarmList>('GET', '/integrations/ingame/alarms', undefined, true),
    /**
     * Emits `alarm` for every unit alarmed from now on (and those in alarm at the start, marked
     * `initial`), with the incident, its address and the waypoint (x/y); `cleared` when it is over.
     * Polls every 500 ms. Scope `calls:read`.
     *
     *   dt.watchAlarms().on('alarm', (a) => notifyCrew(a.crew, a.incident.keyword, a.address, a.waypoint));
     */
    watchAlarms: (watch?: AlarmWatchOptions) => pollAlarms(() => send<IngameAlarmList>('GET', '/integrations/ingame/alarms', undefined, true), watch),
    /** The key's guild, name and scopes, and which of `need` it lacks (start-up check). Scope `capabilities:read`. */
    selfCheck: (need?: string[]) => send<SelfCheck>('GET',
      `/integrations/ingame/self-check${need?.length ? `?need=${need.map(path).join(',')}` : ''}`, undefined, true),
  };
}

export type GameBridge = ReturnType<typeof createGameBridge>;

function errorOf(status: number, text: string, retryAfter: string | undefined): DispatchError {
  let message = `HTTP ${status}`;
  let why: { reason?: ErrorReason; params?: Record<string, string> } | undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown; reason?: unknown; params?: unknown };
    if (typeof body?.error === 'string') message = body.error;
    if (typeof body?.reason === 'string') {
      why = { reason: body.reason as ErrorReason };
      if (body.params && typeof body.params === 'object') why.params = body.params as Record<string, string>;
    }
  } catch {
    if (text) message = `${message}: ${text.slice(0, 200)}`;
  }
  const s = retryAfter === undefined ? NaN : Number(retryAfter);
  return new DispatchError(status, message, Number.isFinite(s) && s >= 0 ? s : undefined, why);
}

function backoffMs(attempt: number): number {
  const base = Math.min(8000, 250 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
