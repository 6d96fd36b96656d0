import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { dayLong, dayText, daysBetween, isoWeek, monthText, spanText, todayIn } from './format.ts';
import { useLoad } from './load.ts';
import {
  backToToday, choosePeriod, custom, day, isCurrent, limit, limits, orgUnit, period, rank, shownRange, step, type ShownRange,
} from './state.ts';
import { statsText, type PeriodName } from './words.ts';

const periodNames: PeriodName[] = ['daily', 'weekly', 'monthly', 'alltime', 'custom'];

/** What the bar names: "KW 13 · 23.03. – 29.03.2026", "März 2026", "Mo., 23.03.2026". */
function rangeLabel(r: ShownRange): string {
  const t = statsText();
  if (r.firstDay === null) return t.allUntil(dayText(r.lastDay));
  switch (r.period) {
    case 'daily': return dayLong(r.firstDay);
    case 'weekly': return t.week(isoWeek(r.firstDay), spanText(r.firstDay, r.lastDay));
    case 'monthly': return monthText(r.firstDay);
    default: return spanText(r.firstDay, r.lastDay);
  }
}

/** A custom range is named from the fields themselves, so a refused one is named too: "01.01. – 31.03.2026 · 90 Tage". */
function customLabel(): string {
  const { from, to } = custom.value;
  const days = daysBetween(from, to) + 1;
  return days < 1 ? `${dayText(from)} – ${dayText(to)}` : `${spanText(from, to)} · ${statsText().days(days)}`;
}

const value = (e: Event) => (e.target as HTMLInputElement).value;

/**
 * The period of every section: Tag / Woche / Monat / Gesamt / Zeitraum, a day (or from–to) with
 * ‹ › to step and "Heute", the name of the range shown; with `filters`, rank and organisation unit
 * (from stats.filters — shown only when the server lets this person read them) and with `rows` the
 * leaderboard's length.
 */
export function PeriodBar({ filters, rows }: { filters: boolean; rows: boolean }) {
  const t = statsText();
  const p = period.value;
  const r = shownRange.value?.period === p ? shownRange.value : null;
  const current = r ? isCurrent(r) : day.value === null;
  const today = todayIn(r?.timeZone);
  return (
    <section class="card period-bar" aria-label={t.periodLabel}>
      <div class="period-row">
        <div class="segmented" role="radiogroup" aria-label={t.periodLabel} id="period-choice">
          {periodNames.map((name) => (
            <label class={p === name ? 'seg active' : 'seg'}>
              <input type="radio" name="stats-period" value={name} id={`period-${name}`} checked={p === name} onChange={() => choosePeriod(name)} />
              <span>{t.periods[name]}</span>
            </label>
          ))}
        </div>
        {p !== 'alltime' && (
          <div class="period-nav">
            <button type="button" class="step" id="period-prev" aria-label={t.prev} title={t.prev} onClick={() => step(-1)}>‹</button>
            {p === 'custom' ? (
              <span class="custom-days">
                <label class="inline">{t.from}<input type="date" id="period-from" value={custom.value.from} max={custom.value.to}
                  onChange={(e) => value(e) && (custom.value = { ...custom.value, from: value(e) })} /></label>
                <label class="inline">{t.to}<input type="date" id="period-to" value={custom.value.to}
                  onChange={(e) => value(e) && (custom.value = { ...custom.value, to: value(e) })} /></label>
              </span>
            ) : (
              <label class="inline"><span class="sr-only">{t.date}</span>
                <input type="date" id="period-date" value={day.value ?? today}
                  onChange={(e) => { const v = value(e); if (v) day.value = v === today ? null : v; }} />
              </label>
            )}
            <button type="button" class="step" id="period-next" aria-label={t.next} title={t.next} disabled={p !== 'custom' && current} onClick={() => step(1)}>›</button>
            <button type="button" class="small" id="period-today" disabled={current} onClick={backToToday}>{t.today}</button>
          </div>
        )}
        <h2 class="range-label" id="range-label" aria-live="polite">{p === 'custom' ? customLabel() : r ? rangeLabel(r) : t.loading}</h2>
      </div>
      {(filters || rows) && (
        <div class="period-row filters">
          {filters && <Filters />}
          {rows && (
            <label class="inline">{t.limit}
              <select id="stats-limit" value={String(limit.value)} onChange={(e) => (limit.value = Number(value(e)))}>
                {limits.map((n) => <option value={String(n)}>{n}</option>)}
              </select>
            </label>
          )}
        </div>
      )}
    </section>
  );
}

/** Rank and organisation-unit filters; nothing at all for someone the server does not show them to (403). */
function Filters() {
  const t = statsText();
  const loaded = useLoad<Out['stats']['filters']>(`filters:${guild.value?.guildId}`, () => api.stats.filters.query());
  const f = loaded.data;
  if (!f) return null;
  return (
    <>
      {f.ranks.length > 0 && (
        <label class="inline">{t.rank}
          <select id="stats-rank" value={rank.value} onChange={(e) => (rank.value = value(e))}>
            <option value="">{t.allRanks}</option>
            {f.ranks.map((x) => <option value={x.id}>{x.name}</option>)}
          </select>
        </label>
      )}
      {f.orgUnits.length > 0 && (
        <label class="inline">{t.orgUnit}
          <select id="stats-org" value={orgUnit.value} onChange={(e) => (orgUnit.value = value(e))}>
            <option value="">{t.allOrgUnits}</option>
            {f.orgUnits.map((o) => <option value={o}>{o}</option>)}
          </select>
        </label>
      )}
    </>
  );
}
