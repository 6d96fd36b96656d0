import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { can, guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { avg, dutyTime, instantText, localDay, timeText, whole } from './format.ts';
import { useLoad } from './load.ts';
import { LoadFailed, Loading, StatCard } from './parts.tsx';
import { dataVersion, filterInput, periodInput } from './state.ts';
import { coverageText } from './words-admin.ts';
import { statsText, weekdayShort } from './words.ts';

type Heatmap = Out['stats']['heatmap'];
type Cell = Heatmap['cells'][number];
type Run = Heatmap['understaffed'][number];

const FIRST_RUNS = 8;
const hours = Array.from({ length: 24 }, (_, h) => h);

/**
 * Dienstabdeckung: weekday × hour of the average head count on duty, understaffed hours marked,
 * the understaffed runs, and the staffing minimum (editable with settings.manage).
 */
export function CoverageView() {
  const t = coverageText();
  const input = { ...periodInput.value, ...filterInput.value };
  const loaded = useLoad<Heatmap>(`heatmap:${guild.value?.guildId}:${JSON.stringify(input)}`, () => api.stats.heatmap.query(input));
  const h = loaded.data;
  if (!h) return loaded.error ? <LoadFailed loaded={loaded} id="stats-error" /> : <Loading />;
  const peak = Math.max(0, ...h.cells.map((c) => c.maxOnDuty));
  return (
    <div class={`coverage${loaded.loading ? ' refreshing' : ''}`} id="coverage">
      <div class="stat-cards">
        <StatCard id="cov-under-hours" label={t.underHours} value={whole(h.totals.understaffedHours)} />
        <StatCard id="cov-runs" label={t.runs} value={whole(h.totals.understaffedRuns)} />
        <StatCard id="cov-staff" label={t.staffHours} value={dutyTime(h.totals.staffMs)} />
        <StatCard id="cov-peak" label={t.peak} value={whole(peak)} />
      </div>
      <section class="card" aria-labelledby="heatmap-title">
        <div class="card-head">
          <h2 id="heatmap-title">{t.title}</h2>
          <Staffing current={h.minOnDuty} />
        </div>
        <p class="muted">{t.intro}</p>
        {h.minOnDuty === 0 && <p class="note" id="no-minimum">{t.noMinimum}</p>}
        <Grid cells={h.cells} />
      </section>
      {h.minOnDuty > 0 && <Runs heatmap={h} />}
      <LoadFailed loaded={loaded} />
    </div>
  );
}

function Grid({ cells }: { cells: Cell[] }) {
  const t = coverageText();
  const days = statsText().weekdays;
  const short = weekdayShort();
  const top = Math.max(1, ...cells.map((c) => c.avgOnDuty));
  return (
    <div class="heatmap-wrap">
      <table class="heatmap" id="heatmap">
        <thead>
          <tr><th scope="col" class="corner"><span class="sr-only">{t.weekday}</span></th>
            {hours.map((hr) => <th scope="col" class="hr">{hr % 3 === 0 ? String(hr).padStart(2, '0') : <span class="minor">{String(hr).padStart(2, '0')}</span>}</th>)}</tr>
        </thead>
        <tbody>
          {[1, 2, 3, 4, 5, 6, 7].map((wd) => (
            <tr>
              <th scope="row" title={days[wd - 1]}>{short[wd - 1]}</th>
              {hours.map((hr) => {
                const c = cells[(wd - 1) * 24 + hr];
                const share = c.avgOnDuty / top;
                const label = c.hours === 0 ? t.unmeasured(days[wd - 1], hr) : t.cell(days[wd - 1], hr, avg(c.avgOnDuty), c.maxOnDuty, c.understaffedHours, c.hours);
                const cls = ['cell', c.hours === 0 ? 'unmeasured' : '', c.understaffedHours > 0 ? 'under' : '', share > 0.55 ? 'hot' : ''].filter(Boolean).join(' ');
                const bg = c.avgOnDuty > 0 ? `color-mix(in srgb, var(--heat) ${Math.round(15 + share * 85)}%, var(--surface-2))` : undefined;
                return (
                  <td class={cls} data-weekday={wd} data-hour={hr} title={label} aria-label={label} style={bg ? { background: bg } : undefined}>
                    {c.avgOnDuty > 0 ? avg(c.avgOnDuty) : ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div class="heat-legend" aria-hidden="true">
        <span>{t.legendFew}</span><span class="scale" /><span>{t.legendMany(avg(top))}</span>
        <span class="legend-under"><span class="swatch" />{t.legendUnder}</span>
      </div>
    </div>
  );
}

/** The staffing minimum: a field and Save for settings.manage, the number for everyone else. */
function Staffing({ current }: { current: number }) {
  const t = coverageText();
  const [draft, setDraft] = useState<string | null>(null);
  const action = useAction();
  if (!can('settings.manage')) return <p class="muted staffing-ro" id="staffing-readonly">{t.readOnly(current)}</p>;
  const save = async (e: Event) => {
    e.preventDefault();
    const saved = await action.run(() => api.stats.setStaffing.mutate({ minOnDuty: Number(draft ?? current) }), (r) => t.saved(r.minOnDuty));
    if (saved) {
      setDraft(null);
      dataVersion.value++; // the heatmap measures against the new minimum at once (the settings notice follows)
    }
  };
  return (
    <form class="staffing" id="staffing-form" onSubmit={save}>
      <label class="inline" title={t.minimumHelp}>{t.minimum}
        <input id="staffing-min" class="num" type="number" required min={0} max={1000} step={1} inputMode="numeric"
          value={draft ?? String(current)} onInput={(e) => setDraft((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" class="small primary" id="staffing-save" disabled={action.busy || draft === null || draft === String(current)}>{t.save}</button>
      <Result id="staffing-result" action={action} />
    </form>
  );
}

/** Runs of understaffed hours, newest first. */
function Runs({ heatmap }: { heatmap: Heatmap }) {
  const t = coverageText();
  const [all, setAll] = useState(false);
  const tz = heatmap.range.timeZone;
  const runs = [...heatmap.understaffed].reverse();
  const shown = all ? runs : runs.slice(0, FIRST_RUNS);
  const span = (r: Run) => {
    const sameDay = localDay(r.from, tz) === localDay(r.to, tz);
    return `${instantText(r.from, tz)} – ${sameDay ? timeText(r.to, tz) : instantText(r.to, tz)}`;
  };
  return (
    <section class="card" aria-labelledby="runs-title">
      <h2 id="runs-title">{t.runsTitle} <span class="pill">{heatmap.totals.understaffedRuns}</span> {runs.length > 1 && <span class="muted">{t.runsNewest}</span>}</h2>
      {runs.length === 0 ? <p class="muted" id="no-runs">{t.noRuns}</p> : (
        <ul class="runs" id="understaffed-runs">
          {shown.map((r) => (
            <li><span class="run-span">{span(r)}</span><span class="muted">{t.lowest(r.lowest)} · {t.short(dutyTime(r.shortMs))}</span></li>
          ))}
        </ul>
      )}
      {!all && runs.length > FIRST_RUNS && <button type="button" class="small" id="runs-all" onClick={() => setAll(true)}>{t.more(runs.length)}</button>}
      {heatmap.understaffedTruncated && <p class="muted">{t.truncated(heatmap.totals.understaffedRuns)}</p>}
    </section>
  );
}
