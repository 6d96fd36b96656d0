import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { ChartImg } from './chart-img.tsx';
import { dutyTime, instantText, whole } from './format.ts';
import { useLoad } from './load.ts';
import { Empty, LoadFailed, Loading, StatCard, TrendBadge } from './parts.tsx';
import { openPerson, periodInput } from './state.ts';
import { statsText, weekdayShort } from './words.ts';

type Person = Out['stats']['user'];
type Shift = NonNullable<Person['shifts']>[number];

/** Shifts listed before "show all". */
const FIRST_SHIFTS = 15;

/**
 * One person's statistics in the period: totals, average and longest shift, duty time by weekday,
 * the two charts and the single shifts. `mine`: the signed-in person's own (stats.me, which needs
 * no leaderboard right); otherwise `userId`'s (stats.user), with the way back to the list.
 */
export function PersonView({ userId, mine }: { userId: string; mine: boolean }) {
  const t = statsText();
  const input = { ...periodInput.value, detail: true };
  const loaded = useLoad<Person>(
    `person:${guild.value?.guildId}:${mine ? 'me' : userId}:${JSON.stringify(input)}`,
    () => (mine ? api.stats.me.query(input) : api.stats.user.query({ ...input, userId })),
  );
  const p = loaded.data;
  const back = !mine && (
    <button type="button" class="small back" id="person-back" onClick={() => (openPerson.value = null)}>‹ {t.back}</button>
  );
  if (!p) {
    const missing = loaded.status === 404;
    return (
      <div class="person" id={mine ? 'my-stats' : 'person-stats'}>
        {back}
        {missing ? <p class="load-error" role="alert" id="stats-error">{mine ? t.meMissing : t.notFound}</p>
          : loaded.error ? <LoadFailed loaded={loaded} id="stats-error" /> : <Loading />}
      </div>
    );
  }
  const params = { ...periodInput.value };
  const tz = p.range.timeZone;
  return (
    <div class={`person${loaded.loading ? ' refreshing' : ''}`} id={mine ? 'my-stats' : 'person-stats'} data-user={p.userId}>
      <div class="person-head">
        {back}
        <h2 id="person-name">
          {p.badgeNumber && <span class="pill mono">{p.badgeNumber}</span>}
          {p.nickname}
          {p.rank && <span class="muted person-rank">{p.rank}</span>}
          {p.totals.onDutyNow && <span class="pill on-duty" id="person-on-duty">{t.onDutyNow}</span>}
        </h2>
      </div>
      <div class="stat-cards" id="person-totals">
        <StatCard id="person-total" label={t.time} value={dutyTime(p.totals.totalMs)}>
          <TrendBadge trend={p.trend} period={p.period} id="person-trend" />
        </StatCard>
        <StatCard id="person-shifts" label={t.shifts} value={whole(p.totals.shiftCount)} />
        <StatCard id="person-average" label={t.average} value={p.totals.shiftCount ? dutyTime(p.totals.averageShiftMs) : '–'} />
        <StatCard id="person-longest" label={t.longest} value={p.totals.shiftCount ? dutyTime(p.totals.longestShiftMs) : '–'} />
      </div>
      {p.totals.shiftCount === 0 && (p.trend.previous?.totalMs ?? 0) === 0 ? (
        <section class="card"><Empty id="person-empty" text={t.empty} hint={t.emptyHint} /></section>
      ) : (
        <>
          <div class="person-grid">
            <section class="card" aria-labelledby="weekday-title">
              <h2 id="weekday-title">{t.byWeekday}</h2>
              <Weekdays days={p.byWeekday} />
            </section>
            <section class="card person-chart" aria-label={t.charts.shifts}>
              <ChartImg id="chart-user-shifts" path={`stats/user/${encodeURIComponent(p.userId)}/chart/shifts.png`} params={params} aspect={16 / 9} alt={t.chartAlt.shifts} />
            </section>
            <section class="card person-chart" aria-label={t.charts.trend}>
              <ChartImg id="chart-user-trend" path={`stats/user/${encodeURIComponent(p.userId)}/chart/trend.png`} params={params} aspect={16 / 9} alt={t.chartAlt.trend} />
            </section>
          </div>
          <section class="card" aria-labelledby="shifts-title">
            <h2 id="shifts-title">{t.shiftsTitle} <span class="pill">{p.shifts?.length ?? 0}</span></h2>
            {p.shifts?.length ? <Shifts shifts={p.shifts} timeZone={tz} /> : <p class="muted">{t.noShifts}</p>}
            {p.shiftsTruncated && <p class="muted">{t.truncated}</p>}
          </section>
        </>
      )}
      <LoadFailed loaded={loaded} />
    </div>
  );
}

/** Mo–So as bars, the longest day full width. */
function Weekdays({ days }: { days: Person['byWeekday'] }) {
  const t = statsText();
  const short = weekdayShort();
  const top = Math.max(1, ...days.map((d) => d.totalMs));
  return (
    <ul class="weekdays" id="person-weekdays">
      {days.map((d) => (
        <li data-weekday={d.weekday}>
          <span class="wd" title={t.weekdays[d.weekday - 1]}>{short[d.weekday - 1]}</span>
          <span class="wd-bar" aria-hidden="true"><span style={{ width: `${d.totalMs ? Math.max(2, (d.totalMs / top) * 100) : 0}%` }} /></span>
          <span class="wd-time">{dutyTime(d.totalMs)}</span>
        </li>
      ))}
    </ul>
  );
}

function Shifts({ shifts, timeZone }: { shifts: Shift[]; timeZone: string }) {
  const t = statsText();
  const [all, setAll] = useState(false);
  const shown = all ? shifts : shifts.slice(0, FIRST_SHIFTS);
  return (
    <>
      <div class="table-wrap">
        <table class="list shifts" id="person-shift-list">
          <thead><tr><th>{t.clockIn}</th><th>{t.clockOut}</th><th class="time">{t.duration}</th><th class="time wide-only">{t.inPeriod}</th><th>{t.status}</th></tr></thead>
          <tbody>
            {shown.map((s) => (
              <tr data-shift={s.id} class={`shift-${s.status.toLowerCase()}`}>
                <td>{instantText(s.clockInAt, timeZone)}</td>
                <td>{s.clockOutAt ? instantText(s.clockOutAt, timeZone) : <span class="muted">{t.running}</span>}</td>
                <td class="time">{dutyTime(s.durationMs)}</td>
                <td class="time wide-only">{dutyTime(s.inPeriodMs)}</td>
                <td><span class={`pill status-${s.status.toLowerCase()}`}>{t.shiftStatus[s.status]}</span></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!all && shifts.length > FIRST_SHIFTS && (
        <button type="button" class="small show-all" id="shifts-all" onClick={() => setAll(true)}>{t.showAll(shifts.length)}</button>
      )}
    </>
  );
}
