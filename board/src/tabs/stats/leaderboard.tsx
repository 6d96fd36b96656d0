import { signal } from '@preact/signals';
import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { ChartImg } from './chart-img.tsx';
import { dutyTime, whole } from './format.ts';
import { useLoad } from './load.ts';
import { Empty, LoadFailed, Loading, StatCard, TrendBadge } from './parts.tsx';
import { filterInput, limit, openPerson, periodInput } from './state.ts';
import { statsText } from './words.ts';

type Board = Out['stats']['leaderboard'];
type Row = Board['rows'][number];

/** The chart beside the table: bars or shares (the trend has its own place below). */
const sideChart = signal<'bars' | 'share'>('bars');

/**
 * Rangliste: the totals with the trend, the table (place, badge, name, rank, duty time, shifts)
 * and the three charts of the same query. A name opens that person's statistics.
 */
export function LeaderboardView() {
  const t = statsText();
  const input = { ...periodInput.value, ...filterInput.value, limit: limit.value };
  const loaded = useLoad<Board>(`board:${guild.value?.guildId}:${JSON.stringify(input)}`, () => api.stats.leaderboard.query(input));
  const b = loaded.data;
  if (!b) return loaded.error ? <LoadFailed loaded={loaded} id="stats-error" /> : <Loading />;
  // The bars stay legible: at most the first 25 people (the table lists the rest).
  const chartParams = { ...input, limit: Math.min(input.limit, 25) };
  const empty = b.rows.length === 0;
  return (
    <div class={`stats-board${loaded.loading ? ' refreshing' : ''}`} id="leaderboard">
      <div class="stat-cards" id="board-totals">
        <StatCard id="total-time" label={t.totalTime} value={dutyTime(b.totals.totalMs)}>
          <TrendBadge trend={b.trend} period={b.period} id="board-trend" />
        </StatCard>
        <StatCard id="total-shifts" label={t.shifts} value={whole(b.totals.totalShifts)} />
        <StatCard id="total-active" label={t.active} value={whole(b.totals.activeCount)} />
        <StatCard id="total-avg" label={t.perPerson} value={b.totals.activeCount ? dutyTime(b.totals.totalMs / b.totals.activeCount) : '–'} />
      </div>
      <div class="board-grid">
        <section class="card board-table" aria-labelledby="board-title">
          <h2 id="board-title">{t.sections.board}</h2>
          {empty ? <Empty id="board-empty" text={t.empty} hint={t.emptyHint} /> : <Table rows={b.rows} />}
          {!empty && <p class="muted table-foot">{t.showing(b.rows.length, b.totals.activeCount)}</p>}
        </section>
        <div class="board-charts">
          {!empty && (
            <section class="card board-chart" aria-label={t.chartKind}>
              <div class="segmented small" role="radiogroup" aria-label={t.chartKind}>
                {(['bars', 'share'] as const).map((c) => (
                  <label class={sideChart.value === c ? 'seg active' : 'seg'}>
                    <input type="radio" name="board-chart" id={`chart-pick-${c}`} checked={sideChart.value === c} onChange={() => (sideChart.value = c)} />
                    <span>{t.charts[c]}</span>
                  </label>
                ))}
              </div>
              <ChartImg id={`chart-${sideChart.value}`} path={`stats/leaderboard/chart/${sideChart.value}.png`} params={chartParams}
                aspect={sideChart.value === 'share' ? 4 / 3 : 16 / 9} alt={t.chartAlt[sideChart.value]} />
            </section>
          )}
          {(!empty || (b.trend.previous?.totalMs ?? 0) > 0) && (
            <section class="card board-trend" aria-label={t.charts.trend}>
              <ChartImg id="chart-trend" path="stats/leaderboard/chart/trend.png" params={chartParams} aspect={16 / 9} alt={t.chartAlt.trend} />
            </section>
          )}
        </div>
      </div>
      <LoadFailed loaded={loaded} />
    </div>
  );
}

function Table({ rows }: { rows: Row[] }) {
  const t = statsText();
  const top = rows[0]?.totalMs || 1;
  return (
    <div class="table-wrap">
      <table class="list leaderboard" id="leaderboard-table">
        <thead>
          <tr><th class="num">{t.place}</th><th class="badge-col">{t.badge}</th><th>{t.name}</th><th class="wide-only">{t.rank}</th><th class="time">{t.time}</th><th class="num">{t.shiftCount}</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr data-user={r.userId} class={r.place <= 3 ? `podium p${r.place}` : ''}>
              <td class="num place"><span class="place-n">{r.place}</span></td>
              <td class="badge badge-col mono">{r.badgeNumber ?? '–'}</td>
              <td class="who">
                <button type="button" class="linkish person-open" aria-label={t.openPerson(r.nickname)} onClick={() => (openPerson.value = r.userId)}>{r.nickname}</button>
              </td>
              <td class="wide-only muted">{r.rank ?? '–'}</td>
              <td class="time">
                <span class="time-text">{dutyTime(r.totalMs)}</span>
                <span class="time-bar" aria-hidden="true"><span style={{ width: `${Math.max(2, (r.totalMs / top) * 100)}%` }} /></span>
              </td>
              <td class="num shifts">{whole(r.shiftCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
