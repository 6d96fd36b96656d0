import { decimal, lang, locale, locales } from '../../app/i18n.ts';

/**
 * Numbers, durations and days of the Statistik tab in the board's language. Days are the server's
 * local days of the guild (`YYYY-MM-DD`): they are formatted and stepped as calendar dates (UTC
 * arithmetic), never through the browser's own time zone.
 */

const MINUTE = 60_000;
const avgs = { de: new Intl.NumberFormat(locales.de, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), en: new Intl.NumberFormat(locales.en, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) };

export const whole = (n: number) => decimal(n, 0);
/** A head count average with one decimal: 2,3. */
export const avg = (n: number) => avgs[lang.value].format(n);

/**
 * A duty time in hours and minutes, never days (duty hours are counted in hours), as the charts
 * write it: "0 min", "< 1 min", "45 min", "12 h 30 min", "72 h", "1.234 h 5 min". Minutes are
 * rounded down: a time is never overstated.
 */
export function dutyTime(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 min';
  if (ms < MINUTE) return '< 1 min';
  const minutes = Math.floor(ms / MINUTE);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes % 60 === 0 ? `${whole(hours)} h` : `${whole(hours)} h ${minutes % 60} min`;
}

/** A change of duty time with its sign: "+3 h 10 min", "−45 min". */
export function signedDutyTime(ms: number): string {
  return `${ms < 0 ? '−' : '+'}${dutyTime(Math.abs(ms))}`;
}

/** A percentage with one decimal and its sign: "+12,5 %", "−3 %". */
export function signedPercent(pct: number): string {
  return `${pct < 0 ? '−' : '+'}${decimal(Math.abs(pct), 1)} %`;
}

// ---- local days (YYYY-MM-DD) ----

const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromUtc = (t: number) => new Date(t).toISOString().slice(0, 10);

export function addDays(day: string, n: number): string {
  return fromUtc(toUtc(day) + n * 86_400_000);
}

/** The same day of the month `n` months later, clamped to the month's last day (31 Jan + 1 → 28/29 Feb). */
export function addMonths(day: string, n: number): string {
  const d = new Date(toUtc(day));
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return fromUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d.getUTCDate(), last)));
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toUtc(b) - toUtc(a)) / 86_400_000);
}

/** Today in `timeZone` (the guild's), as YYYY-MM-DD. */
export function todayIn(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now());
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now());
  }
}

/** ISO week number of a day (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(day: string): number {
  const t = toUtc(day);
  const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(t + (3 - weekday) * 86_400_000);
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return Math.floor((thursday.getTime() - jan1) / 86_400_000 / 7) + 1;
}

function dayFormatter(options: Intl.DateTimeFormatOptions) {
  const made = {
    de: new Intl.DateTimeFormat(locales.de, { ...options, timeZone: 'UTC' }),
    en: new Intl.DateTimeFormat(locales.en, { ...options, timeZone: 'UTC' }),
  };
  return (day: string) => made[lang.value].format(toUtc(day));
}

/** 23.03.2026 */
export const dayText = dayFormatter({ day: '2-digit', month: '2-digit', year: 'numeric' });
/** 23.03. */
const dayShort = dayFormatter({ day: '2-digit', month: '2-digit' });
/** Mo., 23.03.2026 */
export const dayLong = dayFormatter({ weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric' });
/** März 2026 */
export const monthText = dayFormatter({ month: 'long', year: 'numeric' });

/** "23.03. – 29.03.2026", or one day when both are the same. */
export function spanText(first: string, last: string): string {
  if (first === last) return dayText(first);
  return `${first.slice(0, 4) === last.slice(0, 4) ? dayShort(first) : dayText(first)} – ${dayText(last)}`;
}

/** An instant (ISO) in the guild's zone: "Mo., 23.03., 14:05". */
export function instantText(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale(), { timeZone, weekday: 'short', day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** An instant's local day in the guild's zone (to tell whether two instants share a day). */
export function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** An instant's local time of day in the guild's zone: "14:05". */
export function timeText(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale(), { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}
