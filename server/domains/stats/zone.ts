/**
 * Local calendar days of an IANA time zone, as UTC instants. Days are plain `{y, m, d}` (calendar
 * arithmetic needs no zone); only the start of a day needs one. A day's start is exact across DST:
 * in Europe/Berlin the last Sunday of March is 23 hours long and the last of October 25.
 */
export interface Day { y: number; m: number; d: number }

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's canonical name, or null when the runtime does not know it. */
export function canonicalZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The wall clock in `timeZone` at the instant `t`, as fields. */
export function wallClock(t: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year, m: parts.month, d: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far the zone's wall clock is ahead of UTC at `t`, in ms. */
function offsetAt(t: number, timeZone: string): number {
  const w = wallClock(t, timeZone);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.hour, w.minute, w.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/**
 * The first instant of local day `day`. Where midnight itself does not exist (a zone that springs
 * forward at 00:00), the day starts at the end of the gap.
 */
export function startOfDay(day: Day, timeZone: string): number {
  const naive = Date.UTC(day.y, day.m - 1, day.d);
  const first = naive - offsetAt(naive, timeZone);
  const second = naive - offsetAt(first, timeZone);
  const candidates = [first, second].filter((t) => sameDay(dayAt(t, timeZone), day)).sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  return Math.max(first, second); // midnight fell in a gap: the later instant is the first one of the day
}

/** The local day the instant `t` falls on. */
export function dayAt(t: number, timeZone: string): Day {
  const w = wallClock(t, timeZone);
  return { y: w.y, m: w.m, d: w.d };
}

export function addDays(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export function addMonths(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1 + n, 1));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: 1 };
}

/** Days from `a` to `b` (b − a), by the calendar. */
export function daysBetween(a: Day, b: Day): number {
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
}

/** ISO weekday: Monday 1 … Sunday 7. */
export function weekday(day: Day): number {
  return ((new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay() + 6) % 7) + 1;
}

export function sameDay(a: Day, b: Day): boolean {
  return a.y === b.y && a.m === b.m && a.d === b.d;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const isoDay = (day: Day) => `${pad(day.y, 4)}-${pad(day.m)}-${pad(day.d)}`;

/** `YYYY-MM-DD` as a day, or null when it is not a date of the calendar (2026-02-30). */
export function parseDay(s: string): Day | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const day = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  if (day.y < 1970 || day.y > 9999) return null;
  return sameDay(addDays(day, 0), day) ? day : null;
}
