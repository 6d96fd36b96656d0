import { api } from '../../app/api.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { dutyTime, signedPercent, whole } from './format.ts';
import { useLoad } from './load.ts';
import { Empty, LoadFailed, Loading, StatCard } from './parts.tsx';
import { periodInput } from './state.ts';
import { einsatzText } from './words-admin.ts';
import { statsText, type PeriodName } from './words.ts';

type Einsatz = Out['stats']['einsatz'];
type Headline = Einsatz['headline'];

/** A figure's change against the previous period, for counts (more calls is neither good nor bad: no colour). */
function Change({ now, before, period }: { now: number | null; before: number | null | undefined; period: PeriodName }) {
  const t = statsText();
  if (now === null || before === null || before === undefined || before === 0 || now === before) return null;
  const pct = Math.round(((now - before) / before) * 1000) / 10;
  return <span class="trend neutral"><span aria-hidden="true">{now > before ? '▲' : '▼'} </span>{signedPercent(pct)} <span class="trend-vs">{t.vs[period]}</span></span>;
}

const time = (ms: number | null) => (ms === null ? '–' : dutyTime(ms));

/**
 * Einsatzzahlen of the period: calls from the game, time to take, incident sheets and their
 * duration, units involved — each with the change against the previous period — and below them
 * the calls by kind and priority, what became of them, and the units with the most incidents.
 */
export function EinsatzView() {
  const t = einsatzText();
  const input = periodInput.value;
  const loaded = useLoad<Einsatz>(`einsatz:${guild.value?.guildId}:${JSON.stringify(input)}`, () => api.stats.einsatz.query(input));
  const e = loaded.data;
  if (!e) return loaded.error ? <LoadFailed loaded={loaded} id="stats-error" /> : <Loading />;
  const prev: Partial<Headline> = e.previous?.headline ?? {};
  const h = e.headline;
  const quiet = h.calls === 0 && h.incidentsOpened === 0 && h.incidentsClosed === 0 && h.unitsInvolved === 0;
  return (
    <div class={`einsatz${loaded.loading ? ' refreshing' : ''}`} id="einsatz">
      <div class="stat-cards">
        <StatCard id="e-calls" label={t.calls} value={whole(h.calls)}><Change now={h.calls} before={prev.calls} period={e.period} />{' '}<span class="muted">{t.reports(whole(h.reports))}</span></StatCard>
        <StatCard id="e-taken" label={t.taken} value={whole(h.taken)}><Change now={h.taken} before={prev.taken} period={e.period} /></StatCard>
        <StatCard id="e-take-median" label={t.takeMedian} value={time(h.takeMedianMs)}>{e.takeTime.p90Ms !== null && <span class="muted">{t.p90(dutyTime(e.takeTime.p90Ms))}</span>}</StatCard>
        <StatCard id="e-opened" label={t.opened} value={whole(h.incidentsOpened)}><Change now={h.incidentsOpened} before={prev.incidentsOpened} period={e.period} />{' '}<span class="muted">{t.closedOpen(whole(h.incidentsClosed), whole(e.incidents.openNow))}</span></StatCard>
        <StatCard id="e-duration" label={t.durationMedian} value={time(h.durationMedianMs)}>{e.incidents.duration.maxMs !== null && <span class="muted">{t.longest(dutyTime(e.incidents.duration.maxMs))}</span>}</StatCard>
        <StatCard id="e-units" label={t.units} value={whole(h.unitsInvolved)}><span class="muted">{t.assignments(e.units.assignments)}</span></StatCard>
      </div>
      {quiet ? <section class="card"><Empty id="einsatz-empty" text={t.nothing} /></section> : (
        <div class="einsatz-grid">
          <section class="card" aria-labelledby="kinds-title">
            <h2 id="kinds-title">{t.byKind}</h2>
            <Bars items={Object.entries(e.calls.byKind).map(([k, n]) => [t.kinds[k] ?? k, n, `kind-${k}`])} />
            <h2 class="sub">{t.byPriority}</h2>
            <Bars items={([1, 2, 3] as const).map((p) => [t.priorities[p], e.calls.byPriority[p], `prio-${p}`])} />
          </section>
          <section class="card" aria-labelledby="outcome-title">
            <h2 id="outcome-title">{t.outcome}</h2>
            <Bars items={[[t.outcomes.taken, e.calls.taken, 'out-taken'], [t.outcomes.resolved, e.calls.resolvedWithoutTake, 'out-resolved'], [t.outcomes.open, e.calls.open, 'out-open']]} />
          </section>
          <section class="card" aria-labelledby="top-units-title">
            <h2 id="top-units-title">{t.topUnits}</h2>
            {e.units.top.length === 0 ? <p class="muted">{t.noUnits}</p> : (
              <ol class="top-units" id="top-units">
                {e.units.top.map((u) => <li><span class="mono">{u.callsign}</span>{' '}<span class="muted">{t.incidents(u.incidents)}</span></li>)}
              </ol>
            )}
          </section>
        </div>
      )}
      <LoadFailed loaded={loaded} />
    </div>
  );
}

/** Counts as horizontal bars, the largest full width. */
function Bars({ items }: { items: [string, number, string][] }) {
  const top = Math.max(1, ...items.map(([, n]) => n));
  return (
    <ul class="hbars">
      {items.map(([label, n, cls]) => (
        <li class={cls}>
          <span class="hb-label">{label}</span>
          <span class="hb-bar" aria-hidden="true"><span style={{ width: `${n ? Math.max(2, (n / top) * 100) : 0}%` }} /></span>
          <span class="hb-n">{whole(n)}</span>
        </li>
      ))}
    </ul>
  );
}
