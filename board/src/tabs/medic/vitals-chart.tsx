import { useMemo, useState } from 'preact/hooks';
import { clockTime, clockTimeSeconds } from '../../app/i18n.ts';
import { useWidth } from '../../ui/use-width.ts';
import { ms, type VitalSeries, type Vitals } from './types.ts';
import { medicText } from './words.ts';
import { VitalValue } from './vital-value.tsx';

type Key = 'heartRate' | 'systolic' | 'diastolic' | 'respRate' | 'spo2';
/** The drawn series: colour class, panel (top: per minute and mmHg; bottom: SpO₂ in %). */
const series: { key: Key; cls: string; panel: 'top' | 'spo2'; dashed?: boolean }[] = [
  { key: 'heartRate', cls: 's-hr', panel: 'top' },
  { key: 'systolic', cls: 's-sys', panel: 'top' },
  { key: 'diastolic', cls: 's-dia', panel: 'top', dashed: true },
  { key: 'respRate', cls: 's-resp', panel: 'top' },
  { key: 'spo2', cls: 's-spo2', panel: 'spo2' },
];

const pad = { left: 40, right: 14, top: 20 };
const topH = 190;
const gap = 30;
const spo2H = 80;
const axisH = 26;
const height = pad.top + topH + gap + spo2H + axisH;

/** A tick step (seconds) giving at most `max` ticks over `spanS`. */
function timeStep(spanS: number, max: number): number {
  const steps = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
  return steps.find((s) => spanS / s <= max) ?? 86400 * Math.ceil(spanS / 86400 / max);
}

const timeLabel = (at: number, withSeconds: boolean) => (withSeconds ? clockTimeSeconds(at) : clockTime(at));

/** A sample as drawn: its time in epoch ms (the answer's is ISO 8601). */
type Point = Omit<Vitals, 'at'> & { at: number };

/** Polyline point lists of one series, broken where a sample lacks the value. */
function runs(points: Point[], key: Key, x: (at: number) => number, y: (v: number) => number): { lines: string[]; dots: [number, number][] } {
  const lines: string[] = [];
  const dots: [number, number][] = [];
  let run: string[] = [];
  for (const p of points) {
    const v = p[key];
    if (v === null) {
      if (run.length) lines.push(run.join(' '));
      run = [];
      continue;
    }
    const px = x(p.at);
    const py = y(v);
    run.push(`${px.toFixed(1)},${py.toFixed(1)}`);
    dots.push([px, py]);
  }
  if (run.length) lines.push(run.join(' '));
  return { lines, dots };
}

/** The latest value of a series, for the legend. */
const latest = (points: Point[], key: keyof Omit<Point, 'at'>) => {
  for (let i = points.length - 1; i >= 0; i--) if (points[i][key] !== null) return points[i][key];
  return null;
};

/**
 * Vital signs over time, drawn here as SVG at the element's real width: heart rate, blood pressure
 * (systolic and diastolic) and respiratory rate on the upper panel, SpO₂ on the lower, one time axis.
 */
export function VitalsChart({ vitals }: { vitals: VitalSeries }) {
  const { ref, width } = useWidth<HTMLDivElement>(600, 200);
  return (
    <div ref={ref} class="vitals-wrap">
      {vitals.points.length ? <Chart vitals={vitals} width={width} /> : <p class="muted" id="vitals-none">{medicText().noVitals}</p>}
    </div>
  );
}

function Chart({ vitals, width }: { vitals: VitalSeries; width: number }) {
  const t = medicText();
  const points = useMemo(() => vitals.points.map((p): Point => ({ ...p, at: ms(p.at) })), [vitals.points]);

  const first = points[0].at;
  const last = points[points.length - 1].at;
  const x0 = last > first ? first : first - 60_000;
  const x1 = last > first ? last : last + 60_000;
  const plotW = width - pad.left - pad.right;
  const x = (at: number) => pad.left + ((at - x0) / (x1 - x0)) * plotW;

  const topValues = points.flatMap((p) => [p.heartRate, p.systolic, p.diastolic, p.respRate]).filter((v): v is number => v !== null);
  const topMax = Math.max(160, Math.ceil((Math.max(0, ...topValues) + 10) / 40) * 40);
  const yTop = (v: number) => pad.top + topH - (v / topMax) * topH;
  const spo2Values = points.map((p) => p.spo2).filter((v): v is number => v !== null);
  const spo2Min = Math.min(80, Math.floor((Math.min(100, ...spo2Values) - 2) / 10) * 10);
  const spo2Top = pad.top + topH + gap;
  const ySpo2 = (v: number) => spo2Top + spo2H - ((v - spo2Min) / (100 - spo2Min)) * spo2H;

  const spanS = (x1 - x0) / 1000;
  const step = timeStep(spanS, Math.max(2, Math.floor(plotW / 80)));
  const ticks: number[] = [];
  for (let s = Math.ceil(x0 / 1000 / step) * step; s * 1000 <= x1; s += step) ticks.push(s * 1000);
  const topTicks = Array.from({ length: topMax / 40 + 1 }, (_, i) => i * 40);
  const spo2Ticks = Array.from({ length: Math.floor((100 - spo2Min) / 10) + 1 }, (_, i) => spo2Min + i * 10);
  const dotsToo = points.length <= 60;
  const labels: Record<Key, string> = { heartRate: t.heartRate, systolic: t.systolic, diastolic: t.diastolic, respRate: t.respRate, spo2: t.spo2 };
  const units: Record<Key, string> = { heartRate: t.bpm, systolic: t.mmHg, diastolic: t.mmHg, respRate: t.bpm, spo2: t.percent };
  const temp = latest(points, 'temperature');
  const gcs = latest(points, 'gcs');

  // The sample nearest the pointer (mouse or touch): a cursor line and its values.
  const [hover, setHover] = useState<number | null>(null);
  const onMove = (e: PointerEvent) => {
    const px = e.clientX - (e.currentTarget as SVGSVGElement).getBoundingClientRect().left;
    const at = x0 + ((px - pad.left) / plotW) * (x1 - x0);
    let lo = 0;
    let hi = points.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (points[mid].at < at) lo = mid + 1;
      else hi = mid;
    }
    setHover(lo > 0 && at - points[lo - 1].at < points[lo].at - at ? lo - 1 : lo);
  };
  const hp = hover !== null ? points[hover] : undefined;

  return (
    <figure class="vitals-chart" id="vitals-chart" data-count={vitals.count} data-downsampled={String(vitals.downsampled)}>
      <div class="vitals-box">
        <svg width={width} height={height} role="img" aria-label={`${t.chartLabel}: ${t.samples(vitals.count)}`}
          onPointerMove={onMove} onPointerDown={onMove} onPointerLeave={() => setHover(null)}>
          <g class="gridlines">
            {topTicks.map((v) => <line x1={pad.left} x2={width - pad.right} y1={yTop(v)} y2={yTop(v)} />)}
            {spo2Ticks.map((v) => <line x1={pad.left} x2={width - pad.right} y1={ySpo2(v)} y2={ySpo2(v)} />)}
            {ticks.map((at) => <line class="v" x1={x(at)} x2={x(at)} y1={pad.top} y2={spo2Top + spo2H} />)}
          </g>
          <g class="axis">
            {topTicks.map((v) => <text x={pad.left - 6} y={yTop(v) + 4} text-anchor="end">{v}</text>)}
            {spo2Ticks.map((v) => <text x={pad.left - 6} y={ySpo2(v) + 4} text-anchor="end">{v}</text>)}
            <text class="unit" x={pad.left} y={pad.top - 8}>{t.bpm} · {t.mmHg}</text>
            <text class="unit" x={pad.left} y={spo2Top - 8}>{t.spo2} %</text>
            <line class="base" x1={pad.left} x2={width - pad.right} y1={spo2Top + spo2H} y2={spo2Top + spo2H} />
            {ticks.map((at) => <text x={x(at)} y={spo2Top + spo2H + 17} text-anchor="middle">{timeLabel(at, step < 60)}</text>)}
          </g>
          {series.map((s) => {
            const { lines, dots } = runs(points, s.key, x, s.panel === 'top' ? yTop : ySpo2);
            return (
              <g class={`series ${s.cls}`} data-series={s.key} data-points={dots.length}>
                {lines.map((pts) => <polyline points={pts} stroke-dasharray={s.dashed ? '5 3' : undefined} />)}
                {(dotsToo || lines.every((l) => !l.includes(' '))) && dots.map(([cx, cy]) => <circle cx={cx} cy={cy} r={2.5} />)}
              </g>
            );
          })}
          {hp && (
            <g class="cursor">
              <line x1={x(hp.at)} x2={x(hp.at)} y1={pad.top} y2={spo2Top + spo2H} />
              {series.map((s) => hp[s.key] !== null && (
                <circle class={s.cls} cx={x(hp.at)} cy={s.panel === 'top' ? yTop(hp[s.key]!) : ySpo2(hp[s.key]!)} r={4.5} />
              ))}
            </g>
          )}
        </svg>
        {hp && (
          <div class="vitals-tip" id="vitals-tip" aria-hidden="true" style={{ left: `${x(hp.at) + 192 <= width ? x(hp.at) + 12 : Math.max(0, x(hp.at) - 192)}px` }}>
            <strong>{timeLabel(hp.at, true)}</strong>
            {series.map((s) => hp[s.key] !== null && <span class={s.cls}><i class="swatch" aria-hidden="true" />{labels[s.key]} <VitalValue kind={s.key} value={hp[s.key]!} unit={units[s.key]} /></span>)}
            {hp.temperature !== null && <span>{t.temperature} <VitalValue kind="temperature" value={hp.temperature} unit="°C" /></span>}
            {hp.gcs !== null && <span>{t.gcs} <VitalValue kind="gcs" value={hp.gcs} /></span>}
          </div>
        )}
      </div>
      <figcaption>
        <ul class="legend" id="vitals-legend">
          {series.filter((s) => points.some((p) => p[s.key] !== null)).map((s) => {
            const v = latest(points, s.key);
            return (
              <li class={s.cls}><span class={s.dashed ? 'swatch dashed' : 'swatch'} aria-hidden="true" />
                {labels[s.key]}{v !== null && <VitalValue kind={s.key} value={v} unit={units[s.key]} />}</li>
            );
          })}
          {temp !== null && <li class="plain">{t.temperature} <VitalValue kind="temperature" value={temp} unit="°C" /></li>}
          {gcs !== null && <li class="plain">{t.gcs} <VitalValue kind="gcs" value={gcs} /></li>}
        </ul>
        <span class="muted chart-note">
          {vitals.downsampled
            ? <span class="pill flag" id="vitals-downsampled">{t.downsampled(vitals.count, points.length)}</span>
            : t.samples(vitals.count)}
        </span>
      </figcaption>
    </figure>
  );
}
