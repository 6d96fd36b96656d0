import type { Deps } from '../../deps.ts';
import { DEFAULT_COLOR } from '../branding/service.ts';
import { guildById } from '../guilds/store.ts';
import { formatDuration, renderChart, type ChartSpec, type ChartStyle } from './charts/index.ts';
import { CHART_PIXEL_CAP, DEFAULT_MAX_PIXELS } from './schema.ts';
import type { Leaderboard, PersonStats } from './service.ts';

export const leaderboardCharts = ['bars', 'share', 'trend'] as const;
export const personCharts = ['shifts', 'trend'] as const;
export type LeaderboardChart = (typeof leaderboardCharts)[number];
export type PersonChart = (typeof personCharts)[number];
export interface ChartLook { maxPixels?: number; theme?: 'dark' | 'light' }

/** Shares show the first people by name; everyone after them is one slice. */
const SHARE_SLICES = 9;
const periodWords: Record<string, string> = { daily: 'Tag', weekly: 'Woche', monthly: 'Monat', alltime: 'Gesamt', custom: 'Zeitraum' };

/** The image's size: the chart's aspect within maxPixels (capped at 4,000,000 pixels, DESIGN §7). */
export function chartSize(maxPixels: number | undefined, aspect: number): { width: number; height: number } {
  const pixels = Math.min(maxPixels ?? DEFAULT_MAX_PIXELS, CHART_PIXEL_CAP);
  const width = Math.max(1, Math.floor(Math.sqrt(pixels * aspect)));
  return { width, height: Math.max(1, Math.floor(pixels / width)) };
}

function rangeText(r: { firstDay: string | null; lastDay: string }): string {
  const de = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
  if (r.firstDay === null) return `bis ${de(r.lastDay)}`;
  return r.firstDay === r.lastDay ? de(r.firstDay) : `${de(r.firstDay)} – ${de(r.lastDay)}`;
}

export function leaderboardSpec(type: LeaderboardChart, b: Leaderboard, guildName: string): ChartSpec {
  const when = `${periodWords[b.period]} ${rangeText(b.range)}`;
  const people = b.totals.activeCount === 1 ? '1 Person' : `${b.totals.activeCount} Personen`;
  const sub = `${guildName} · ${when} · ${formatDuration(b.totals.totalMs)} von ${people}`;
  const name = (r: Leaderboard['rows'][number]) => (r.badgeNumber ? `${r.badgeNumber} ${r.nickname}` : r.nickname);
  switch (type) {
    case 'bars':
      return { kind: 'bars', title: 'Dienstzeit-Rangliste', subtitle: sub, rows: b.rows.map((r) => ({ label: name(r), ms: r.totalMs })) };
    case 'share': {
      const shown = b.rows.slice(0, SHARE_SLICES);
      const rest = b.totals.totalMs - shown.reduce((a, r) => a + r.totalMs, 0);
      const slices = shown.map((r) => ({ label: name(r), ms: r.totalMs }));
      if (rest > 0) slices.push({ label: 'Andere', ms: rest });
      return { kind: 'share', title: 'Anteil an der Dienstzeit', subtitle: sub, slices };
    }
    case 'trend':
      return trendSpec('Dienstzeit im Verlauf', sub, b.trend);
  }
}

export function personSpec(type: PersonChart, s: PersonStats, guildName: string): ChartSpec {
  const who = s.badgeNumber ? `${s.badgeNumber} ${s.nickname}` : s.nickname;
  const sub = `${guildName} · ${periodWords[s.period]} ${rangeText(s.range)} · ${formatDuration(s.totals.totalMs)} in ${s.totals.shiftCount === 1 ? '1 Schicht' : `${s.totals.shiftCount} Schichten`}`;
  if (type === 'trend') return trendSpec(`Verlauf: ${who}`, sub, s.trend);
  return { kind: 'shifts', title: `Dienstzeit: ${who}`, subtitle: sub, labels: s.trend.series.map((p) => p.label), ms: s.trend.series.map((p) => p.totalMs) };
}

function trendSpec(title: string, subtitle: string, trend: Leaderboard['trend']): ChartSpec {
  const previous = trend.previous
    ? { label: `Vorher (${rangeText(trend.previous)})`, ms: trend.series.map((p) => p.previousMs ?? 0) }
    : null;
  return { kind: 'trend', title, subtitle, labels: trend.series.map((p) => p.label), current: { label: 'Dieser Zeitraum', ms: trend.series.map((p) => p.totalMs) }, previous };
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
  const style: ChartStyle = { ...chartSize(look.maxPixels, aspect), theme: look.theme ?? 'dark', color };
  const png = await renderChart(spec, style);
  return { contentType: 'image/png' as const, base64: png.toString('base64') };
}
