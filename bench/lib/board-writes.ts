import { callReport, type SeededGuild } from './board-seed.ts';

/** The writes that make deltas, as users' tools send them: a dispatcher's status change, a game's call report, a clock-in or -out. */
export type WriteKind = 'status' | 'call' | 'clock';
/** Shares of each kind, e.g. `{ status: 0.7, call: 0.15, clock: 0.15 }`. */
export type Mix = Partial<Record<WriteKind, number>>;

export interface DriveReport { writes: number; failures: string[]; ms: number }

/** REST with an API key (`/api/v1` + path); throws with the server's message on a non-2xx answer. */
export function restClient(base: string, key: string) {
  return async (method: string, path: string, body?: unknown, useKey = key): Promise<unknown> => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${useKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
}

/**
 * Each write changes something (a unit goes to another status, a call's reportCount grows, a
 * person's shift opens or closes), so each one is one event, and one delta frame on the board.
 */
export function deltaWriter(base: string, guild: SeededGuild) {
  const rest = restClient(base, guild.keys[0]);
  const status = new Map(guild.callsigns.map((c) => [c, '2']));
  const reports = new Map<string, number>();
  const onDuty = new Map(guild.floaters.map((b) => [b, true]));
  let n = 0;
  // Writes to one unit, call or person go one after another (with several in flight, a clock-out
  // could otherwise overtake its clock-in, or a status land on the status it was meant to leave).
  const inFlight = new Map<string, Promise<unknown>>();
  const serial = (key: string, send: () => Promise<unknown>): Promise<unknown> => {
    const next = (inFlight.get(key) ?? Promise.resolve()).catch(() => {}).then(send);
    inFlight.set(key, next);
    return next.finally(() => inFlight.get(key) === next && inFlight.delete(key));
  };
  const pick = (mix: Mix, i: number): WriteKind => {
    // A fixed pattern, not random: every run writes the same sequence.
    const total = (mix.status ?? 0) + (mix.call ?? 0) + (mix.clock ?? 0);
    const x = ((i * 0.6180339887) % 1) * total;
    if (x < (mix.status ?? 0)) return 'status';
    return x < (mix.status ?? 0) + (mix.call ?? 0) ? 'call' : 'clock';
  };
  async function write(kind: WriteKind): Promise<void> {
    const i = n++;
    if (kind === 'status') {
      const callsign = guild.callsigns[(i * 7) % guild.callsigns.length];
      const codes = guild.statuses.map((s) => s.code).filter((c) => c !== status.get(callsign));
      const code = codes[i % codes.length];
      status.set(callsign, code);
      await serial(callsign, () => rest('PUT', `/units/${encodeURIComponent(callsign)}/status`, { status: code }));
    } else if (kind === 'call') {
      const at = (i * 13) % guild.externalIds.length;
      const externalId = guild.externalIds[at];
      const report = (reports.get(externalId) ?? 0) + 1;
      reports.set(externalId, report);
      await serial(externalId, () => rest('POST', '/integrations/ingame/calls', callReport(externalId, at, report), guild.keys[i % guild.keys.length]));
    } else {
      const badge = guild.floaters[i % guild.floaters.length];
      const was = onDuty.get(badge)!;
      onDuty.set(badge, !was);
      await serial(badge, () => rest('POST', was ? '/admin/clock-out' : '/admin/clock-in', { badge }));
    }
  }

  /**
   * `count` writes of `mix`, started at a steady `rate` per second (Infinity: as fast as
   * `concurrency` requests in flight allow). Failed writes are reported, not retried.
   */
  async function drive(opts: { count: number; rate: number; mix: Mix; concurrency?: number }): Promise<DriveReport> {
    const started = performance.now();
    const failures: string[] = [];
    const width = opts.concurrency ?? 4;
    let issued = 0;
    await Promise.all(Array.from({ length: width }, async () => {
      while (issued < opts.count) {
        const i = issued++;
        if (Number.isFinite(opts.rate)) {
          const due = started + (i * 1000) / opts.rate;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        await write(pick(opts.mix, i)).catch((err: Error) => failures.push(err.message));
      }
    }));
    return { writes: opts.count - failures.length, failures, ms: performance.now() - started };
  }

  return { drive, rest };
}
