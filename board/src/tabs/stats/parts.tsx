import type { ComponentChildren } from 'preact';
import type { Out } from '../../app/types.ts';
import { dutyTime, signedDutyTime, signedPercent } from './format.ts';
import type { Loaded } from './load.ts';
import { statsText, type PeriodName } from './words.ts';

type Trend = Out['stats']['leaderboard']['trend'];

/** One figure: a big number, what it is, and optionally a line under it (a trend). */
export function StatCard({ id, label, value, children }: { id?: string; label: string; value: string; children?: ComponentChildren }) {
  return (
    <div class="stat-card" id={id}>
      <span class="stat-label">{label}</span>
      <span class="stat-value">{value}</span>
      {children && <span class="stat-sub">{children}</span>}
    </div>
  );
}

/**
 * The change against the previous period: ▲ +12,5 % ggü. Vorwoche, the time difference in the
 * tooltip and for screen readers. Nothing for alltime (no previous period).
 */
export function TrendBadge({ trend, period, id }: { trend: Trend; period: PeriodName; id?: string }) {
  const t = statsText();
  if (!trend.previous || trend.changeMs === null) return null;
  const before = t.previousWas(dutyTime(trend.previous.totalMs));
  if (trend.changePct === null) {
    if (trend.changeMs === 0) return null;
    return <span class="trend up" id={id} title={t.noBefore}>▲ {t.noBefore}</span>;
  }
  const dir = trend.changeMs > 0 ? 'up' : trend.changeMs < 0 ? 'down' : 'same';
  const arrow = dir === 'up' ? '▲' : dir === 'down' ? '▼' : '■';
  return (
    <span class={`trend ${dir}`} id={id} title={`${signedDutyTime(trend.changeMs)} · ${before}`}>
      <span aria-hidden="true">{arrow} </span>
      <span class="sr-only">{t[dir]}: </span>
      {dir === 'same' ? t.same : signedPercent(trend.changePct)} <span class="trend-vs">{t.vs[period]}</span>
    </span>
  );
}

/** An empty period: says so, and what would fill it. */
export function Empty({ text, hint, id }: { text: string; hint?: string; id?: string }) {
  return (
    <div class="empty" id={id}>
      <span class="empty-icon" aria-hidden="true">◷</span>
      <p>{text}</p>
      {hint && <p class="muted">{hint}</p>}
    </div>
  );
}

/** The server's message in place of what failed to load; a 400 is the chosen period's fault, said as such. */
export function LoadFailed({ loaded, id }: { loaded: Loaded<unknown>; id?: string }) {
  if (!loaded.error) return null;
  return <p class="load-error" role="alert" id={id}>{loaded.error}</p>;
}

/** "Lädt …" before the first answer; afterwards the old data stays while the next loads. */
export function Loading() {
  return <p class="muted loading-line">{statsText().loading}</p>;
}
