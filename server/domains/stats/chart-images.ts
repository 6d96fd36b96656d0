import type { Deps } from '../../deps.ts';
import { DEFAULT_COLOR } from '../branding/service.ts';
import { guildById } from '../guilds/store.ts';
import { formatDuration, renderChart, type ChartSpec, type ChartStyle } from './charts/index.ts';
import { CHART_PIXEL_CAP, DEFAULT_MAX_PIXELS } from './schema.ts';
import type { Leaderboard, PersonStats } from './service.ts';
import { chartWords, type ChartLang } from './charts/words.ts';

export const leaderboardCharts = ['bars', 'share', 'trend'] as const;
export const personCharts = ['shifts', 'trend'] as const;
export type LeaderboardChart = (typeof leaderboardCharts)[number];
export type PersonChart = (typeof personCharts)[number];
export interface ChartLook { maxPixels?: number; theme?: 'dark' | 'light'; lang?: ChartLang }

/** Shares show the first people by name; everyone after them is one slice. */
const SHARE_SLICES = 9;

/** The charts' titles and captions; the board asks for its own language (`lang`), everything else gets German. */
const words = {
  de: {
    period: { daily: 'Tag', weekly: 'Woche', monthly: 'Monat', alltime: 'Gesamt', custom: 'Zeitraum' } as Record<string, string>,
    until: 'bis', people: (n: number) => (n === 1 ? '1 Person' : `${n} Personen`), of: 'von',
    shifts: (n: number) => (n === 1 ? '1 Schicht' : `${n} Schichten`), in: 'in',
    bars: 'Dienstzeit-Rangliste', share: 'Anteil an der Dienstzeit', trend: 'Dienstzeit im Verlauf',
    personTrend: (who: string) => `Verlauf: ${who}`, personShifts: (who: string) => `Dienstzeit: ${who}`,
    before: (range: string) => `Vorher (${range})`, current: 'Dieser Zeitraum',
    day: (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`,
  },
  en: {
    period: { daily: 'Day', weekly: 'Week', monthly: 'Month', alltime: 'All time', custom: 'Period' } as Record<string, string>,
    until: 'until', people: (n: number) => (n === 1 ? '1 person' : `${n} people`), of: 'by',
    shifts: (n: number) => (n === 1 ? '1 shift' : `${n} shifts`), in: 'in',
    bars: 'Duty-time leaderboard', share: 'Share of duty time', trend: 'Duty time over time',
    personTrend: (who: string) => `Trend: ${who}`, personShifts: (who: string) => `Duty time: ${who}`,
    before: (range: string) => `Before (${range})`, current: 'This period',
    day: (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
  },
};
type Words = (typeof words)['de'];

/** German weekday and month abbreviations of the trend's bucket labels (period.ts), in English. */
const englishShort: Record<string, string> = {
  Mo: 'Mon', Di: 'Tue', Mi: 'Wed', Do: 'Thu', Fr: 'Fri', Sa: 'Sat', So: 'Sun', Mär: 'Mar', Mai: 'May', Okt: 'Oct', Dez: 'Dec',
};

/** A bucket label ("Di 03.06.", "Mär 2025", "14:00") in the chart's language. */
function bucketLabel(label: string, lang: ChartLang): string {
  if (lang === 'de') return label;
  const [first, ...rest] = label.split(' ');
  const day = /^(\d\d)\.(\d\d)\.$/.exec(rest[0] ?? '');
  return [englishShort[first] ?? first, ...(day ? [`${day[1]}/${day[2]}`] : rest)].join(' ');
}

/** The image's size: the chart's aspect within maxPixels (capped at 4,000,000 pixels, DESIGN §7). */
export function chartSize(maxPixels: number | undefined, aspect: number): { width: number; height: number } {
  const pixels = Math.min(maxPixels ?? DEFAULT_MAX_PIXELS, CHART_PIXEL_CAP);
  const width = Math.max(1, Math.floor(Math.sqrt(pixels * aspect)));
  return { width, height: Math.max(1, Math.floor(pixels / width)) };
}

function rangeText(r: { firstDay: string | null; lastDay: string }, w: Words): string {
  if (r.firstDay === null) return `${w.until} ${w.day(r.lastDay)}`;
  return r.firstDay === r.lastDay ? w.day(r.firstDay) : `${w.day(r.firstDay)} – ${w.day(r.lastDay)}`;
}

/** What a leaderboard chart shows, its texts in `lang` (German unless the board asks for English). */
export function leaderboardSpec(type: LeaderboardChart, b: Leaderboard, guildName: string, lang: ChartLang = 'de'): ChartSpec {
  const w = words[lang];
  const when = `${w.period[b.period]} ${rangeText(b.range, w)}`;
  const sub = `${guildName} · ${when} · ${formatDuration(b.totals.totalMs)} ${w.of} ${w.people(b.totals.activeCount)}`;
  const name = (r: Leaderboard['rows'][number]) => (r.badgeNumber ? `${r.badgeNumber} ${r.nickname}` : r.nickname);
  switch (type) {
    case 'bars':
      return { kind: 'bars', title: w.bars, subtitle: sub, rows: b.rows.map((r) => ({ label: name(r), ms: r.totalMs })) };
    case 'share': {
      const shown = b.rows.slice(0, SHARE_SLICES);
      const rest = b.totals.totalMs - shown.reduce((a, r) => a + r.totalMs, 0);
      const slices = shown.map((r) => ({ label: name(r), ms: r.totalMs }));
      if (rest > 0) slices.push({ label: chartWords[lang].others, ms: rest });
      return { kind: 'share', title: w.share, subtitle: sub, slices };
    }
    case 'trend':
      return trendSpec(w.trend, sub, b.trend, lang);
  }
}

/** What a person's chart shows, its texts in `lang`. */
export function personSpec(type: PersonChart, s: PersonStats, guildName: string, lang: ChartLang = 'de'): ChartSpec {
  const w = words[lang];
  const who = s.badgeNumber ? `${s.badgeNumber} ${s.nickname}` : s.nickname;
  const sub = `${guildName} · ${w.period[s.period]} ${rangeText(s.range, w)} · ${formatDuration(s.totals.totalMs)} ${w.in} ${w.shifts(s.totals.shiftCount)}`;
  if (type === 'trend') return trendSpec(w.personTrend(who), sub, s.trend, lang);
  return { kind: 'shifts', title: w.personShifts(who), subtitle: sub, labels: s.trend.series.map((p) => bucketLabel(p.label, lang)), ms: s.trend.series.map((p) => p.totalMs) };
}

function trendSpec(title: string, subtitle: string, trend: Leaderboard['trend'], lang: ChartLang): ChartSpec {
  const w = words[lang];
  const previous = trend.previous
    ? { label: w.before(rangeText(trend.previous, w)), ms: trend.series.map((p) => p.previousMs ?? 0) }
    : null;
  return { kind: 'trend', title, subtitle, labels: trend.series.map((p) => bucketLabel(p.label, lang)), current: { label: w.current, ms: trend.series.map((p) => p.totalMs) }, previous };
}

/** The guild's name and accent colour for its charts. */
export async function chartLookOf(deps: Deps, guildId: string): Promise<{ name: string; color: string }> {
  const g = await guildById(deps.sql, guildId);
  const color = typeof g?.branding.color === 'string' ? g.branding.color : DEFAULT_COLOR;
  return { name: g?.name ?? '', color };
}

/** Renders off the event loop (a worker thread) and answers the PNG as base64, the shape `produces: 'image/png'` sends. */
export async function renderPng(spec: ChartSpec, look: ChartLook, color: string) {
  const aspect = spec.kind === 'share' ? 4 / 3 : 16 / 9;
  const style: ChartStyle = { ...chartSize(look.maxPixels, aspect), theme: look.theme ?? 'dark', color, lang: look.lang ?? 'de' };
  const png = await renderChart(spec, style);
  return { contentType: 'image/png' as const, base64: png.toString('base64') };
}
